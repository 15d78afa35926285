import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// The program explored by DPOR, with no reduction, and by the stateful search, each
/// expected to prove it with no data race: "executions interleavings" of each (the
/// interleavings must agree; what an execution is differs).
func provenCountsAcrossSearches(_ program: Program) -> [String] {
    var counts: [String] = []
    for (search, reduction) in [(ExploreConfig.Search.stateless, ExploreConfig.Reduction.dpor), (.stateless, .none), (.stateful, .dpor)] {
        var config = ExploreConfig()
        config.search = search
        config.reduction = reduction
        config.timeLimit = nil
        let result = Explorer(program: program, config: config).explore()
        #expect(result.verdict() == .proven, "\(search) \(reduction)")
        #expect(result.dataRaces.isEmpty, "\(search) \(reduction)")
        counts.append("\(result.executions) \(result.interleavings)")
    }
    return counts
}

/// Semaphores, `NSLock.try()` and `NSRecursiveLock` (issue 20, part 1): their steps,
/// their sentences, the blocking they cause and the order they make.
struct SemaphoreTests {
    /// A one-slot buffer with two semaphores (the blocking producer/consumer).
    static let buffer = """
        let items = DispatchSemaphore(value: 0)
        let slots = DispatchSemaphore(value: 1)
        var buffer = 0
        var got = [0]
        thread producer {
            for i in 1...2 {
                slots.wait()
                buffer = i
                items.signal()
            }
        }
        thread consumer {
            for _ in 1...2 {
                items.wait()
                got.append(buffer)
                slots.signal()
            }
        }
        expect got == [0, 1, 2], "every item arrives once, in order"
        """

    @Test func waitBlocksAtZeroAndSignalWakes() throws {
        let run = try RaceLabEngineTests.run(Self.buffer, schedule: "consumer producer producer producer consumer")
        #expect(
            lines(run).prefix(6) == [
                "consumer waits on items (count 0): it blocks",
                "producer waits on slots and takes one at once (count now 0)",
                "producer writes buffer = 1",
                "producer signals items (count now 1): a waiting thread can go on",
                "consumer is woken and takes one from items (count now 0)",
                "consumer reads buffer: 1",
            ])
        #expect(run.end == .completed && run.findings.isEmpty)
    }

    /// Every interleaving passes, and the hand-off through the semaphores orders the
    /// buffer's write before its read: no data race. The counts agree across searches.
    @Test func theBufferIsProvenWithoutARace() throws {
        #expect(try provenCountsAcrossSearches(compile(Self.buffer)) == ["8 80", "80 80", "1 80"])
    }

    /// Signalling before the item is written: the consumer can read the old value.
    @Test func signallingTooEarlyIsARace() throws {
        let early = Self.buffer.replacingOccurrences(of: "buffer = i\n        items.signal()", with: "items.signal()\n        buffer = i")
        #expect(early != Self.buffer)
        let result = Explorer(program: try compile(early)).explore()
        #expect(result.verdict() == .fails)
        #expect(result.dataRaces.map(\.target) == ["buffer"])
    }

    @Test func aWaitNobodySignalsIsADeadlockThatSaysSo() throws {
        let source = """
            let s = DispatchSemaphore(value: 0)
            let lock = NSLock()
            thread A { lock.lock(); s.wait(); lock.unlock() }
            thread B { lock.lock(); s.signal(); lock.unlock() }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A A B")
        #expect(run.end == .deadlocked)
        #expect(
            run.findings.map(\.message) == [
                "every thread left is blocked: A waits on semaphore s (count 0); no other thread can run to signal it; B waits for lock, held by A"
            ])
    }

    /// `wait(timeout: .now())` takes one if it can and says whether it did, in one
    /// step; `.distantFuture` is a plain wait.
    @Test func aWaitWithTimeoutNowNeverBlocks() throws {
        let source = """
            let s = DispatchSemaphore(value: 1)
            var results = [""]
            thread A { if s.wait(timeout: .now()) == .success { results.append("A got it") } }
            thread B { if s.wait(timeout: .now()) == .timedOut { results.append("B timed out") } }
            thread C { s.wait(timeout: .distantFuture) }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A B C A B")
        #expect(
            lines(run).prefix(3) == [
                "A tries s (a wait that times out at once) and takes one (count now 0): .success",
                "B tries s (a wait that times out at once): the count is 0, so .timedOut",
                "C waits on s (count 0): it blocks",
            ])
        #expect(run.events.count == 7, "\(lines(run))")
        #expect(run.end == .deadlocked)
        #expect(run.world.globals[1] == .array(ArrayValue([.string(""), .string("A got it"), .string("B timed out")])))
        let forever = try RaceLabEngineTests.run(
            "let s = DispatchSemaphore(value: 0)\nvar x = 0\nthread A { s.wait(timeout: .distantFuture); x = 1 }\nthread B { s.signal() }",
            schedule: "A B A A")
        #expect(
            lines(forever) == [
                "A waits on s (count 0): it blocks", "B signals s (count now 1): a waiting thread can go on", "B finishes",
                "A is woken and takes one from s (count now 0)", "A writes x = 1", "A finishes",
            ])
        #expect(throws: ScriptError.self) { try compile("let s = DispatchSemaphore(value: 1)\nthread A { s.wait(.now()) }") }
        #expect(throws: ScriptError.self) { try compile("let s = DispatchSemaphore(value: 1)\nthread A { let r = s.wait(timeout: .later) }") }
    }

    @Test func aNegativeCountIsACrash() throws {
        let run = try RaceLabEngineTests.run("let s = DispatchSemaphore(value: -1)\nthread A { s.signal() }")
        #expect(run.findings.map(\.message) == ["DispatchSemaphore(value:) needs a count from 0 to 2147483647"])
        #expect(throws: ScriptError.self) { try compile("let s = DispatchSemaphore(1)") }
    }

    /// A script's Int has 64 bits everywhere, but a count the engine keeps stops at
    /// 32, on every platform alike (the browser build's Int has 32 bits).
    @Test func aCountPast32BitsIsRefusedAndAnIntegerIsNot() throws {
        let semaphore = try RaceLabEngineTests.run("let s = DispatchSemaphore(value: 2147483648)\nthread A { s.signal() }")
        #expect(semaphore.findings.map(\.message) == ["DispatchSemaphore(value:) needs a count from 0 to 2147483647"])
        let widest = try RaceLabEngineTests.run("let s = DispatchSemaphore(value: 2147483647)\nvar x = 4294967296\nthread A { s.wait(); x = x * 2 }")
        #expect(widest.findings.isEmpty)
        #expect(lines(widest).suffix(2) == ["A writes x = 8589934592", "A finishes"])
        let index = try RaceLabEngineTests.run("var xs = [1]\nthread A { xs[4294967296] = 2 }")
        #expect(index.findings.map(\.message) == ["index out of range: xs[4294967296], but xs has 1 element"])
    }
}

struct LockVariantTests {
    @Test func tryTakesAFreeLockAndReportsAHeldOne() throws {
        let source = """
            let lock = NSLock()
            var got = 0
            thread A { if lock.try() { got += 1; lock.unlock() } }
            thread B { lock.lock(); lock.unlock() }
            """
        let held = try RaceLabEngineTests.run(source, schedule: "B A")
        #expect(lines(held).prefix(2) == ["B locks lock", "A tries lock, held by B: false"])
        let free = try RaceLabEngineTests.run(source, schedule: "A")
        #expect(lines(free).first == "A tries lock and takes it")
        #expect(free.world.globals[1] == .int(1))
    }

    @Test func aRecursiveLockCanBeTakenAgainAPlainOneCannot() throws {
        let recursive = try RaceLabEngineTests.run("let r = NSRecursiveLock()\nthread A { r.lock(); r.lock(); r.unlock(); r.unlock() }")
        #expect(lines(recursive) == ["A locks r", "A locks r, again (depth 2)", "A unlocks r, still holding it (depth 1)", "A unlocks r", "A finishes"])
        let plain = try RaceLabEngineTests.run("let r = NSLock()\nthread A { r.lock(); r.lock() }")
        #expect(plain.end == .deadlocked)
    }
}

/// `NSCondition`: wait lets go of the lock and takes it again; a signal wakes the
/// longest waiting thread, or is lost; a spurious wakeup is one more choice (once a
/// thread), so a wait not rechecked in a loop is caught and one in a loop is proven.
struct ConditionTests {
    static let handoff = """
        let c = NSCondition()
        var ready = false
        var item = 0
        var got = 0
        thread consumer {
            c.lock()
            if !ready { c.wait() }
            got = item
            c.unlock()
        }
        thread producer {
            c.lock()
            item = 42
            ready = true
            c.signal()
            c.unlock()
        }
        expect got == 42, "the consumer gets the item"
        fix loop {
            thread consumer {
                c.lock()
                while !ready { c.wait() }
                got = item
                c.unlock()
            }
        }
        """

    @Test func theTraceSaysWhatWaitAndSignalDo() throws {
        let spurious = try RaceLabEngineTests.run(Self.handoff, schedule: "consumer*8 producer*5")
        #expect(
            lines(spurious) == [
                "consumer locks c", "consumer reads ready: false", "consumer waits on c for a signal, letting go of it",
                "consumer wakes up with no signal (a spurious wakeup)", "consumer takes c again and returns from wait()",
                "consumer reads item: 0", "consumer writes got = 0", "consumer unlocks c", "consumer finishes",
                "producer locks c", "producer writes item = 42", "producer writes ready = true",
                "producer signals c, but no thread waits: the signal is lost", "producer unlocks c", "producer finishes",
            ])
        let signalled = try RaceLabEngineTests.run(Self.handoff, schedule: "consumer*3 producer*4 consumer producer consumer*4")
        #expect(
            lines(signalled)[6...10] == [
                "producer signals c: consumer wakes and must take it again",
                "consumer must take c again, but producer holds it: it blocks",
                "producer unlocks c; this wakes consumer",
                "producer finishes",
                "consumer takes c again and returns from wait()",
            ])
    }

    /// A spurious wakeup keeps a program going only while another thread can run:
    /// when it is all that is left, nothing promises one, and the program is stuck.
    @Test func aWaitNobodySignalsIsADeadlockEvenBeforeASpuriousWakeup() throws {
        let source = "let c = NSCondition()\nvar done = false\nthread A {\n    c.lock()\n    while !done { c.wait() }\n    c.unlock()\n}"
        let run = try RaceLabEngineTests.run(source)
        #expect(run.end == .deadlocked)
        #expect(
            run.findings.map(\.message) == [
                "every thread left is blocked: A waits on condition c for a signal; no other thread can run to signal it (a spurious wakeup could free it, but none is promised)"
            ])
    }

    @Test func waitingWithoutTheLockIsARuntimeError() throws {
        let run = try RaceLabEngineTests.run("let c = NSCondition()\nthread A { c.wait() }")
        #expect(run.findings.map(\.message) == ["A calls c.wait() without holding c: lock it first"])
    }
}

/// Dispatch queues (issue 20, part 2 begun): serial and concurrent queues, async and
/// sync, the main queue and a global queue; the sync onto its own serial queue.
struct DispatchQueueTests {
    static let serial = """
        let serial = DispatchQueue(label: "counter")
        var count = 0
        thread A { serial.async { count += 1 } }
        thread B { serial.sync { count += 1 } }
        expect count >= 1, "B's block has run when B goes on"
        """

    @Test func aSerialQueueRunsOneBlockAtATimeAndSyncWaits() throws {
        let run = try RaceLabEngineTests.run(Self.serial)
        #expect(
            lines(run) == [
                "A sends a block to counter with async (it runs as counter#1); operation counter#1 starts on thread counter#1", "A finishes",
                "B sends a block to counter with sync (as counter#2) and waits for it to run",
                "counter#1 reads count: 0", "counter#1 writes count = 1", "counter#1 finishes operation counter#1",
                "counter#1 releases the last reference to counter#1, which is deallocated; operation counter#2 starts on thread counter#2",
                "counter#2 reads count: 1", "counter#2 writes count = 2", "counter#2 finishes operation counter#2",
                "counter#2 releases the last reference to counter#2, which is deallocated",
                "B goes on: the block it sent counter with sync has run", "B finishes",
            ])
        #expect(try provenCountsAcrossSearches(compile(Self.serial)) == ["4 21", "21 21", "1 21"])
    }

    @Test func aConcurrentQueueRacesAndASyncOntoItsOwnSerialQueueDeadlocks() throws {
        let source = """
            let serial = DispatchQueue(label: "work")
            let pool = DispatchQueue(label: "pool", attributes: .concurrent)
            var count = 0
            thread A { serial.async { serial.sync { count += 0 } } }
            thread B { pool.async { count += 1 }; pool.async { count += 1 } }
            """
        let result = Explorer(program: try compile(source)).explore()
        #expect(result.verdict() == .fails)
        // One report per pair of sides, though the blocks' threads are numbered in
        // the order they start.
        #expect(
            result.dataRaces.map { "\($0.first.thread) \($0.first.kind) \($0.second.thread) \($0.second.kind)" } == [
                "pool#1 write pool#2 read", "pool#1 read pool#2 write", "pool#1 write pool#2 write",
            ])
        let run = try RaceLabEngineTests.run("let serial = DispatchQueue(label: \"work\")\nthread A { serial.async { serial.sync { } } }")
        #expect(
            run.findings.map(\.message) == [
                "every thread left is blocked: work#1 waits for operation work#2 to finish, but work is serial and runs one block at a time: the one work#1 is running itself, which cannot finish while it waits (a sync onto its own serial queue)"
            ])
    }

    @Test func theMainQueueAndAGlobalQueue() throws {
        let run = try RaceLabEngineTests.run(
            "var log = [0]\nthread A { DispatchQueue.main.sync { log.append(1) }; DispatchQueue.global().async { log.append(2) } }")
        #expect(run.end == .completed)
        #expect(run.world.globals[0] == .array([.int(0), .int(1), .int(2)]))
        #expect(
            lines(run).prefix(7) == [
                "A sends a block to the main queue with main.sync and waits for main to run it",
                "main takes the next block from the main queue (sent by A) and runs it", "main calls log.append(1): now [0, 1]",
                "main finishes the main-queue block; A, waiting in main.sync, can go on", "A goes on: main has run its block",
                "A creates concurrent dispatch queue global",
                "A sends a block to global with async (it runs as global#1); operation global#1 starts on thread global#1",
            ])
        #expect(throws: ScriptError.self) { try compile("let q = DispatchQueue(\"x\")") }
        #expect(throws: ScriptError.self) { try compile("let q = DispatchQueue(label: \"x\", attributes: .serial)") }
    }
}
