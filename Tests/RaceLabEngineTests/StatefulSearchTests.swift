import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabEngine

/// The stateful search against the stateless one on programs that end: the same
/// outcomes, verdicts and interleaving counts (paths through the state graph are the
/// interleavings), and the same variables found in data races.
struct StatefulSearchTests {
    func explore(_ program: Program, _ search: ExploreConfig.Search, reduction: ExploreConfig.Reduction = .dpor) -> Exploration {
        var config = ExploreConfig()
        config.search = search
        config.reduction = reduction
        config.timeLimit = nil
        config.maxExecutions = 10_000_000
        return Explorer(program: program, config: config).explore()
    }

    @Test(arguments: ExplorerTests.oraclePrograms.map(\.0))
    func statefulAgreesWithDPOR(_ name: String) throws {
        let program = try #require(ExplorerTests.oraclePrograms.first { $0.0 == name }?.1)
        let stateful = explore(program, .stateful)
        let dpor = explore(program, .stateless)
        #expect(stateful.isExhaustive && dpor.isExhaustive, "\(name)")
        #expect(stateful.countsInterleavings, "\(name): a program that ends has no cycle")
        #expect(stateful.verdict() == dpor.verdict(), "\(name)")
        func histogram(_ result: Exploration) -> [Outcome: InterleavingCount] {
            Dictionary(uniqueKeysWithValues: result.outcomes.map { ($0.outcome, $0.interleavings) })
        }
        if dpor.interleavings.isExact {
            #expect(histogram(stateful) == histogram(dpor), "\(name)")
        } else {
            #expect(Set(stateful.outcomes.map(\.outcome)) == Set(dpor.outcomes.map(\.outcome)), "\(name)")
        }
        #expect(Set(stateful.dataRaces.map(\.target)) == Set(dpor.dataRaces.map(\.target)), "\(name)")
        #expect((stateful.shortestFailure == nil) == (dpor.shortestFailure == nil), "\(name)")
        #expect(stateful.livelock == nil, "\(name)")
    }
}

/// The stateful search's own results, exactly: graph sizes, counts, livelock.
struct StatefulGraphTests {
    func explore(_ source: String, maxStates: Int = 1_000_000) throws -> Exploration {
        var config = ExploreConfig()
        config.search = .stateful
        config.maxStates = maxStates
        config.timeLimit = nil
        return Explorer(program: try compile(source), config: config).explore()
    }

    static let twoWriters = "var x = 0\nthread A { x = 1\n x = 2 }\nthread B { x = 3\n x = 4\n x = 5 }"

    /// A state is a position of each thread and what x holds: (1, 1) with x = 1 and
    /// with x = 3 are two states. The paths are the 10 interleavings of 2 and 3 steps.
    @Test func twoWritersMakeEighteenStatesAndTenPaths() throws {
        let result = try explore(Self.twoWriters)
        #expect((result.states, result.transitions, result.depth) == (18, 24, 5))
        #expect(result.isExhaustive && result.countsInterleavings && result.livelock == nil)
        // Breadth first, both final states are 5 steps away; A A B B B's is met first.
        #expect(result.outcomes.map(\.outcome.state) == ["x = 5", "x = 2"])
        #expect(result.outcomes.map(\.interleavings) == [InterleavingCount(6), InterleavingCount(4)])
        #expect(result.outcomes.map(\.executions) == [1, 1], "one final state each")
        #expect(result.outcomes.map(\.schedule) == [["A", "A", "B", "B", "B"], ["A", "B", "B", "B", "A"]], "shortest, first found breadth first")
        // No check fails, but the two writers race on x.
        #expect(result.failingExecutions == 0 && result.failsByRacesAlone)
    }

    @Test func theStateBudgetCutsTheSearch() throws {
        let result = try explore(Self.twoWriters, maxStates: 10)
        #expect(result.cut == .stateBound(10))
        #expect(result.states == 10, "the state that reached the budget had all its steps taken")
        // The race on x, seen before the cut, is a finding: the verdict fails.
        #expect(result.verdict() == .fails && result.failsByRacesAlone)
        #expect(!result.countsInterleavings, "a cut graph has unknown paths: final states are counted")
    }

    /// An array that grows every step makes every state larger than the last: the
    /// memory budget stops the search before the machine runs out.
    @Test func theMemoryBudgetStopsStatesThatGrowEveryStep() throws {
        var config = ExploreConfig()
        config.search = .stateful
        config.maxStateMemory = 200_000
        let result = Explorer(program: try compile("var a = [0]\nthread A { while true { a.append(1) } }"), config: config).explore()
        #expect(result.cut == .memoryBound(200_000))
        #expect(result.memory > 200_000 && result.memory < 260_000)
        #expect(result.verdict() == .notExhaustive(.memoryBound(200_000)))
    }

    static let politeThreads = """
        var wantA = false
        var wantB = false
        thread A { wantA = true
          while wantB { wantA = false
            wantA = true }
          critical { }
          wantA = false }
        thread B { wantB = true
          while wantA { wantB = false
            wantB = true }
          critical { }
          wantB = false }
        """

    /// Both threads raise their flag, see the other's, back off and try again: a
    /// fair schedule can keep them at it forever.
    @Test func politeThreadsLivelock() throws {
        let result = try explore(Self.politeThreads)
        #expect(result.isExhaustive)
        #expect(result.livelock == Livelock(prefix: ["A", "B"], cycle: ["A", "A", "A", "B", "B", "B"], progressMarked: false))
        #expect(result.verdict() == .fails)
        #expect(result.findingKinds == [.livelock])
        #expect(!result.countsInterleavings, "a cycle makes paths endless: final states are counted")
        #expect(result.outcomes.map(\.executions) == [1])
    }

    /// A runs round its loop forever only if B never runs, and B can run all along:
    /// no fair schedule does that, so it is no livelock.
    @Test func aCycleThatStarvesAReadyThreadIsNoLivelock() throws {
        let result = try explore("atomic var stop = false\nvar x = 0\nthread A { while !stop { x += 1\n x -= 1 } }\nthread B { stop = true }")
        #expect(result.livelock == nil)
        #expect(result.verdict() == .proven)
    }

    /// Threads that take turns forever: no final state, every cycle passes `progress`.
    @Test func strictAlternationWithProgressIsProven() throws {
        let result = try explore(
            "atomic var turn = 0\nthread A { while true { while turn != 0 { }\n progress\n turn = 1 } }\n"
                + "thread B { while true { while turn != 1 { }\n progress\n turn = 0 } }")
        #expect(result.isExhaustive && result.outcomes.isEmpty && result.livelock == nil)
        #expect(result.verdict() == .proven)
    }

    /// Without `progress` statements, a round of a thread's outermost `while true` loop
    /// is progress (a server doing its work), and a loop inside it that never ends is
    /// none; with one, only `progress` statements count.
    @Test func progressDecidesWhetherALoopForeverIsALivelock() throws {
        let plain = try explore("var x = 0\nthread A { while true { x = 1\n x = 0 } }")
        #expect(plain.livelock == nil && plain.verdict() == .proven, "each round is progress")
        let stuck = try explore("var x = 0\nthread A { while true { while true { x = 1\n x = 0 } } }")
        #expect(stuck.livelock == Livelock(prefix: [], cycle: ["A", "A"], progressMarked: false), "the inner loop never ends a round")
        let marked = try explore("var x = 0\nthread A { while true { x = 1\n x = 0 } }\nthread B { progress }")
        #expect(marked.livelock != nil, "with a 'progress' statement, rounds count for nothing")
        let server = try explore("var x = 0\nthread A { while true { x = 1\n progress\n x = 0 } }")
        #expect(server.livelock == nil)
        #expect(server.verdict() == .proven)
        let elsewhere = try explore("var x = 0\nthread A { while true { x = 1\n x = 0 } }\nthread B { x = 5\n progress }")
        // While B has not run, a cycle of A alone leaves B out: only after B is it fair
        // (and after A's first write: x = 5 is not a state of the cycle).
        #expect(elsewhere.livelock == Livelock(prefix: ["B", "A"], cycle: ["A", "A"], progressMarked: true), "B's progress is not A's loop's")
    }
}

/// `explore` chooses the search: the first to finish, in turns with equal budgets.
struct SearchChoiceTests {
    static let counter =
        "var count = 0\n"
        + ["T1", "T2", "T3"].map { "thread \($0) {\n var i = 0\n while i < 3 {\n let c = count\n count = c + 1\n i += 1\n }\n}\n" }.joined()

    func choose(_ source: String, _ change: (inout ExploreConfig) -> Void = { _ in }) throws -> (Exploration, SearchReason?) {
        var config = ExploreConfig.automatic
        config.timeLimit = nil
        change(&config)
        let result = Explorer(program: try compile(source), config: config).explore()
        return (result, result.searchReason)
    }

    /// 1.8 million DPOR executions or 15,388 states: the stateful search, ahead after
    /// the first round, finishes, with the interleavings counted exactly (18! / (6!)^3).
    @Test func aCounterGetsTheStatefulSearch() throws {
        let (result, reason) = try choose(Self.counter)
        #expect(result.search == .stateful && result.isExhaustive)
        #expect(reason == .statefulWon(states: 15_388, cut: nil, statelessExecutions: 2_090))
        #expect(result.interleavings == InterleavingCount(17_153_136))
    }

    /// What the choice reads after a round: the stateful search's estimate of the
    /// states it will store (15,388), from its breadth-first levels so far, and DPOR's
    /// share of its tree, which runs far ahead of the truth (1.8 million executions).
    @Test func theSearchesSayHowMuchTheyHaveLeft() throws {
        var config = ExploreConfig()
        config.timeLimit = nil
        config.search = .stateful
        let program = try compile(Self.counter)
        var graph = StatefulSearch(explorer: Explorer(program: program, config: config)).start()
        graph.resume(progress: nil, until: 5_000)
        #expect(!graph.ended && graph.levels == [1, 3, 6, 16, 36, 81, 178, 375, 720, 1233, 216])
        // Still growing at depth 9 of 18: the growth slows as it did, and the estimate
        // is half the truth.
        #expect(graph.estimatedStates(longest: 18) == 7_409)
        graph.resume(progress: nil, until: 30_000)
        // Past the widest level (depth 12): the rest mirrors what came before.
        #expect(graph.levels == [1, 3, 6, 16, 36, 81, 178, 375, 720, 1233, 1743, 2223, 2475, 2355, 958])
        #expect(graph.estimatedStates(longest: 18) == 15_705)
        graph.resume(progress: nil)
        #expect(graph.ended && graph.store.count == 15_388)
        config.search = .stateless
        let stateless = StatelessSearch(explorer: Explorer(program: program, config: config))
        var dpor = stateless.start()
        stateless.resume(&dpor, progress: nil) { $0.steps + $0.reversalSteps >= 5_000 }
        #expect(dpor.longest == 18 && dpor.result.executions == 1_103)
        #expect(dpor.fraction > 0.1 && Double(dpor.result.executions) / 1_837_080 < 0.001)
    }

    @Test func aSmallSearchStaysWithDPOR() throws {
        let (result, reason) = try choose(ExplorerTests.oraclePrograms[0].1.file.text)
        #expect(result.search == .stateless)
        #expect(reason == .statelessWon(.dpor, executions: result.executions, cut: nil, statefulCut: nil))
    }

    @Test func progressMeansTheStatefulSearchAtOnce() throws {
        let (result, reason) = try choose("var x = 0\nthread A { while true { x = 1\n progress\n x = 0 } }")
        #expect(result.search == .stateful && result.verdict() == .proven)
        #expect(reason == .forced(.stateful, by: .progress))
    }

    /// DPOR cut by its own execution bound inside a round is not finished: the
    /// stateful search, which can finish, gives the verdict.
    @Test func dporCutByItsOwnBoundIsNotTakenAsFinished() throws {
        let (result, reason) = try choose(Self.counter) { $0.maxExecutions = 500 }
        // Every check holds; the counter's read and write race.
        #expect(result.search == .stateful && result.isExhaustive && result.failingExecutions == 0 && result.failsByRacesAlone)
        #expect(reason == .statelessCut(.executionBound(500), statefulStates: 15_388))
    }

    /// Out of room for states, the choice falls back on DPOR, which stores none.
    @Test func aStateBudgetFallsBackOnDPOR() throws {
        let (result, reason) = try choose(Self.counter) {
            $0.maxStates = 2_000
            $0.maxExecutions = 20_000
        }
        #expect(result.search == .stateless && result.cut == .executionBound(20_000))
        #expect(reason == .statelessWon(.dpor, executions: 20_000, cut: .executionBound(20_000), statefulCut: .stateBound(2_000)))
    }
}

/// Sleep sets with state caching (`StateSleepSets`) against the full graph, on the
/// oracle programs and every shipped version (their threads may loop forever):
/// every state, final state, outcome, invariant and race target kept, no more
/// steps, and a cycle exactly when the full graph has one.
struct StatefulSleepSetTests {
    static var programs: [(String, Program)] {
        get throws {
            var programs = ExplorerTests.oraclePrograms
            for name in ScenarioFileTests.names {
                let scenario = try Shipped.scenario(name)
                for version in scenario.versions {
                    programs.append(("\(name) \(version.fix ?? "broken")", version.program))
                }
            }
            return programs
        }
    }

    static func explore(_ program: Program, sleepSets: Bool, visit: ((World) -> Void)? = nil) -> Exploration {
        var config = ExploreConfig()
        config.search = .stateful
        config.timeLimit = nil
        return StatefulSearch(explorer: Explorer(program: program, config: config), sleepSets: sleepSets, visit: visit).searchOnce(progress: nil)
    }

    /// The states a search stores, each up to the spin bookkeeping: two orders of
    /// independent steps can leave a spin watch (or a spin wait already released)
    /// in one and not the other, which changes when a spin becomes a wait, nothing else.
    static func states(_ program: Program, sleepSets: Bool) -> (Exploration, Set<[UInt8]>) {
        var encoder = StateEncoder(program: program, initial: Engine(program: program).initialWorld())
        encoder.keepsSpinWatches = false
        var states = Set<[UInt8]>()
        let result = explore(program, sleepSets: sleepSets) { world in
            encoder.encode(world)
            states.insert(Array(encoder.bytes.raw))
        }
        return (result, states)
    }

    /// The reduced search (sleep sets, and a block on a held lock taken first, alone:
    /// `Engine.onlyBlocksOnLock`) stores only states the full one stores, and fewer:
    /// none where a thread is about to block on a held lock. It keeps every final
    /// state, outcome, race, lock inversion and cycle.
    @Test func sleepSetsKeepEveryOutcomeAndCycle() throws {
        var saved = 0, total = 0, statesLeft = 0, statesTotal = 0
        for (name, program) in try Self.programs {
            // Sleep sets are off for a program with conditions or a strict-priority
            // scheduler (see `SearchPlan`).
            if program.usesConditions || program.strictPriority {
                var asked = ExploreConfig()
                asked.search = .stateful
                asked.sleepSets = true
                #expect(!SearchPlan.resolve(asked, for: program).config.sleepSets, "\(name)")
                continue
            }
            let (full, fullStates) = Self.states(program, sleepSets: false)
            let (reduced, reducedStates) = Self.states(program, sleepSets: true)
            #expect(full.isExhaustive && reduced.isExhaustive, "\(name)")
            #expect(reducedStates.isSubset(of: fullStates), "\(name): no state the program cannot reach")
            #expect(reduced.executions == full.executions, "\(name): every final state")
            func finals(_ result: Exploration) -> [Outcome: Int] {
                Dictionary(uniqueKeysWithValues: result.outcomes.map { ($0.outcome, $0.executions) })
            }
            #expect(finals(reduced) == finals(full), "\(name)")
            #expect(Set(reduced.dataRaces.map(SearchOracleTests.canonical)) == Set(full.dataRaces.map(SearchOracleTests.canonical)), "\(name)")
            #expect(reduced.lockInversions.count == full.lockInversions.count, "\(name)")
            #expect(reduced.hasCycle == full.hasCycle, "\(name): a cycle stays a cycle")
            #expect(reduced.hasNonProgressCycle == full.hasNonProgressCycle, "\(name): and one without progress stays one")
            #expect(reduced.transitions <= full.transitions && reduced.steps <= full.steps, "\(name)")
            #expect(!reduced.countsInterleavings && reduced.livelock == nil, "\(name)")
            saved += full.steps - reduced.steps
            total += full.steps
            statesLeft += fullStates.count - reducedStates.count
            statesTotal += fullStates.count
        }
        // What they save over these programs, exactly (docs/PERFORMANCE.md).
        #expect((saved, total) == (10119, 30680))
        #expect((statesLeft, statesTotal) == (957, 17313))
    }

    /// The stateful search with sleep sets, through `Explorer.explore` (which may
    /// search again without them).
    static func exploreWithSleepSets(_ program: Program) -> Exploration {
        var config = ExploreConfig()
        config.search = .stateful
        config.sleepSets = true
        config.timeLimit = nil
        return Explorer(program: program, config: config).explore()
    }

    /// Through `explore`: a graph with a cycle without progress is searched again
    /// without sleep sets, so the polite threads' livelock is still found, and the
    /// report says why.
    @Test func aCycleIsSearchedAgainForLivelock() throws {
        let program = try Shipped.scenario("polite-livelock").versions[0].program
        let result = Self.exploreWithSleepSets(program)
        let reduced = Self.explore(program, sleepSets: true)
        #expect(result.livelock != nil && !result.sleepSets && result.hasCycle)
        #expect(result.sleepSetsRetried.map { [$0.states, $0.steps] } == [reduced.states, reduced.steps])
        #expect(reduced.steps < Self.explore(program, sleepSets: false).steps)
    }

    /// Peterson's threads loop forever, each round through its critical section's
    /// `progress`: the reduced graph has cycles, none without progress, so there is
    /// no livelock to look for and the reduced search stands, with the full one's
    /// final states (none) and verdict.
    @Test func cyclesThatMakeProgressKeepTheReduction() throws {
        let program = try #require(Shipped.scenario("peterson").versions.first { $0.fix == "peterson" }).program
        let result = Self.exploreWithSleepSets(program)
        let full = Self.explore(program, sleepSets: false)
        #expect(result.sleepSets && result.sleepSetsRetried == nil && result.hasCycle && !result.hasNonProgressCycle)
        #expect(result.livelock == nil && full.livelock == nil && result.verdict() == .proven && full.verdict() == .proven)
        #expect(result.executions == full.executions && result.steps < full.steps)
    }
}
