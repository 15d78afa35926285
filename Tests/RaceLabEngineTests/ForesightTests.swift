import Foundation
import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabEngine

/// The hint that knows the future (issue 21, part 4): from any state, the nearest
/// failure or the proof that none is left, checked against exhaustive searches.
struct ForesightTests {
    /// Every version: from the start, a failure is reachable exactly when the
    /// exhaustive search (the one `explore` chooses) finds a failing execution.
    @Test(arguments: ScenarioFileTests.names)
    func fromTheStartItAgreesWithTheVerdict(name: String) throws {
        let scenario = try Shipped.scenario(name)
        for version in scenario.versions {
            let fix = version.fix
            let program = version.program
            var config = ExploreConfig.automatic
            config.timeLimit = nil
            let result = Explorer(program: program, config: config).explore()
            let engine = Engine(program: program, localBudget: 10_000)
            let answer = Foresight.look(engine, from: engine.initialWorld())
            let label = "\(name) \(fix ?? "broken")"
            // A livelock no single state shows (when no final state fails): the same
            // loop, reached the same way.
            if let livelock = result.livelock, !result.outcomes.contains(where: \.outcome.isFailure) {
                #expect(answer == .livelock(steps: livelock.prefix.count, next: answerNext(answer), cycle: livelock.cycle.count), "\(label): \(answer)")
                continue
            }
            if result.failingExecutions > 0 || result.livelock != nil {
                guard case .failure(let steps, _, _) = answer else {
                    Issue.record("\(label): \(answer)")
                    continue
                }
                #expect(steps > 0, "\(label)")
            } else {
                guard case .safe = answer else {
                    Issue.record("\(label): \(answer)")
                    continue
                }
            }
        }
    }

    /// Along each broken story, every state's answer is the breadth-first distance:
    /// 0 where it failed, else one more than the nearest successor's, and the thread
    /// it names leads to a state one step nearer; a safe state has only safe successors.
    @Test(arguments: ScenarioFileTests.names)
    func alongTheStoryEachAnswerIsTheShortestDistance(name: String) throws {
        let scenario = try Shipped.scenario(name)
        let program = scenario.versions[0].program
        let engine = Engine(program: program, localBudget: 10_000)
        let story = try #require(scenario.schedules(fix: nil).first { $0.name == "story" })
        var world = engine.initialWorld()
        var checked = 0
        for threadName in try Schedule(parsing: story.steps, limit: 10_000).steps {
            let answer = Foresight.look(engine, from: world)
            let successors = engine.runnableThreads(world).map { thread in
                (thread, Foresight.look(engine, from: engine.step(world, thread: thread).0))
            }
            switch answer {
            case .livelock(let steps, let next, _) where steps > 0:
                // No state fails from here: the nearest loop is one step nearer the named way.
                let chosen = successors.first { $0.0 == next }?.1
                if case .livelock(let d, _, _)? = chosen {
                    #expect(d == steps - 1, "\(name) at step \(checked)")
                } else {
                    Issue.record("\(name) at step \(checked): the named thread does not lead nearer the loop: \(String(describing: chosen))")
                }
                for (_, later) in successors {
                    if case .livelock(let d, _, _) = later { #expect(d >= steps - 1, "\(name) at step \(checked)") }
                }
            case .failure(let steps, let next, _) where steps > 0:
                let distances = successors.map { (thread, later) -> Int? in
                    if case .failure(let d, _, _) = later { return d }
                    return nil
                }
                #expect(distances.compactMap { $0 }.min() == steps - 1, "\(name) at step \(checked)")
                let chosen = successors.first { $0.0 == next }
                if case .failure(let d, _, _)? = chosen?.1 {
                    #expect(d == steps - 1, "\(name) at step \(checked)")
                } else {
                    Issue.record("\(name) at step \(checked): the named thread does not lead nearer")
                }
            case .safe:
                for (_, later) in successors {
                    if case .safe = later { continue }
                    Issue.record("\(name) at step \(checked): a safe state has a successor that is not safe: \(later)")
                }
            default:
                break
            }
            guard let thread = world.thread(named: threadName), engine.runnableThreads(world).contains(thread) else { break }
            world = engine.step(world, thread: thread).0
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test func theSingletonRaceAnswersInWordsAndNumbers() throws {
        let engine = Engine(program: try Shipped.scenario("singleton-race").versions[0].program, localBudget: 10_000)
        #expect(
            Foresight.look(engine, from: engine.initialWorld())
                == .failure(
                    steps: 10, next: 1,
                    what: "expectation failed: exactly one MySingle is ever created; expectation failed: A and B end up with the same MySingle"))
        let fixed = Engine(program: try #require(Shipped.scenario("singleton-race").version("mutex")).program, localBudget: 10_000)
        #expect(Foresight.look(fixed, from: fixed.initialWorld()) == .safe(states: 50))
        #expect(Foresight.look(engine, from: engine.initialWorld(), maxStates: 3) == .unknown(states: 3))
    }

    /// Polite threads that back off forever: no state fails, but two steps on the
    /// threads can go round a loop of six steps forever; Dekker's turn takes it away.
    /// The page's graph marks exactly the states where the hint says "from here".
    @Test func aLivelockIsALoopAheadNotAState() throws {
        let scenario = try Shipped.scenario("polite-livelock")
        let engine = Engine(program: scenario.versions[0].program, localBudget: 10_000)
        let start = engine.initialWorld()
        let a = try #require(start.thread(named: "A"))
        #expect(Foresight.look(engine, from: start) == .livelock(steps: 2, next: a, cycle: 6))
        let fixed = Engine(program: try #require(scenario.version("turn")).program, localBudget: 10_000)
        guard case .safe = Foresight.look(fixed, from: fixed.initialWorld()) else {
            Issue.record("Dekker's fix: \(Foresight.look(fixed, from: fixed.initialWorld()))")
            return
        }
        let space = StateSpace.explore(engine, from: start, maxStates: 5_000)
        #expect(space.isComplete && space.loops.contains { $0 != nil })
        for (index, world) in space.worlds.enumerated() {
            let answer = Foresight.look(engine, from: world)
            if case .livelock(0, let next, let cycle) = answer {
                #expect(space.loops[index] == StateSpace.Loop(next: next, length: cycle), "state \(index)")
            } else {
                #expect(space.loops[index] == nil, "state \(index): \(answer)")
            }
        }
    }

    /// The lesson page's graph: each state once, steps only to states it holds, none
    /// out of a state that went wrong; a budget keeps the states nearest the start.
    @Test func theStateSpaceHoldsEveryStateOnceWithinItsBudget() throws {
        let engine = Engine(program: try Shipped.scenario("singleton-race").versions[0].program, localBudget: 10_000)
        let space = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: 5_000)
        #expect(space.isComplete && space.worlds.count == 115)
        for (index, edges) in space.edges.enumerated() {
            #expect(edges.allSatisfy { $0.target < space.worlds.count && !$0.events.isEmpty })
            if space.failures[index] != nil { #expect(edges.isEmpty) }
            // Every state's answer agrees with its failure and its steps out.
            if space.failures[index] == nil, edges.isEmpty { #expect(Foresight.look(engine, from: space.worlds[index]) == .safe(states: 1)) }
        }
        #expect(space.failures.compactMap { $0 }.count > 0)
        let small = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: 10)
        #expect(!small.isComplete && small.worlds.count == 10)
        #expect(small.edges.allSatisfy { $0.allSatisfy { $0.target < 10 } })
        // A deadline already passed adds no state past the start (and a kept run).
        let late = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: 5_000, deadline: Deadline(seconds: 0))
        #expect(!late.isComplete && late.worlds.count == 1)
        let story = try Schedule(parsing: "A A B B B A", limit: 100)
        let kept = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: 5_000, keeping: [story], deadline: Deadline(seconds: 0))
        #expect(!kept.isComplete && kept.worlds.count == 7)
    }
}

/// The thread a livelock answer names (to compare the rest of it exactly).
private func answerNext(_ answer: Foresight) -> ThreadID {
    if case .livelock(_, let next, _) = answer { return next }
    return -1
}
