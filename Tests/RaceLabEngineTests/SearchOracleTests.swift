import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabEngine

/// A question gets the same answer from every search: on every version of every
/// shipped scenario whose program ends, DPOR, every interleaving (`--reduction none`)
/// and the stateful search reach the same verdict, the same outcomes and the same
/// data races.
struct SearchOracleTests {
    /// What a search found, in a form that compares: the verdict, the outcomes (state,
    /// end, findings, failed checks and facts) and the races (`canonical`).
    struct Answer: Equatable, CustomStringConvertible {
        var verdict: Verdict
        var outcomes: Set<Outcome>
        var races: Set<String>

        init(_ result: Exploration, role: VersionRole) {
            verdict = result.verdict(as: role)
            outcomes = Set(result.outcomes.map(\.outcome))
            races = Set(result.dataRaces.map(SearchOracleTests.canonical))
        }

        var description: String {
            let rows = outcomes.map { "\($0.state) (\($0.end), \($0.findings.map(\.rawValue)), \($0.failedChecks), \($0.facts))" }
            return "\(verdict); outcomes \(rows.sorted()); races \(races.sorted())"
        }
    }

    /// `box: A write 5, B write 6`: the target and both sides (thread, kind, line),
    /// the sides in sorted order, so it does not matter which access a search saw first.
    static func canonical(_ race: DataRace) -> String {
        let sides = [race.first, race.second].map { "\($0.thread) \($0.kind) \($0.line.map(String.init) ?? "-")" }.sorted()
        return "\(race.target): \(sides.joined(separator: ", "))"
    }

    /// Interleavings `--reduction none` may enumerate here: 100,000 take about 30 s
    /// in a debug build. The stateful search says beforehand how many there are (the
    /// paths through its graph, when it has no cycle, are the interleavings).
    static let budget = 100_000

    /// Why a version is not compared by all three searches.
    enum Skip: Equatable {
        /// The state graph has a cycle: some run never ends (a spin that another
        /// thread's loop keeps releasing, a livelock), so a stateless search is cut at
        /// the step bound. Only the stateful search can answer.
        case endless
        /// More interleavings than `budget`: `--reduction none` is skipped, and DPOR
        /// and the stateful search are compared.
        case noneOverBudget
        /// The program waits on a condition, so the stateless search takes every
        /// interleaving (DPOR's reduction cannot follow spurious wakeups), and there
        /// are more than `budget`: only the stateful search can answer.
        case statelessOverBudget
    }

    /// Every version the three searches do not all compare, and why, by name. A
    /// version that joins or leaves this list fails the test, so it stays true.
    static let skipped: [String: Skip] = [
        // Threads that loop for ever: spin locks and turns that a loop keeps taking.
        "peterson broken": .endless, "peterson swapped": .endless, "peterson peterson": .endless,
        "peterson mutex": .endless, "peterson confinement": .endless,
        "polite-livelock broken": .endless,
        "producer-consumer broken": .endless, "producer-consumer order": .endless, "producer-consumer mutex": .endless,
        "spin-lock broken": .endless, "spin-lock testAndSet": .endless, "spin-lock mutex": .endless,
        "spin-lock confinement": .endless,
        // docs/PERFORMANCE.md counts them: more than 24,000 and 22 million interleavings
        // (the adder, 3.8 trillion).
        "dealloc-wrong-thread mutex": .noneOverBudget, "stale-results operations": .noneOverBudget,
        "stale-results adder": .noneOverBudget,
        // Two children per reading, two actors: 2.1 trillion interleavings.
        "async-stream-consumers fanOut": .noneOverBudget,
        // Conditions: a waiter may wake with no signal any number of times, so a wait
        // in a loop can be woken and waited again for ever.
        "bounded-buffer whileSignal": .endless, "bounded-buffer broadcast": .endless, "dispatch-group mutex": .endless,
        "async-operation mutex": .endless,
        // An if around wait() ends, but the stateless search takes all 11 million interleavings.
        "bounded-buffer broken": .statelessOverBudget,
    ]

    static func explore(_ program: Program, _ search: ExploreConfig.Search, _ reduction: ExploreConfig.Reduction = .dpor) -> Exploration {
        var config = ExploreConfig()
        config.search = search
        config.reduction = search == .stateful ? .none : reduction
        config.timeLimit = nil
        config.maxExecutions = 10_000_000
        // Every outcome and race, past the first failure: the answers are compared whole.
        config.failureMargin = nil
        return Explorer(program: program, config: config).explore()
    }

    /// The three searches' answers (nil for each one skipped), and why any was skipped.
    static func answers(_ program: Program, role: VersionRole) -> (dpor: Answer?, none: Answer?, stateful: Answer, skip: Skip?) {
        let stateful = explore(program, .stateful)
        let answer = Answer(stateful, role: role)
        #expect(stateful.isExhaustive)
        if stateful.hasCycle { return (nil, nil, answer, .endless) }
        let fitsBudget = stateful.interleavings <= InterleavingCount(budget)
        // With conditions or a strict-priority scheduler, the stateless search takes
        // every interleaving however it is asked: that one run answers for both.
        let everyInterleaving = program.usesConditions || program.strictPriority
        if everyInterleaving && !fitsBudget { return (nil, nil, answer, .statelessOverBudget) }
        let dpor = explore(program, .stateless, .dpor)
        #expect(dpor.isExhaustive, "a program that ends is explored to its end")
        guard fitsBudget else { return (Answer(dpor, role: role), nil, answer, .noneOverBudget) }
        let none = everyInterleaving ? dpor : explore(program, .stateless, .none)
        #expect(none.isExhaustive && none.executions <= budget)
        return (Answer(dpor, role: role), Answer(none, role: role), answer, nil)
    }

    /// Stopped at its first failure, each search gives the verdict it gives whole.
    @Test(.exhaustive, arguments: ScenarioFileTests.names)
    func everySearchGivesTheSameAnswer(name: String) throws {
        let scenario = try Shipped.scenario(name)
        for version in scenario.versions {
            let fix = version.fix
            let label = "\(name) \(fix ?? "broken")"
            let found = Self.answers(version.program, role: version.role)
            #expect(found.skip == Self.skipped[label], "\(label)")
            if let dpor = found.dpor {
                #expect(dpor == found.stateful, "\(label): DPOR \(dpor)\n  stateful \(found.stateful)")
            }
            if let none = found.none {
                #expect(none == found.stateful, "\(label): none \(none)\n  stateful \(found.stateful)")
            }
            // Stopped at its first failure (`--first-failure`), each search keeps its
            // verdict: a stop needs a failure, which it reports.
            guard [.fails, .failsAsExpected].contains(found.stateful.verdict) else { continue }
            var searches: [(ExploreConfig.Search, ExploreConfig.Reduction)] = [(.stateful, .none)]
            if found.dpor != nil { searches.append((.stateless, .dpor)) }
            if found.none != nil { searches.append((.stateless, .none)) }
            for (search, reduction) in searches {
                var config = ExploreConfig()
                config.search = search
                config.reduction = reduction
                config.timeLimit = nil
                config.failureMargin = 0
                let stopped = Explorer(program: version.program, config: config).explore()
                #expect(stopped.verdict(as: version.role) == found.stateful.verdict, "\(label) \(search) \(reduction), first failure")
            }
        }
    }

    /// The race the stateless searches once missed: each thread's store releases, and
    /// frees, the object the other's replaced. Freeing orders nothing, so the two
    /// stores stay unordered and every search reports them.
    @Test func twoStoresThatEachFreeAnObjectStillRace() throws {
        let program = try compile(
            """
            class Box {
                var v = 0
            }
            var box: Box? = Box()
            thread A { box = Box(v: 3) }
            thread B { box = Box(v: 3) }
            """)
        let found = Self.answers(program, role: .fix)
        #expect(found.skip == nil)
        for answer in [found.dpor, found.none, found.stateful] {
            // Every check holds; the race fails it.
            #expect(answer?.verdict == .fails)
            #expect(answer?.outcomes.map(\.state).sorted() == ["box = Box#2", "box = Box#3"])
            #expect(answer?.races == ["box: A write 5, B write 6"])
        }
    }

    /// Data published through a flag: the relaxed flag orders nothing, so the data
    /// races; a releasing store read by an acquiring load orders it. Every search
    /// reports exactly these races: the stateful search follows each access along its
    /// graph with what happens-before orders (`StatefulSearch.recordOrderedRaces`).
    @Test(arguments: [
        ("store(1, ordering: .relaxed)", "load(ordering: .relaxed)", ["data: A write 4, B read 9"]),
        ("store(1, ordering: .releasing)", "load(ordering: .acquiring)", []),
    ])
    func aFlagOrdersTheDataAsItsOrderingsSay(store: String, load: String, races: [String]) throws {
        let program = try compile(
            """
            let flag = Atomic(0)
            var data = 0
            thread A {
                data = 42
                flag.\(store)
            }
            thread B {
                if flag.\(load) == 1 {
                    let d = data
                }
            }
            """)
        let found = Self.answers(program, role: .fix)
        #expect(found.skip == nil)
        for answer in [found.dpor, found.none, found.stateful] {
            #expect(answer?.verdict == (races.isEmpty ? .proven : .fails))
            #expect(answer?.outcomes.map(\.state) == ["flag = 1, data = 42"])
            #expect(answer?.races == Set(races))
        }
    }

    /// With a plain flag, the read of the data is ordered after its write in every
    /// interleaving only through the flag, which is no synchronization: two races,
    /// though the data's two accesses never run from one state. Every search reports
    /// both (the stateful search by following the write along its graph,
    /// `StatefulSearch.recordOrderedRaces`).
    @Test func aPlainFlagsSecondRaceIsSeenByEverySearch() throws {
        let program = try compile(
            """
            var flag = false
            var data = 0
            thread A {
                data = 42
                flag = true
            }
            thread B {
                if flag {
                    let d = data
                }
            }
            """)
        let found = Self.answers(program, role: .fix)
        #expect(found.skip == nil)
        for answer in [found.dpor, found.none, found.stateful] {
            #expect(Set(answer?.races ?? []) == ["flag: A write 5, B read 8", "data: A write 4, B read 9"])
        }
        #expect(found.stateful.verdict == found.dpor?.verdict && found.stateful.outcomes == found.dpor?.outcomes)
    }

    /// Main, with a block in its queue, waits for the main actor as a thread waits for
    /// a lock: a task made on the main actor took it first in one order, and main's
    /// block runs first in the other. DPOR reverses the two takings (before, it saw
    /// only the first order, in 2 executions of 32 interleavings, labelled exact).
    @Test func mainsBlockAndAMainActorTaskTakeTheActorInEitherOrder() throws {
        let program = try compile(
            """
            var x = 0
            var d = 0
            task T1 {
                main.async {
                    if x == 0 {
                        d = 1
                    }
                }
                let t = Task { @MainActor in
                    x += 1
                }
            }
            """)
        let found = Self.answers(program, role: .fix)
        #expect(found.skip == nil)
        for answer in [found.dpor, found.none, found.stateful] {
            #expect(answer?.outcomes.map(\.state).sorted() == ["x = 1, d = 0", "x = 1, d = 1"])
        }
        let dpor = Self.explore(program, .stateless)
        #expect(dpor.executions == 6 && dpor.interleavings == InterleavingCount(32))
    }

    /// An execution may end with main still waiting to run a block: a task on the main
    /// actor waits for main itself (`DispatchQueue.main.sync`), a deadlock. Main's step
    /// never ran, but had the other thread's block come before the task took the
    /// actor, main would have run it: DPOR races the step main would take against the
    /// trace (before, 2 executions saw only `s = 0`).
    @Test func mainsBlockCanComeBeforeTheTaskThatDeadlocksIt() throws {
        let program = try compile(
            """
            var x = 0
            var s = 0
            task T1 {
                let t = Task { @MainActor in
                    x += 1
                    DispatchQueue.main.sync {
                        s = 1
                    }
                }
            }
            task T2 {
                main.sync {
                    s = 2
                }
            }
            """)
        let found = Self.answers(program, role: .broken)
        #expect(found.skip == nil)
        for answer in [found.dpor, found.none, found.stateful] {
            #expect(answer?.outcomes.map(\.state).sorted() == ["x = 1, s = 0", "x = 1, s = 2"])
        }
        let dpor = Self.explore(program, .stateless)
        #expect(dpor.executions == 6 && dpor.interleavings == InterleavingCount(363))
    }

    /// The same wait, in an execution that a crash ends: the task on the main actor
    /// fails an assertion, and a block the other thread sent waits for the actor.
    /// Sent before the task took the actor, main would have run it first (`x = 1`);
    /// before, DPOR ran 4 executions and saw only `x = 0`.
    @Test func mainsBlockCanComeBeforeTheTaskThatCrashes() throws {
        let program = try compile(
            """
            var x = 0
            task T1 {
                let t = Task { @MainActor in
                    assert(false, "boom")
                }
            }
            task T2 {
                main.sync {
                    x += 1
                }
            }
            """)
        let found = Self.answers(program, role: .broken)
        #expect(found.skip == nil)
        for answer in [found.dpor, found.none, found.stateful] {
            #expect(answer?.outcomes.map(\.state).sorted() == ["x = 0", "x = 1"])
        }
        let dpor = Self.explore(program, .stateless)
        #expect(dpor.executions == 16 && dpor.interleavings == InterleavingCount(137))
    }
}
