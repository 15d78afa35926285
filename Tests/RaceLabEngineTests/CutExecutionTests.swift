import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// A bounded search finds what its bound allows: an execution cut at the step bound
/// still races its threads' next steps against the trace, and is labelled cut.
struct CutExecutionTests {
    static let endless = """
        var x = 0
        thread A { while true { x = 0 } }
        thread B { x = 1; assert(x == 1, "x stays one") }
        """

    func explore(_ source: String, _ adjust: (inout ExploreConfig) -> Void = { _ in }) throws -> (Explorer, Exploration) {
        var config = ExploreConfig()
        config.timeLimit = nil
        adjust(&config)
        let explorer = Explorer(program: try compile(source), config: config)
        return (explorer, explorer.explore())
    }

    @Test func aThreadThatNeverStopsDoesNotHideAThreeStepFailure() throws {
        let (explorer, result) = try explore(Self.endless) { $0.maxSteps = 12 }
        #expect(result.cut == .stepBound(12))
        #expect(result.verdict() == .fails)
        #expect(result.outcomes.contains { $0.outcome.end == .stepLimit && !$0.outcome.isFailure })
        #expect(result.outcomes.contains { $0.outcome.findings == [.assertion] })
        // The simplest counterexample: two preemptions, and no more steps than needed.
        let example = try #require(explorer.counterexample(for: result))
        #expect(example.notSimplest == nil)
        #expect(example.preemptions == 2)
        #expect(example.schedule == ["B", "A", "B", "B"])
    }

    @Test func aDeadlineThatHasPassedCutsBothSearchesAndStillGivesACounterexample() throws {
        var config = ExploreConfig()
        config.maxSteps = 12
        config.timeLimit = nil
        let explorer = Explorer(program: try compile(Self.endless), config: config)
        let result = explorer.explore()
        var late = config
        late.deadline = Deadline(seconds: 0)
        let hurried = Explorer(program: try compile(Self.endless), config: late)
        #expect(hurried.explore().cut == .timeLimit(0))
        let example = try #require(hurried.counterexample(for: result))
        #expect(example.notSimplest == .timeLimit(0))
        #expect(example.schedule == result.shortestFailure)
    }

    /// A thread that never stops makes the search for the simplest counterexample
    /// climb to the step limit at every preemption bound; when that search is cut,
    /// the short failure its first pass found stands in, not a 2,000-step one.
    @Test func aCutSearchForTheSimplestStillShowsAShortFailure() throws {
        var config = ExploreConfig()
        config.maxSteps = 2_000
        config.timeLimit = nil
        let explorer = Explorer(program: try compile(Self.endless), config: config)
        // The shortest failure an exploration saw: A loops 1,000 times first.
        var result = Exploration(reduction: .dpor)
        result.shortestFailure = Schedule(Array(repeating: "A", count: 1_000) + ["B", "A", "B", "B"])
        let example = try #require(explorer.counterexample(for: result, budget: 600))
        #expect(example.notSimplest == .executionBound(600))
        #expect(example.schedule == ["B", "A", "B", "B"])
        #expect(example.preemptions == 2)
    }

    /// Without reduction, a failing search always has a counterexample too, even when
    /// the simplest one needs more preemptions than the search for it tries.
    @Test func aFailureNeedingManyPreemptionsStillHasACounterexample() throws {
        let source = """
            var x = 0
            thread A { x = 1; x = 2; x = 3; x = 4 }
            thread B { let a = x; let b = x; let c = x; let d = x; assert(!(a == 1 && b == 2 && c == 3 && d == 4), "not in step") }
            """
        let (explorer, result) = try explore(source) { $0.reduction = .none }
        #expect(result.verdict() == .fails)
        let example = try #require(explorer.counterexample(for: result, maxPreemptions: 2))
        #expect(example.notSimplest == .preemptionBound(2))
        #expect(example.schedule.count == result.shortestFailure?.count)
    }
}

/// Deadlock sentences say what is true: a lock waited for by its own holder, a lock
/// whose holder has finished, an operation that nothing will run.
struct DeadlockSentenceTests {
    @Test(arguments: [
        (
            "let L = Lock()\nthread A { L.lock(); L.lock() }",
            "a wait-for cycle: A waits for L, which A itself holds: a lock that is not re-entrant"
        ),
        (
            "let L = Lock()\nlet M = Lock()\nthread A { M.lock(); L.lock(); L.lock() }",
            "a wait-for cycle: A holds M and waits for L, which A itself holds: a lock that is not re-entrant"
        ),
        (
            "let m = Lock()\nthread B { m.lock() }\nthread A { work(3); m.lock() }",
            "every thread left is blocked: A waits for m, but B finished while holding it"
        ),
        (
            "thread A {\n let op = Operation(name: \"lonely\") { op in work(1) }\n op.waitUntilFinished()\n}",
            "every thread left is blocked: A waits for operation lonely to finish, but it was never added to a queue, so nothing will run it"
        ),
    ])
    func theDeadlockIsDescribedTruly(source: String, message: String) throws {
        let result = try run(source)
        #expect(result.end == .deadlocked)
        #expect(result.findings.map(\.message) == [message])
    }
}
