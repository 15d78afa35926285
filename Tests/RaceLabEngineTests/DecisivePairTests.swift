import RaceLabTestSupport
import Testing

@testable import RaceLabEngine

/// "Why" names the conflict that decides the failure, in plain words: of the pairs
/// whose reversal passes, one on what the failing check, crash or deadlock reads.
struct DecisivePairTests {
    func pair(_ source: String, _ schedule: Schedule) throws -> DecisivePair {
        var config = ExploreConfig()
        config.timeLimit = nil
        return try #require(Explorer(program: try compile(source), config: config).decisivePair(schedule))
    }

    /// Reversing the two `print`s (or the two lock creations) also passes, since the
    /// rest then runs without preemption; but the check reads `x`, so the writes of
    /// `x` are the pair.
    @Test(arguments: ["print(\"a\")", "let l = Lock()"])
    func theConflictOnWhatTheCheckReadsComesFirst(_ before: String) throws {
        let first = before.replacing("\"a\"", with: "\"b\"").replacing("let l", with: "let m")
        let source = "var x = 0\nthread A { \(before); x = 1 }\nthread B { \(first); x = 2 }\nexpect x == 2, \"B wrote last\""
        let why = try pair(source, ["B", "B", "A", "A"])
        #expect((why.first, why.second) == (1, 3))
        #expect(why.what == "B wrote x (step 2) before A wrote it (step 4).")
        #expect(why.otherwise == "Had A written it first, every check passes (the rest running without preemption).")
    }

    @Test func aReadSaysWhatItWouldHaveSeen() throws {
        let scenario = try Shipped.scenario("singleton-race")
        let explorer = Explorer(program: scenario.versions[0].program)
        let why = try #require(explorer.decisivePair(["A", "A", "B", "B", "B", "B", "B", "A", "A", "A"]))
        #expect(why.what == "B read singleton (step 3) before A wrote it (step 8).")
        #expect(why.otherwise == "Had A written it first, B would have read MySingle#1, and every check passes (the rest running without preemption).")
    }

    /// The main-thread violation is decided by whose release is the last, not by the
    /// flag the worker polls.
    @Test func aDeallocationOnTheWrongThreadIsDecidedByTheLastRelease() throws {
        let scenario = try Shipped.scenario("dealloc-wrong-thread")
        let explorer = Explorer(program: scenario.versions[0].program)
        let why = try #require(explorer.decisivePair(["main", "main", "main", "main", "main", "worker", "worker"]))
        #expect(why.what == "main released its reference to ViewController#1 (step 5) before worker released its own (step 7).")
        #expect(why.otherwise.hasPrefix("Had worker released its reference first, main's would have been the last"))
    }

    @Test func aDeadlockIsDecidedByWhoTookTheLockFirst() throws {
        let scenario = try Shipped.scenario("deadlock")
        let explorer = Explorer(program: scenario.versions[0].program)
        let why = try #require(explorer.decisivePair(["A", "B", "B", "A"]))
        #expect(why.what == "A took lock1 (step 1) before B tried to take it (step 3).")
        #expect(why.otherwise == "Had B taken it first, every check passes (the rest running without preemption).")
    }
}
