import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabEngine

struct ExplorerTests {
    func explore(
        _ program: Program, _ reduction: ExploreConfig.Reduction, maxExecutions: Int = 1_000_000,
        visit: ((Trace) -> Void)? = nil
    ) -> Exploration {
        var config = ExploreConfig()
        config.maxExecutions = maxExecutions
        config.reduction = reduction
        config.timeLimit = nil
        return StatelessSearch(explorer: Explorer(program: program, config: config), visit: visit).run(progress: nil)
    }

    @Test func twoAndThreeStepsOnOneVariableMakeTenInterleavings() throws {
        let program = try compile("var x = 0\nthread A { x = 1\n x = 2 }\nthread B { x = 3\n x = 4\n x = 5 }")
        let none = explore(program, .none)
        #expect(none.executions == 10)
        #expect(none.interleavings == InterleavingCount(10))
        #expect(none.outcomes.map(\.outcome.state) == ["x = 5", "x = 2"])
        #expect(none.outcomes.map(\.executions) == [6, 4])
    }

    /// Two final worlds with the same variables but a different number of objects
    /// created are two outcomes, each saying how many it created; `none` agrees.
    @Test func outcomesWithTheSameVariablesAreToldApartByWhatWasCreated() throws {
        let program = try compile("class S {}\nvar s: S? = nil\nthread A { if s == nil { s = S() } }\nthread B { if s == nil { s = S() } }")
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            let rows = explore(program, reduction).outcomes.map { "\($0.outcome.state); \($0.outcome.facts.joined()): \($0.interleavings)" }
            #expect(rows.sorted() == ["s = S#1; 1 S created: 2", "s = S#1; 2 S created: 6", "s = S#2; 2 S created: 12"], "\(reduction)")
        }
    }

    /// A Mazurkiewicz trace, written canonically: each thread's steps (with what they
    /// touched) and, for every dependent pair on different threads, which came first.
    static func traceKey(_ trace: Trace) -> String {
        var ordinal: [Int] = []
        var perThread: [ThreadID: Int] = [:]
        for thread in trace.threads {
            ordinal.append(perThread[thread, default: 0])
            perThread[thread, default: 0] += 1
        }
        func name(_ i: Int) -> String { "\(trace.threads[i]).\(ordinal[i])" }
        var parts = trace.threads.indices.map { "\(name($0))=\(trace.accesses[$0])\(trace.info[$0].halts)" }.sorted()
        for j in trace.threads.indices {
            for i in 0..<j where trace.threads[i] != trace.threads[j] && trace.dependent(i, j) {
                parts.append("\(name(i))<\(name(j))")
            }
        }
        return parts.sorted().joined(separator: ";")
    }

    /// The oracle's programs: every shipped scenario and fix, a few focused ones, and
    /// the benchmark's families, small.
    static let oraclePrograms: [(String, Program)] = {
        var programs: [(String, Program)] = []
        for name in Shipped.canonical {
            let scenario = try! Shipped.scenario(name)
            for version in scenario.versions {
                let fix = version.fix
                programs.append(("\(name) \(fix ?? "broken")", version.program))
            }
        }
        let small = [
            "var x = 0\nthread A { x += 1 }\nthread B { x += 1 }\nthread C { x += 1 }",
            "var x = 0\nvar y = 0\nthread A { x = 1\n work(2)\n y = 1 }\nthread B { y = 2\n x = 2 }",
            "let l = Lock()\nvar n = 0\nthread A { synchronized(l) { n += 1 } }\nthread B { synchronized(l) { n += 1 } }\nthread C { n = 5 }",
            "var got = [0]\nthread A { main.async { got.append(1) } }\nthread B { main.sync { got.append(2) } }",
            "var a = [1, 2]\nthread A { a.removeLast() }\nthread B { let x = a[1] }",
            "class C {}\nvar c: C? = C()\nthread A { let k = c\n c = nil }\nthread B { c = nil }",
            // Lock contention: a thread that waited and was woken competes with the
            // thread that takes the lock again before it runs.
            "let L = Lock()\nvar x = 0\nthread A { L.lock(); x += 1; L.unlock(); L.lock(); x += 1; L.unlock() }\nthread B { L.lock(); x += 1; L.unlock() }",
            "let L = Lock()\nvar x = 0\nthread A { L.lock(); x += 1; L.unlock(); L.lock(); L.unlock() }\nthread B { L.lock(); L.unlock() }\nthread C { L.lock(); x = 7; L.unlock() }",
            "let l = Lock()\nvar n = 0\nthread A { synchronized(l) { synchronized(l) { n += 1 } }\n synchronized(l) { n += 2 } }\nthread B { synchronized(l) { n *= 3 } }",
            // A task woken by the value it awaits (the other task's steps in between
            // leave that alone) enters the actor behind the job that took it meanwhile.
            "actor C {\n func get() async {\n let t = Task.detached { return 1 }\n await t.value\n }\n func poke() {}\n}\nlet c = C()\n"
                + "task A { await c.get() }\ntask B { await c.poke() }",
            // Spawns: a spawned thread races with its creator's later steps and with others.
            "var x = 0\nthread A { spawn W { x += 1 }\n x += 2 }\nthread B { x = 5\n spawn V { x *= 3 } }",
            "let L = Lock()\nvar x = 0\nthread A { L.lock(); spawn W { L.lock(); x += 1; L.unlock() }\n x = 2; L.unlock() }\nthread B { L.lock(); x = 3; L.unlock() }",
            // The main queue: blocks queued from two threads, one of them waiting in main.sync.
            "var x = 1\nthread A { main.async { x += 1 }\n main.async { x *= 2 } }\nthread B { main.sync { x = x * 10 } }",
            "var log = [0]\nmain { log.append(1) }\nthread A { main.sync { log.append(2) } }\nthread B { main.async { log.append(3) } }",
            // A queue a thread waits to see empty, filled again before the thread runs.
            "let q = OperationQueue(maxConcurrentOperationCount: 1)\nvar x = 0\n"
                + "thread A { q.addOperation { x += 1 }\n q.addOperation { x *= 2 } }\nthread B { q.waitUntilAllOperationsAreFinished()\n x = x + 10 }",
        ]
        // The benchmark's families, small: a reversed race re-runs a step that then
        // releases nothing (singleton), loops (counter), threads block on locks
        // (philosophers).
        let families = [
            (
                "lazy singleton N=3",
                "class S {}\nvar shared: S? = nil\n"
                    + ["T1", "T2", "T3"].map { "thread \($0) { if shared == nil { shared = S() } }\n" }.joined()
            ),
            (
                "counter N=2 K=2",
                "var count = 0\n"
                    + ["T1", "T2"].map { "thread \($0) { var i = 0\n while i < 2 { let c = count\n count = c + 1\n i += 1 } }\n" }.joined()
            ),
            (
                "dining philosophers N=3",
                "let f0 = Lock()\nlet f1 = Lock()\nlet f2 = Lock()\nvar meals = 0\n"
                    + "thread P0 { synchronized(f0) { synchronized(f1) { meals += 1 } } }\n"
                    + "thread P1 { synchronized(f1) { synchronized(f2) { meals += 1 } } }\n"
                    + "thread P2 { synchronized(f2) { synchronized(f0) { meals += 1 } } }\n"
            ),
        ]
        for (index, source) in small.enumerated() { programs.append(("small \(index)", try! compile(source))) }
        for (name, source) in families { programs.append((name, try! compile(source))) }
        return programs
    }()

    /// Runs `none` and groups its executions by happens-before order: DPOR must run
    /// exactly one execution per group, never be sleep-set blocked, and reach the same
    /// outcomes. Where there are too many raw interleavings to enumerate in a debug
    /// build, every outcome the first 5,000 reach must still be among DPOR's.
    @Test(.exhaustive, arguments: oraclePrograms.map(\.0))
    func dporExploresOneExecutionPerTraceAndReachesEveryOutcome(_ name: String) throws {
        let program = try #require(Self.oraclePrograms.first { $0.0 == name }?.1)
        let dpor = explore(program, .dpor)
        var traces: Set<String> = []
        let bound = name == "dining philosophers N=3" ? 16_000 : 5_000
        let none = explore(program, .none, maxExecutions: bound) { traces.insert(Self.traceKey($0)) }
        #expect(dpor.isExhaustive, "\(name)")
        #expect(dpor.sleepBlocked == 0, "\(name): optimal DPOR never runs into a state where every thread is asleep")
        #expect(none.isExhaustive || !name.hasPrefix("small"), "\(name): the small programs are checked against every interleaving")
        guard none.isExhaustive else {
            #expect(Set(none.outcomes.map(\.outcome)).isSubset(of: Set(dpor.outcomes.map(\.outcome))), "\(name)")
            return
        }
        #expect(dpor.interleavings == InterleavingCount(none.executions), "\(name): linearizations of the DPOR executions")
        #expect(dpor.executions == traces.count, "\(name): \(dpor.executions) DPOR executions for \(traces.count) traces")
        #expect(Set(dpor.outcomes.map(\.outcome)) == Set(none.outcomes.map(\.outcome)), "\(name)")
    }
}
