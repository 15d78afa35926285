import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// A spin loop becomes a wait: the search is exhaustive without a step bound, and
/// finds the failures the plain semantics finds within one.
struct SpinWaitTests {
    static let programs: [(String, String)] = [
        (
            "Peterson",
            """
            var flagA = false
            var flagB = false
            var turn = 0
            thread A { flagA = true; turn = 1; while flagB && turn == 1 { }; critical { }; flagA = false }
            thread B { flagB = true; turn = 0; while flagA && turn == 0 { }; critical { }; flagB = false }
            """
        ),
        (
            "Peterson, assignments swapped",
            """
            var flagA = false
            var flagB = false
            var turn = 0
            thread A { turn = 1; flagA = true; while flagB && turn == 1 { }; critical { }; flagA = false }
            thread B { turn = 0; flagB = true; while flagA && turn == 0 { }; critical { }; flagB = false }
            """
        ),
        (
            "a flag that is not a lock",
            """
            var flag = false
            thread A { while flag { work(1) }; flag = true; critical { }; flag = false }
            thread B { while flag { work(1) }; flag = true; critical { }; flag = false }
            """
        ),
        (
            "a hand-off",
            """
            var data = 0
            var ready = false
            thread A { data = 1; ready = true }
            thread B { while !ready { }; assert(data == 1, "B sees A's data") }
            """
        ),
    ]

    func explore(_ source: String, spinWaits: Bool, _ reduction: ExploreConfig.Reduction, maxSteps: Int = 2_000) throws -> Exploration {
        var engine = Engine(program: try compile(source), localBudget: 10_000)
        engine.spinWaits = spinWaits
        var config = ExploreConfig()
        config.reduction = reduction
        config.maxSteps = maxSteps
        config.timeLimit = nil
        return Explorer(engine: engine, config: config).explore()
    }

    /// The kinds of failure an exploration reached, leaving out the step limit.
    func failures(_ result: Exploration) -> Set<Finding.Kind> {
        Set(result.outcomes.flatMap(\.outcome.findings)).subtracting([.stepLimit])
    }

    @Test(arguments: programs.map(\.0))
    func spinWaitsReachTheFailuresAPlainBoundedSearchReaches(_ name: String) throws {
        let source = try #require(Self.programs.first { $0.0 == name }?.1)
        let waits = try explore(source, spinWaits: true, .dpor)
        #expect(waits.isExhaustive, "\(name): no step bound cuts a spin wait")
        let plain = try explore(source, spinWaits: false, .none, maxSteps: 14)
        #expect(!plain.isExhaustive, "\(name): without the rule, the bound cuts the spin")
        #expect(failures(waits) == failures(plain), "\(name)")
        let waitsNone = try explore(source, spinWaits: true, .none)
        #expect(failures(waitsNone) == failures(waits), "\(name): DPOR and no reduction agree")
    }

    @Test func petersonIsProvenAndTheSwappedOneBroken() throws {
        // On plain variables mutual exclusion holds in every interleaving, but the
        // flags and the turn race (Swift's memory model promises nothing of them), so
        // the verdict fails; on atomics it is proven.
        let plain = try explore(Self.programs[0].1, spinWaits: true, .dpor)
        #expect(plain.isExhaustive && plain.failingExecutions == 0 && plain.failsByRacesAlone && plain.verdict() == .fails)
        #expect(Set(plain.dataRaces.map(\.target)) == ["flagA", "flagB", "turn"])
        let atomic = Self.programs[0].1.replacingOccurrences(of: "var ", with: "atomic var ")
        #expect(try explore(atomic, spinWaits: true, .dpor).verdict() == .proven)
        #expect(try failures(explore(Self.programs[1].1, spinWaits: true, .dpor)) == [.exclusion])
    }

    /// A spin nothing releases is a deadlock that names what it spins on.
    @Test func aSpinNothingReleasesIsADeadlock() throws {
        let run = try RaceLabEngineTests.run("var go = false\nthread A { while !go { } }")
        #expect(run.end == .deadlocked)
        #expect(
            run.events.map(\.text) == [
                "reads go: false", "spins on go, waiting for another thread to change it (a spin loop: it waits instead)",
            ])
        #expect(run.findings.map(\.message) == ["every thread left is blocked: A spins on go, waiting for another thread to change it"])
    }
}
