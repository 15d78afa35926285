import RaceLabEngine
import Testing

/// The stateful search goes breadth first: near failures first, in state spaces that
/// grow for ever too, and its bounds (depth, a margin after a failure) say what they cut.
struct BreadthFirstTests {
    /// The Deadlock Empire's "Simple Counter": each thread counts for ever, and enters
    /// the critical section at its own number. The counter grows without end, so the
    /// state space never ends either; the win is a few steps from the start.
    static let simpleCounter = """
        var counter = 0
        thread A {
            while true {
                counter += 1
                if counter == 5 {
                    critical { }
                }
            }
        }
        thread B {
            while true {
                counter += 1
                if counter == 3 {
                    critical { }
                }
            }
        }
        """

    func stateful(_ source: String, _ adjust: (inout ExploreConfig) -> Void = { _ in }) throws -> Exploration {
        var config = ExploreConfig()
        config.search = .stateful
        config.timeLimit = nil
        adjust(&config)
        return Explorer(program: try compile(source), config: config).explore()
    }

    @Test func aShallowFailureInAnEndlessStateSpaceIsFoundAndIsShortest() throws {
        let result = try stateful(Self.simpleCounter) { $0.failureMargin = 1_000 }
        #expect(result.verdict() == .fails)
        #expect(result.cut == .afterFailure(1_000, .states), "the outcomes are partial, and the report says so")
        let failure = try #require(result.shortestFailure)
        #expect(failure.count == 17)
        #expect(failure.joined(separator: " ") == "A A A A A A B B A B A A A A A A B")
        // No run of 16 steps fails: every interleaving of at most 16 steps is tried.
        var bounded = ExploreConfig()
        bounded.reduction = .none
        bounded.timeLimit = nil
        bounded.maxSteps = 16
        bounded.failureMargin = nil
        let short = Explorer(program: try compile(Self.simpleCounter), config: bounded).explore()
        #expect(short.failingExecutions == 0 && short.cut == .stepBound(16))
        bounded.maxSteps = 17
        let long = Explorer(program: try compile(Self.simpleCounter), config: bounded).explore()
        #expect(long.shortestFailure?.count == 17)
    }

    @Test func aFailureFoundFirstStopsTheSearchAtOnceWithAMarginOfNone() throws {
        // Without the race detector: the counter's race would be the first failure.
        let result = try stateful(Self.simpleCounter) {
            $0.failureMargin = 0
            $0.detectRaces = false
        }
        #expect(result.cut == .afterFailure(0, .states))
        #expect(result.shortestFailure?.count == 17)
        #expect(result.outcomes.count == 1 && result.executions == 1, "the first failing state, and nothing after it")
    }

    /// With no margin (`--all-outcomes`), a finite program's every state is explored
    /// even after the first failure: the histogram is whole.
    @Test func allOutcomesExploresPastTheFailure() throws {
        let racy = "var x = 0\nthread A { x += 1 }\nthread B { x += 1 }\nexpect x == 2, \"two\""
        let whole = try stateful(racy) { $0.failureMargin = nil }
        // Without the race detector: a data race is a failure too, met first.
        let stopped = try stateful(racy) {
            $0.failureMargin = 0
            $0.detectRaces = false
        }
        // Breadth first, A A B B (x = 2) is the first final state met, then A B A B.
        #expect(whole.isExhaustive && whole.outcomes.map(\.outcome.state) == ["x = 2", "x = 1"])
        #expect(whole.outcomes.map(\.interleavings) == [InterleavingCount(2), InterleavingCount(4)])
        // The failing final state is the last one met: nothing is left to stop, so
        // a margin of none still ends exhaustive.
        #expect(stopped.isExhaustive && stopped.states == whole.states && stopped.outcomes.map(\.outcome.state) == ["x = 2", "x = 1"])
        #expect(whole.shortestFailure == stopped.shortestFailure && whole.shortestFailure == ["A", "B", "A", "B"])
    }

    /// A data race fails the verdict, so it starts the margin as a failing outcome
    /// does: breadth first, it is met long before any final state. The race found is
    /// the report, and the outcomes are those met (none here).
    @Test func aDataRaceStartsTheMargin() throws {
        let racy = "var x = 0\nthread A { x += 1 }\nthread B { x += 1 }\nexpect x == 2, \"two\""
        let stopped = try stateful(racy) { $0.failureMargin = 0 }
        #expect(stopped.cut == .afterFailure(0, .states) && stopped.verdict() == .fails)
        #expect(stopped.executions == 0 && stopped.failsByRacesAlone)
        #expect(stopped.dataRaces.map(\.target) == ["x"])
        // The states stored: the start, A's and B's reads (the race: A's write and B's
        // read can both run after A's read), and the two reads' successors.
        #expect(stopped.states == 5)
    }

    /// DPOR's margin counts steps (both kinds) past the first failing execution or race.
    @Test func dporStopsPastTheFirstFailureByItsMarginInSteps() throws {
        let racy = "var x = 0\nthread A { x += 1 }\nthread B { x += 1 }\nexpect x == 2, \"two\""
        func dpor(_ margin: Int?, races: Bool = true) throws -> Exploration {
            var config = ExploreConfig()
            config.timeLimit = nil
            config.failureMargin = margin
            config.detectRaces = races
            return Explorer(program: try compile(racy), config: config).explore()
        }
        let whole = try dpor(nil)
        #expect(whole.isExhaustive && whole.executions == 4 && whole.failingExecutions == 2)
        // The first execution (A A B B, x = 2) finds the race: none is run after it.
        let first = try dpor(0)
        #expect(first.cut == .afterFailure(0, .steps) && first.executions == 1 && first.failsByRacesAlone)
        // Without the race detector, the first failing execution (the second) stops it.
        let failing = try dpor(0, races: false)
        #expect(failing.cut == .afterFailure(0, .steps) && failing.executions == 2 && failing.failingExecutions == 1)
        // A margin longer than what is left leaves the search exhaustive.
        #expect(try dpor(1_000).isExhaustive)
        // The counterexample search ignores the margin: the simplest failure is found.
        // (Fewest preemptions: one, B running between A's read and its write.)
        var config = ExploreConfig()
        config.failureMargin = 0
        config.detectRaces = false
        config.timeLimit = nil
        let analysis = Analysis.of(try compile(racy), config: config)
        #expect(analysis.counterexample?.schedule.joined(separator: " ") == "A B B A")
        #expect(analysis.counterexample?.preemptions == 1)
    }

    /// The step bound is a depth: no state further than it is expanded, and every
    /// nearer one is. A counter that only grows has one state per depth per position.
    @Test func theStepBoundIsADepth() throws {
        let forever = "var n = 0\nthread A { while true { n += 1 } }"
        let result = try stateful(forever) { $0.maxSteps = 10 }
        #expect(result.cut == .depthBound(10))
        #expect(result.states == 11 && result.depth == 10, "the start and one state a step")
        #expect(result.verdict() == .notExhaustive(.depthBound(10)))
        #expect(result.growing == ["n"])
    }

    /// A cut search with no failure names what keeps growing; a flag that flips and a
    /// count that comes back down do not grow.
    @Test func whatKeepsGrowingIsNamed() throws {
        let source = """
            var n = 0
            var flag = false
            var log: [Int] = []
            var level = 0
            thread A { while true { n += 1 } }
            thread B { while true { log.append(1) } }
            thread C { while true { flag = !flag } }
            thread D { while true { level = 1\n level = 2\n level = 0 } }
            """
        let result = try stateful(source) { $0.maxStates = 3_000 }
        #expect(result.cut == .stateBound(3_000))
        #expect(result.growing == ["n", "log"])
        let bounded = try stateful("var x = 0\nthread A { while x < 3 { x += 1 } }")
        #expect(bounded.isExhaustive && bounded.growing.isEmpty)
    }

    /// The memory budget counts the worlds waiting on the frontier too: what the
    /// report gives as the most held at once is what the budget is compared with, and
    /// a budget a byte smaller stops the search, within one expansion of it.
    @Test func theMemoryBudgetCountsTheWorldsWaiting() throws {
        let wide =
            "class Cell { var v = 0 }\nlet cells = [" + Array(repeating: "Cell()", count: 200).joined(separator: ", ") + "]\n"
            + (1...4).map { "thread T\($0) { cells[\($0)].v = 1\n cells[\($0 + 4)].v = 1\n cells[\($0 + 8)].v = 1 }" }.joined(separator: "\n")
        let free = try stateful(wide)
        #expect(free.isExhaustive && free.verdict() == .proven)
        let world = Engine(program: try compile(wide)).initialWorld()
        // The store holds a few hundred bytes a state; the widest level of the
        // frontier holds over fifty whole worlds at once, and they are counted.
        #expect(free.memory > 50 * world.estimatedBytes && free.states < 1_000)
        let exact = try stateful(wide) { $0.maxStateMemory = free.memory }
        #expect(exact.isExhaustive)
        let less = try stateful(wide) { $0.maxStateMemory = free.memory - 1 }
        #expect(less.cut == .memoryBound(free.memory - 1))
    }
}
