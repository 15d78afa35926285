import RaceLabEngine
import Testing

/// With no `progress` statement, a round of a thread's outermost `while true` loop is
/// progress (a SPIN progress label): textbook mutual exclusion, written with no
/// markers, is proven; threads that back off for ever inside an inner loop still
/// livelock.
struct ProgressTests {
    func stateful(_ source: String) throws -> Exploration {
        var config = ExploreConfig()
        config.search = .stateful
        config.timeLimit = nil
        return Explorer(program: try compile(source), config: config).explore()
    }

    /// Peterson's algorithm as textbooks write it.
    static let peterson = """
        atomic var flagA = false
        atomic var flagB = false
        atomic var turn = 0
        thread A {
            while true {
                flagA = true
                turn = 1
                while flagB && turn == 1 { }
                critical { }
                flagA = false
            }
        }
        thread B {
            while true {
                flagB = true
                turn = 0
                while flagA && turn == 0 { }
                critical { }
                flagB = false
            }
        }
        """

    @Test func textbookPetersonIsProven() throws {
        let result = try stateful(Self.peterson)
        #expect(result.verdict() == .proven && result.livelock == nil)
        #expect(result.isExhaustive && result.outcomes.isEmpty)
        // Through the search plan too: the automatic choice reaches the same verdict.
        var config = ExploreConfig.automatic
        config.timeLimit = nil
        let chosen = Explorer(program: try compile(Self.peterson), config: config).explore()
        #expect(chosen.verdict() == .proven && chosen.search == .stateful)
    }

    /// Dekker's algorithm: the flags say who wants in, the turn who backs off.
    @Test func textbookDekkerIsProven() throws {
        let dekker = """
            atomic var wantsA = false
            atomic var wantsB = false
            atomic var turn = 0
            thread A {
                while true {
                    wantsA = true
                    while wantsB {
                        if turn != 0 {
                            wantsA = false
                            while turn != 0 { }
                            wantsA = true
                        }
                    }
                    critical { }
                    turn = 1
                    wantsA = false
                }
            }
            thread B {
                while true {
                    wantsB = true
                    while wantsA {
                        if turn != 1 {
                            wantsB = false
                            while turn != 1 { }
                            wantsB = true
                        }
                    }
                    critical { }
                    turn = 0
                    wantsB = false
                }
            }
            """
        let result = try stateful(dekker)
        #expect(result.verdict() == .proven && result.livelock == nil)
    }

    /// Two polite threads: each raises its flag, sees the other's, and lowers it to let
    /// the other go first, for ever. No round ends: a livelock, as before.
    @Test func politeThreadsBackingOffInAnInnerLoopStillLivelock() throws {
        let polite = """
            var wantsA = false
            var wantsB = false
            thread A {
                while true {
                    wantsA = true
                    while wantsB {
                        wantsA = false
                        wantsA = true
                    }
                    critical { }
                    wantsA = false
                }
            }
            thread B {
                while true {
                    wantsB = true
                    while wantsA {
                        wantsB = false
                        wantsB = true
                    }
                    critical { }
                    wantsB = false
                }
            }
            """
        let result = try stateful(polite)
        #expect(result.verdict() == .fails)
        let livelock = try #require(result.livelock)
        #expect(!livelock.progressMarked && !livelock.cycle.isEmpty)
    }

    /// A thread that completes rounds while the other waits for ever is starvation,
    /// not livelock: the program makes progress.
    @Test func starvationIsNotLivelock() throws {
        let greedy = """
            let lock = Lock()
            var count = 0
            thread A { while true { synchronized(lock) { count = 1 - count } } }
            thread B { while true { synchronized(lock) { count = 1 - count } } }
            """
        let result = try stateful(greedy)
        #expect(result.verdict() == .proven && result.livelock == nil)
    }
}
