import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import racelab_fuzz

/// The fuzz target's program generator and its search oracle, on fixed seeds: what
/// `swift test` runs of the fuzzer on every CI. Each seed's bytes come from
/// SplitMix64, so the programs are the same on every machine.
struct GeneratorOracleTests {
    /// The bytes of one seed, as the fuzzer would give them.
    static func bytes(seed: UInt64, count: Int = 200) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    static func program(seed: UInt64) -> String {
        ProgramGenerator.program(from: bytes(seed: seed))
    }

    /// Budgets for a debug build: a program the searches cannot finish within them
    /// is skipped, not failed (the fuzzer, built for release, gives more).
    static var oracle: SearchOracle {
        var oracle = SearchOracle()
        oracle.dporExecutions = 150
        oracle.noneExecutions = 600
        oracle.maxStates = 4_000
        return oracle
    }

    /// Every program written compiles, and on each the three searches agree (or, for
    /// one that loops, the stateful search holds what DPOR saw). About 10 s in a
    /// debug build.
    @Test(.exhaustive) func theSearchesAgreeOnGeneratedPrograms() throws {
        var compared = 0, allThree = 0, loops = 0, versions = 0
        for seed in 0..<UInt64(100) {
            let text = Self.program(seed: seed)
            let scenario: Scenario
            do throws(ScriptError) {
                scenario = try Scenario.load(name: "generated", file: SourceFile(name: "generated.race", text: text))
            } catch {
                Issue.record("seed \(seed): the generator wrote a program the compiler refuses:\n\(text)\n\(error.rendered)")
                continue
            }
            for version in scenario.versions {
                let fix = version.fix
                versions += 1
                switch Self.oracle.check(version.program) {
                case .agreed(let pairs):
                    compared += pairs > 0 ? 1 : 0
                    allThree += pairs == 3 ? 1 : 0
                case .loops(let checked): loops += checked ? 1 : 0
                case .disagreement(let why): Issue.record("seed \(seed), \(fix ?? "the program"):\n\(text)\n\(why)")
                }
            }
        }
        // The oracle must compare most programs, or it proves little.
        #expect(compared * 4 > versions * 3, "\(compared) of \(versions) versions compared")
        #expect(allThree * 2 > versions, "\(allThree) of \(versions) versions compared by all three searches")
        #expect(loops > 0, "some programs loop, and the stateful search finishes on them")
    }

    /// Across a few thousand seeds, every statement, expression and primitive of
    /// docs/LANGUAGE.md appears in some program, and every program compiles (so a
    /// change of the language that the generator does not follow shows here).
    @Test func theGeneratorCoversTheLanguage() {
        let texts = (0..<UInt64(3_000)).map(Self.program)
        for (seed, text) in texts.enumerated() {
            do throws(ScriptError) {
                _ = try Scenario.load(name: "generated", file: SourceFile(name: "generated.race", text: text)).versions[0].program
            } catch {
                Issue.record("seed \(seed): the generator wrote a program the compiler refuses:\n\(text)\n\(error.rendered)")
            }
        }
        let programs = texts.joined(separator: "\n")
        let constructs = [
            "actor Acc", "task T", "await acc.add", "await acc.v", "await Task.yield()", "await fetch", "Task { @MainActor in",
            "Task.detached {", ".value", ".cancel()", "Task.isCancelled", "mailbox \"any\"", "withCheckedContinuation",
            "continuation.resume(returning:", "AsyncStream.makeStream", "sc.yield(", "sc.finish()", "for await v", "async let al",
            "withTaskGroup(of:", ".addTask {", ".addTask(priority: .high) {", "Task(priority: .low) {", "Task.detached(priority: .background) {",
            ".cancelAll()", "for await r in group", ".next() ?? 0", ".waitForAll()",
            "try? await Task.sleep(for: .milliseconds(", "try Task.checkCancellation()", "catch is CancellationError",
            "@MainActor class Model", "await model.bump(", "await model.m", "await MainActor.run {", "sc.onTermination = {",
            "var x", "let k", "atomic var", "weak var", "class Box", "@mainThreadOnly", "deinit", "func twice", "return", "thread T",
            "main {", "thread main", "spawn w", "[weak b", "if ", "} else {", "while ", "for i", "for v", "for (key", "break",
            "continue", "xs.append", "xs.remove(at:", "xs.insert", "xs.removeFirst", "xs[0] =", "sum(xs)", "d[\"a\"] =",
            "removeValue(forKey:", "d.keys", "s.insert", "s.contains", "Set([", "Box(v:", "box?.v", "box!.v", "===", "created(Box)",
            "alive(Box)", "Lock()", "NSLock()", "NSRecursiveLock()", "OSAllocatedUnfairLock()", "synchronized(m)", "m.try()",
            "DispatchSemaphore(value:", "sem.wait()", "sem.signal()", "timeout: .now()", ".distantFuture", "NSCondition()",
            "c.wait()", "c.signal()", "c.broadcast()", "DispatchQueue(label:", "attributes: .concurrent", "DispatchQueue.global()",
            "q.sync", "q.async", "flags: .barrier", "main.async", "main.sync", "DispatchQueue.main", "DispatchGroup()", "g.enter()",
            "g.leave()", "g.wait()", "g.notify(queue:", "async(group: g", "OperationQueue(", "Operation(name:", "isAsynchronous: true",
            "op.finish()", "BlockOperation", "addExecutionBlock", "addDependency", "removeDependency", "completionBlock",
            "addObserver(forKeyPath:", "queuePriority", "qualityOfService", "waitUntilFinished", "waitUntilAllOperationsAreFinished",
            "cancelAllOperations", "isSuspended", ".cancel()", ".start()", "OperationQueue.main", "class Job: Operation",
            "init(amount:", "self.amount = amount", "override func main()", "override func start()", "override var isAsynchronous",
            "Job(amount:", "memory \"manual\"", "box!.retain()", "box!.release()", ".autorelease()", "autoreleasepool {",
            "Atomic(0)", ".load(",
            ".store(", "wrappingAdd", "wrappingSubtract", "compareExchange", ".exchanged", ".newValue", "ordering: .relaxed",
            "ordering: .acquiringAndReleasing", "ordering: .releasing", "successOrdering:", "failureOrdering: .acquiring", "critical {", "critical \"cs\"",
            "always ", "expect ", "assert(", "progress",
            "idle", "while true", "required \"", "holding m", "due \"", "work(", "print(", "isMainThread()", "fix alt",
            "remove thread", "schedule story", "wakeups \"signalled only\"", "scheduling \"strict priority\"", "% ", "&&", "||", "!(",
        ]
        for construct in constructs {
            #expect(programs.contains(construct), "no generated program holds \(construct)")
        }
    }

    /// The bytes decide the program: the same bytes write the same text, and no bytes
    /// write the plainest program.
    @Test func theBytesDecideTheProgram() {
        #expect(Self.program(seed: 7) == Self.program(seed: 7))
        #expect(Self.program(seed: 7) != Self.program(seed: 8))
        #expect(
            ProgramGenerator.program(from: []) == """
                var x = 0
                var y = 0
                var xs = [1]
                thread T1 {
                    x += 0
                }
                thread T2 {
                    x += 0
                }

                """)
    }

    // MARK: What the oracle found (issue 29, item 7)

    static func compile(_ source: String) throws -> Program {
        try Scenario.load(name: "test", file: SourceFile(name: "test.race", text: source)).versions[0].program
    }

    /// The write/write race on a reference DPOR once missed (each store frees the
    /// object the other replaced): every search reports it now.
    @Test func everySearchReportsTheRaceOnAReference() throws {
        let program = try Self.compile("class Box { var v = 0 }\nvar box: Box? = Box()\nthread A { box = Box(v: 3) }\nthread B { box = Box(v: 3) }")
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
    }

    /// A race between steps never enabled together, though nothing orders them: a flag
    /// published with a plain variable (the consumer's read of `data` comes after the
    /// producer's write in every run, as it spins until `ready`); two critical
    /// sections that write one variable (the second section's write cannot run while
    /// the first is inside: entering stops the run). Reporting two conflicting steps
    /// that can both run from one state misses it; the stateful search follows each
    /// access along the graph (`StatefulSearch.recordOrderedRaces`) and finds it.
    @Test(arguments: [
        (
            "var data = 0\nvar ready = false\nthread producer { data = 42; ready = true }\nthread consumer { while !ready { }; let got = data }",
            "data: line 3 write / line 4 read"
        ),
        ("var y = 0\nthread A { critical { y = 1 } }\nthread B { critical { y = 2 } }", "y: line 2 write / line 3 write"),
    ])
    func everySearchReportsARaceBetweenStepsNeverEnabledTogether(source: String, race: String) throws {
        let program = try Self.compile(source)
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
        let stateful = SearchOracle().answer("stateful", program, executions: 1_000) { $0.search = .stateful }
        #expect(stateful.races.map(\.description).contains(race), "\(stateful)")
    }

    /// Under a strict-priority scheduler the higher thread's write always runs first,
    /// so the two writes never run from one state, and nothing orders them: every
    /// search reports the race.
    @Test func everySearchReportsARaceAStrictPrioritySchedulerHides() throws {
        let program = try Self.compile(
            "scheduling \"strict priority\"\nvar y = 0\nthread A { Thread.current.qualityOfService = .userInteractive; y = 1 }\nthread B { y = 2 }")
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
        let stateful = SearchOracle().answer("stateful", program, executions: 1_000) { $0.search = .stateful }
        #expect(stateful.races.map(\.description) == ["y: line 3 write / line 4 write"], "\(stateful)")
    }

    /// A block that writes only once its `[weak b]` is nil runs after the release that
    /// freed the object, and a release orders nothing (item 7), so the block's write
    /// and the thread's own write race, though they never run from one state. The
    /// fuzzer found it in a generated program (the stateful search said "none").
    @Test func everySearchReportsARaceOrderedOnlyByAFreedObject() throws {
        let program = try Self.compile(
            """
            class Box { var v = 0 }
            var y = 0
            thread T1 {
                let b = Box(v: 1)
                DispatchQueue.global().async { [weak b] in
                    if b == nil { y = 3 }
                }
                y = 1
            }
            """)
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
        let stateful = SearchOracle().answer("stateful", program, executions: 1_000) { $0.search = .stateful }
        #expect(stateful.races.map(\.description) == ["y: line 6 write / line 8 write"], "\(stateful)")
    }

    /// A thread that writes only once it reads `isFinished` true writes after the
    /// operation's work: Foundation keeps an operation's state under its own lock, so
    /// the read synchronizes with the finish. It was a read of plain data that nothing
    /// wrote: DPOR reported a race the stateful search could not see (the two never
    /// run from one state). The fuzzer found it in a generated program.
    @Test func readingIsFinishedOrdersTheOperationsWorkFirst() throws {
        let program = try Self.compile(
            """
            var y = 0
            let oq = OperationQueue(maxConcurrentOperationCount: 1)
            thread T1 {
                let o1 = BlockOperation {
                    let t = y
                }
                oq.addOperation(o1)
                if o1.isFinished { y += 1 }
            }
            """)
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
        let dpor = SearchOracle().answer("DPOR", program, executions: 100) { $0.reduction = .dpor }
        #expect(dpor.races.isEmpty && dpor.outcomes.count == 2, "\(dpor)")
    }

    /// Two threads each remove the last of one element: whichever runs second crashes
    /// on an empty array, and its step once recorded no write, so the stateless
    /// searches reported no race. An invariant broken after either of two writes stops
    /// the run the same way: the second write never runs. Every search reports the
    /// write/write race now: the failed mutation is a write, and a step that stops the
    /// program races with the steps the other threads could have taken instead.
    @Test func everySearchReportsARaceWhoseSecondAccessCrashesOrNeverRuns() throws {
        for source in [
            "var xs = [1]\nthread A { xs.removeLast() }\nthread B { xs.removeLast() }",
            "var turn = 0\nthread A { turn = 1 }\nthread B { turn = 2 }\nalways turn == 0, \"never written\"",
        ] {
            let program = try Self.compile(source)
            #expect(SearchOracle().check(program) == .agreed(pairs: 3), "\(source)")
            let dpor = SearchOracle().answer("DPOR", program, executions: 100) { $0.reduction = .dpor }
            #expect(dpor.races.map(\.description) == ["\(source.hasPrefix("var xs") ? "xs" : "turn"): line 2 write / line 3 write"], "\(dpor)")
        }
    }

    /// An outcome tells a weak reference apart by whether its object lives: a run that
    /// stops while the object lives (`wbox = Box#1`) and one that stops after it was
    /// freed (`wbox = nil`) are two outcomes. (They were once one, keyed by the object
    /// alone and printed as whichever came first, and DPOR, meeting the freed run
    /// first, never showed `wbox = Box#1`.)
    @Test func outcomesTellAWeakReferenceApartByWhetherItsObjectLives() throws {
        let program = try Self.compile(
            """
            class Box { var v = 0 }
            weak var wbox: Box? = nil
            thread T1 { assert(false, "stop") }
            thread T2 { let b = Box(); wbox = b }
            """)
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
    }

    /// The step that breaks mutual exclusion ends the run, as a failed assertion does.
    /// DPOR reverses it with each other thread's pending step; that reversal once held
    /// C's write alone, which A's sleeping exit covered (independent of the write, but
    /// it leads only to runs where the sections never overlap), so the runs in which C
    /// writes before the sections overlap (`x = 1`, mutual exclusion broken) were
    /// never explored: 18 interleavings where there are 28. The reversal now ends with
    /// the halting step.
    @Test func dporKeepsTheOutcomesOfARunStoppedByACriticalSection() throws {
        let program = try Self.compile(
            """
            var x = 0
            thread A { critical { print("a") } }
            thread B { critical { print("b") } }
            thread C { x = 1 }
            """)
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
    }

    /// An invariant false from the start was once checked only after a step, so B's
    /// read, run first, broke it, and A's write, run first, mended it; DPOR took the
    /// read as independent of the write, ran one order, and said "proven". The first
    /// state is checked too now: every search fails before the first step.
    @Test func everySearchFindsAnInvariantBrokenFromTheStart() throws {
        let program = try Self.compile("var s = 1\nvar y = 0\nthread A { s = 0 }\nthread B { let t = y }\nalways s == 0, \"s is 0\"")
        #expect(SearchOracle().check(program) == .agreed(pairs: 3))
    }
}
