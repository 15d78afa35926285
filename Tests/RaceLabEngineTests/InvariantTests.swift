import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// `always` invariants: checked after every step, a finding at the first step that
/// breaks one; DPOR still finds every state that breaks it.
struct InvariantTests {
    @Test func theFirstStepThatBreaksItIsTheFinding() throws {
        let run = try RaceLabEngineTests.run("var x = 0\nvar y = 0\nthread A { x = 1; y = 1 }\nalways x == y, \"x and y move together\"")
        #expect(run.end == .crashed)
        #expect(run.schedule == ["A"])
        #expect(run.events.map(\.text) == ["writes x = 1", "breaks the invariant: x and y move together"])
        #expect(run.findings.map(\.message) == ["x and y move together"])
        #expect(run.findings.map(\.kind) == [.invariant])
        // One that cannot be evaluated does not hold either.
        // An invariant that reads a variable that does not exist is a diagnostic.
        #expect(throws: ScriptError.self) { try compile("var x = 0\nthread A { x = 1 }\nalways y == 1, \"nope\"") }
        let broken = try RaceLabEngineTests.run("var a = [1]\nthread A { a.removeLast() }\nalways a[0] == 1, \"a keeps its first\"")
        #expect(broken.findings.last?.message.hasPrefix("a keeps its first: could not be evaluated: ") == true)
    }

    /// Two steps on different variables are independent, but the states between them
    /// are not: each order passes through its own. The search must see both.
    static let programs = [
        "var x = 0\nvar y = 0\nthread A { x = 1 }\nthread B { y = 1 }\nalways !(x == 1 && y == 0), \"y is set before x\"",
        "var x = 0\nvar y = 0\nthread A { x = 1 }\nthread B { y = 1 }\nalways !(x == 0 && y == 1), \"x is set before y\"",
        "var x = 0\nvar y = 0\nvar z = 0\nthread A { x = 1; x = 0 }\nthread B { y = 1; y = 0 }\nthread C { let k = z }\nalways x + y < 2, \"never both\"",
        "class C {}\nvar c: C? = nil\nvar n = 0\nthread A { c = C() }\nthread B { n = 1 }\nalways !(created(C) == 1 && n == 0), \"n first\"",
        // Broken by the initial values (the grammar fuzzer's find: DPOR said proven).
        "var s = 1\nvar y = 0\nthread A { s = 0 }\nthread B { let t = y }\nalways s == 0, \"s is 0\"",
    ]

    /// `always` holds in the first state too: broken by the initial values, a run
    /// fails before its first step.
    @Test func anInvariantBrokenFromTheStartFailsEveryRunAtOnce() throws {
        let run = try RaceLabEngineTests.run("var s = 1\nthread A { s = 0 }\nalways s == 0, \"s is 0\"")
        #expect(run.end == .crashed && run.schedule.isEmpty)
        #expect(run.findings.map(\.message) == ["s is 0"])
    }

    @Test(arguments: programs)
    func dporFindsEveryBrokenStateNoReductionDoes(_ source: String) throws {
        var outcomes: [ExploreConfig.Reduction: Set<String>] = [:]
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            var config = ExploreConfig()
            config.reduction = reduction
            config.timeLimit = nil
            let result = Explorer(program: try compile(source), config: config).explore()
            outcomes[reduction] = Set(result.outcomes.map { "\($0.outcome.state) \($0.outcome.findings)" })
            #expect(result.isExhaustive)
        }
        #expect(outcomes[.dpor] == outcomes[.none], "\(source)")
        #expect(outcomes[.none]?.contains { $0.contains("invariant") } == true, "every program here can break its invariant")
    }
}

/// `critical` sections: at most one thread inside the sections of one name; the
/// trace says who entered while whom was inside.
struct CriticalSectionTests {
    static let unprotected = """
        var n = 0
        thread A { critical { n += 1 } }
        thread B { critical { n += 1 } }
        """

    @Test func aSecondThreadEnteringIsTheFinding() throws {
        let run = try RaceLabEngineTests.run(Self.unprotected, schedule: "A B")
        #expect(
            run.events.map { "\(run.world.threadNames[$0.thread]) \($0.text)" } == [
                "A enters the critical section", "B enters the critical section while A is inside",
            ])
        #expect(run.findings.map(\.message) == ["B enters the critical section while A is inside: at most one thread may be in it at a time"])
        #expect(run.end == .crashed)
        // One after the other is fine, and so is a lock around it.
        #expect(try RaceLabEngineTests.run(Self.unprotected, schedule: "A A A A B B B B").findings.isEmpty)
        let locked =
            "let l = Lock()\nvar n = 0\nthread A { synchronized(l) { critical \"n\" { n += 1 } } }\nthread B { synchronized(l) { critical \"n\" { n += 1 } } }"
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            var config = ExploreConfig()
            config.reduction = reduction
            config.timeLimit = nil
            #expect(Explorer(program: try compile(locked), config: config).explore().verdict() == .proven, "\(reduction)")
            let broken = Explorer(program: try compile(Self.unprotected), config: config).explore()
            #expect(broken.outcomes.contains { $0.outcome.findings == [.exclusion] }, "\(reduction)")
        }
    }

    /// Leaving by `return` or `break` leaves the section; a section inside itself is
    /// a diagnostic.
    @Test func earlyExitsLeaveAndNestingIsRefused() throws {
        let source = """
            var n = 0
            func bump() -> Int { critical { n += 1
             return n } }
            thread A { let a = bump()
             while true { critical { break } }
             let b = bump() }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(run.findings.isEmpty)
        #expect(run.world.criticalInside == [[]])
        #expect(throws: ScriptError.self) { try compile("thread A { critical { critical { } } }") }
        #expect(throws: Never.self) { try compile("thread A { critical \"a\" { critical \"b\" { } } }") }
    }
}
