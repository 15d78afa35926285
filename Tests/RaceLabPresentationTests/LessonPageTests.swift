import Foundation
import RaceLabEngine
import RaceLabLanguage
import Testing

@testable import RaceLabPresentation

/// The lesson page's embedded data: what a reader can play, watch and read, for a
/// program small enough to know every state of.
struct LessonPageTests {
    static let counter = """
        title "Two counters"
        challenge "lose an increment"
        var count = 0

        func increment() {
            count += 1
        }

        thread A {
            increment()
            increment()
        }

        thread B {
            increment()
            increment()
        }

        expect count == 4, "every increment counts"

        schedule story "A B B B B A A A"

        fix mutex {
            summary "A lock around the increment."
            let lock = NSLock()
            func increment() {
                lock.lock()
                count += 1
                lock.unlock()
            }
        }
        """

    static func versions(_ maxStates: Int) throws -> [[String: Any]] {
        let scenario = try Scenario.load(name: "counter", file: SourceFile(name: "counter.race", text: counter))
        let json = LessonPage(lesson: Lesson.of(scenario, maxStates: maxStates, config: .automatic), selected: nil).versions().compact()
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    /// Follows moves (thread numbers from 1) from the start; the states visited.
    static func follow(_ moves: [Int], _ states: [[String: Any]]) throws -> [Int] {
        var path = [0]
        for move in moves {
            let steps = try #require(states[path.last!]["steps"] as? [[Int]])
            let step = try #require(steps.first { $0[0] == move - 1 }, "no step of thread \(move) from state \(path.last!)")
            path.append(step[1])
        }
        return path
    }

    /// Past its budget the page keeps the story and the shortest failing run whole,
    /// marks the states whose steps it left out, and knows it is not complete.
    @Test func pastTheBudgetTheRunsToWatchAreKeptWhole() throws {
        let small = try Self.versions(10)
        let broken = small[0]
        let graph = try #require(broken["graph"] as? [String: Any])
        let states = try #require(graph["states"] as? [[String: Any]])
        let strings = try #require(graph["strings"] as? [String])
        #expect(graph["complete"] as? Bool == false)
        let watch = try #require(broken["watch"] as? [[Any]])
        #expect(watch.map { $0[0] as? String } == ["the story", "the shortest failing run"])
        #expect(watch[0][1] as? [Int] == [2, 3, 3, 3, 3, 2, 2, 2])
        // Both runs end in the failed check; the story's 8 steps and the start are 9 states.
        for run in watch {
            let path = try Self.follow(try #require(run[1] as? [Int]), states)
            let failure = try #require(states[path.last!]["failure"] as? [Int])
            #expect(strings[failure[0]] == "expectation failed: every increment counts")
            #expect(strings[failure[1]].hasPrefix("The final state is wrong."))
        }
        // The start and the story's 8 states come first, then the failing run's own 6;
        // nothing else fits in a budget of 10.
        #expect(try Self.follow(watch[0][1] as! [Int], states) == Array(0...8))
        #expect(try Self.follow(watch[1][1] as! [Int], states) == [0, 1, 9, 10, 11, 12, 13, 14, 8])
        #expect(states.count == 15)
        #expect(states.contains { $0["cut"] as? Bool == true })
        // With room for all of them, nothing is cut, and the fix has no failing run.
        let whole = try Self.versions(5_000)
        let full = try #require(whole[0]["graph"] as? [String: Any])
        #expect(full["complete"] as? Bool == true)
        #expect((full["states"] as? [[String: Any]])?.contains { $0["cut"] != nil } == false)
        // The story cannot be followed with the lock (B waits for it at its second
        // step), and the fix has no failing run: nothing to watch.
        #expect((whole[1]["watch"] as? [[Any]])?.isEmpty == true)
        #expect(whole[1]["proven"] as? Bool == true && whole[0]["proven"] as? Bool == false)
    }

    /// Each thread stands in a code, shown whole, with the line of its next step.
    @Test func eachThreadShowsItsCodeAndItsNextLine() throws {
        let versions = try Self.versions(5_000)
        let graph = try #require(versions[0]["graph"] as? [String: Any])
        let strings = try #require(graph["strings"] as? [String])
        let codes = try #require(graph["codes"] as? [[Any]])
        let states = try #require(graph["states"] as? [[String: Any]])
        func threads(_ state: Int) throws -> [[Int]] { try #require(states[state]["threads"] as? [[Int]]) }
        // At the start A stands where its first step is: the read in increment (its call
        // is not a step of its own), line 6.
        let a = try threads(0)[1]
        #expect(strings[a[0]] == "A" && strings[a[1]] == "can run" && a[3] == 6)
        let aCode = codes[a[2]]
        #expect(strings[aCode[0] as! Int] == "increment" && aCode[1] as? Int == 6)
        #expect((aCode[2] as! [Int]).map { strings[$0] } == ["    count += 1", "}"])
        // B stands in the same code, and the page holds it once.
        #expect(try threads(0)[2][2] == a[2])
        // A finished thread stands nowhere.
        let done = try Self.follow([2, 2, 2, 2], states)
        #expect(try threads(done.last!)[1][2] == -1 && strings[try threads(done.last!)[1][1]] == "finished")
    }

    @Test func theReplayCommandQuotesWhatAShellWouldSplit() {
        #expect(ReplayCommand.shellWord("singleton-race") == "singleton-race")
        #expect(ReplayCommand.shellWord("my lessons/a.race") == "'my lessons/a.race'")
        #expect(ReplayCommand.shellWord("it's.race") == "'it'\\''s.race'")
        #expect(ReplayCommand.shellWord("$(rm -rf ~)") == "'$(rm -rf ~)'")
        #expect(ReplayCommand.shellWord("") == "''")
        #expect(
            ReplayCommand("my lessons/a.race", fix: "mutex").schedule(["A", "B", "B"]) == "racelab run 'my lessons/a.race' --fix mutex --schedule \"A B B\"")
        #expect(ReplayCommand("deadlock", verb: "step").text == "racelab step deadlock")
    }

    /// Two threads taking turns forever, each turn marked `progress`: the steps that
    /// pass it say so, and no state is in a livelock's loop; without the marks, the
    /// same program loops without progress from nearly every state.
    @Test func stepsThatMakeProgressAreMarkedAndBreakLoops() throws {
        let source = """
            var turn = 0
            thread A { while true { while turn != 0 { }
                critical { progress }
                turn = 1 } }
            thread B { while true { while turn != 1 { }
                critical { progress }
                turn = 0 } }
            """
        func states(_ text: String) throws -> [[String: Any]] {
            let scenario = try Scenario.load(name: "turns", file: SourceFile(name: "turns.race", text: text))
            let json = LessonPage(lesson: Lesson.of(scenario, maxStates: LessonPage.defaultMaxStates, config: .automatic), selected: nil).versions().compact()
            let versions = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            let graph = try #require(versions[0]["graph"] as? [String: Any])
            return try #require(graph["states"] as? [[String: Any]])
        }
        let marked = try states(source)
        let steps = marked.flatMap { ($0["steps"] as? [[Any]]) ?? [] }
        #expect(steps.contains { $0.count == 4 && $0[3] as? Bool == true })
        #expect(steps.allSatisfy { $0.count == 3 || $0[3] as? Bool == true })
        #expect(!marked.contains { $0["loop"] != nil })
        // No `progress`, and the loop that takes turns sits inside another whose round
        // never ends: no step makes progress.
        let unmarked = try states(
            source.replacingOccurrences(of: "critical { progress }", with: "critical { }")
                .replacingOccurrences(of: "{ while true {", with: "{ while true { while true {")
                .replacingOccurrences(of: "turn = 1 } }", with: "turn = 1 } } }")
                .replacingOccurrences(of: "turn = 0 } }", with: "turn = 0 } } }"))
        #expect(unmarked.allSatisfy { ($0["steps"] as? [[Any]])?.allSatisfy { $0.count == 3 } == true })
        // 16 of its 20 states are on such loops: the 4 others come before both threads
        // have entered their own, and no run comes back to them.
        #expect(unmarked.count == 20 && unmarked.filter { $0["loop"] != nil }.count == 16)
    }

    /// Past 64 threads no search can follow who may run: the page holds the start,
    /// marked as cut, and no steps, rather than steps of some threads only.
    @Test func pastSixtyFourThreadsThePageStops() throws {
        let source = "var x = 0\n" + (0..<70).map { "thread T\($0) { x = \($0) }" }.joined(separator: "\n")
        let scenario = try Scenario.load(name: "many", file: SourceFile(name: "many.race", text: source))
        let json = LessonPage(lesson: Lesson.of(scenario, maxStates: LessonPage.defaultMaxStates, config: .automatic), selected: nil).versions().compact()
        let versions = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let graph = try #require(versions[0]["graph"] as? [String: Any])
        let states = try #require(graph["states"] as? [[String: Any]])
        #expect(states.count == 1 && states[0]["cut"] as? Bool == true && (states[0]["steps"] as? [Any])?.isEmpty == true)
        #expect(graph["complete"] as? Bool == false)
    }
}
