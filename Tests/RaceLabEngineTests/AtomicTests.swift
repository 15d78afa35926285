import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// `Atomic(n)` and `atomic var` (issue 20, part 3): one step per operation, never a
/// data race, an order between a store and the load that sees it; and an atomic
/// property's `+=` is still two steps.
struct AtomicTests {
    static let counter = """
        let hits = Atomic(0)
        atomic var count = 0
        thread A { hits.wrappingAdd(1, ordering: .relaxed); count += 1 }
        thread B { hits.wrappingAdd(1); count += 1 }
        expect hits.load() == 2, "every hit is counted"
        expect count == 2, "the atomic property counts every hit"
        """

    @Test func anAtomicIncrementIsOneStepAndAnAtomicPropertysIsTwo() throws {
        let run = try RaceLabEngineTests.run(Self.counter)
        #expect(
            lines(run) == [
                "A adds 1 to hits atomically (relaxed): 0 → 1", "B adds 1 to hits atomically: 1 → 2",
                "A reads count atomically: 0", "B reads count atomically: 0", "A writes count = 1 atomically", "A finishes",
                "B writes count = 1 atomically", "B finishes",
            ])
        let result = Explorer(program: try compile(Self.counter)).explore()
        #expect(result.dataRaces.isEmpty)
        #expect(result.outcomes.map { "\($0.outcome.state) \($0.interleavings)" } == ["hits = 2, count = 2 8", "hits = 2, count = 1 12"])
    }

    @Test func theAtomicCounterIsProvenByEverySearch() throws {
        let source = "let hits = Atomic(0)\nthread A { hits.wrappingAdd(1) }\nthread B { hits.wrappingSubtract(2) }\nexpect hits.load() == -1, \"both counted\""
        #expect(try provenCountsAcrossSearches(compile(source)) == ["2 2", "2 2", "1 2"])
    }

    /// Message passing: the store is ordered before the load that sees it.
    static let handoff = """
        let flag = Atomic(0)
        var data = 0
        var got = 0
        thread producer { data = 42; flag.store(1) }
        thread consumer {
            while flag.load() == 0 { }
            got = data
        }
        expect got == 42, "the consumer sees the data"
        """

    @Test func aStoreAndTheLoadThatSeesItOrderAHandoff() throws {
        #expect(try provenCountsAcrossSearches(compile(Self.handoff)) == ["3 6", "6 6", "1 6"])
        // Written after the flag: nothing orders the data any more.
        let late = Explorer(program: try compile(Self.handoff.replacingOccurrences(of: "data = 42; flag.store(1)", with: "flag.store(1); data = 42")))
            .explore()
        #expect(late.verdict() == .fails)
        #expect(late.dataRaces.map { "\($0.target) \($0.first.thread) \($0.second.thread)" } == ["data producer consumer"])
    }

    @Test func compareExchangeIsOneStepAndASpinLockOfItIsProven() throws {
        let source = """
            let taken = Atomic(0)
            var count = 0
            thread A {
                while !taken.compareExchange(expected: 0, desired: 1).exchanged { }
                count += 1
                taken.store(0)
            }
            thread B {
                while !taken.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing) { }
                count += 1
                taken.store(0)
            }
            expect count == 2, "a spin lock made of compare-exchange"
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A B A A A B")
        #expect(
            lines(run).prefix(7) == [
                "A compares taken with 0: equal, so it becomes 1 (exchanged: true)",
                "B compares taken with 0 (acquiring): it is 1, so it stays (exchanged: false)",
                "A reads count: 0", "A writes count = 1", "A stores 0 into taken atomically", "A finishes",
                "B compares taken with 0 (acquiringAndReleasing): equal, so it becomes 1 (exchanged: true)",
            ])
        #expect(try provenCountsAcrossSearches(compile(source)) == ["6 20", "20 20", "1 20"])
    }

    @Test func misuseIsDiagnosed() throws {
        for (source, message) in [
            (
                "let a = Atomic(0)\nthread A { a.wrappingAdd(1, ordering: .strong) }",
                "an ordering is .relaxed, .acquiring, .releasing, .acquiringAndReleasing or .sequentiallyConsistent"
            ),
            ("let a = Atomic(0)\nthread A { a.compareExchange(0, 1) }", "write compareExchange(expected: e, desired: d)"),
            ("let a = Atomic(value: 0)", "write Atomic(0): the initial value has no label"),
            ("atomic func f() { }", "expected a declaration, found 'atomic'"),
        ] {
            let error = #expect(throws: ScriptError.self) { try compile(source) }
            #expect(error?.diagnostics.map(\.message) == [message], "\(source)")
        }
        let run = try RaceLabEngineTests.run("let a = Atomic(0)\nthread A { a.store(true) }")
        #expect(run.findings.map(\.message) == ["a.store(_:) needs an Int"])
    }
}
