import RaceLabEngine
import RaceLabLanguage
import Testing

/// Exact traces of the constructs SCENARIOS.md leans on: operation queues with
/// dependencies, suspension and completion blocks; main.sync; deinit bodies; a
/// re-entrant synchronized; cancellation.
struct SemanticsTests {
    /// Reading a built-in property reads its operation's or queue's state, which
    /// Foundation keeps under the object's own lock: a read of its synchronizing
    /// target, so `isFinished` true orders the operation's work before the reader (the
    /// fuzzer found a race the stateful search could not see when it was plain data).
    /// Every name in `Access.builtinProperties` is one the machine reads.
    @Test func everyBuiltinPropertyReadsItsObjectsState() throws {
        let source = """
            let queue = OperationQueue()
            thread A {
                let op = Operation(name: "one") { op in work(1) }
                let a = op.isCancelled
                let b = op.isFinished
                let c = op.isExecuting
                let d = op.name
                let e = queue.isSuspended
                let f = queue.maxConcurrentOperationCount
                let g = queue.operationCount
                let h = op.isReady
                let i = op.isAsynchronous
                let j = op.queuePriority
                let k = op.qualityOfService
            }
            """
        let result = try run(source)
        let reads = result.events.filter { $0.text.hasPrefix("reads one.") || $0.text.hasPrefix("reads queue.") }
        let names = reads.map { String($0.text.dropFirst("reads ".count).prefix { $0 != ":" }.split(separator: ".")[1]) }
        #expect(names == Access.builtinProperties)
        for read in reads {
            #expect(read.accesses.count == 1 && read.accesses[0].kind == .read, "\(read.text)")
            switch read.accesses[0].target {
            case .operation, .queue: break
            default: Issue.record("\(read.text) reads \(read.accesses[0].target)")
            }
        }
    }

    @Test func dependenciesSuspensionAndCompletionBlocks() throws {
        let source = """
            var order = [0]
            let queue = OperationQueue(maxConcurrentOperationCount: 1)
            thread A {
                let first = Operation(name: "one") { op in order.append(1) }
                let second = Operation(name: "two") { op in order.append(2) }
                second.addDependency(first)
                second.completionBlock = { order.append(3) }
                queue.isSuspended = true
                queue.addOperation(second)
                queue.addOperation(first)
                queue.isSuspended = false
                queue.waitUntilAllOperationsAreFinished()
            }
            """
        let result = try run(source)
        #expect(
            lines(result) == [
                "A creates operation one",
                "A creates operation two",
                "A makes two depend on one",
                "A sets the completion block of operation two",
                "A suspends queue",
                "A adds operation two to queue",
                "A adds operation one to queue",
                "A resumes queue; operation one starts on thread one",
                "one calls order.append(1): now [0, 1]",
                "A waits for every operation in queue to finish",
                "one finishes operation one and releases one; operation two starts on thread two",
                "two calls order.append(2): now [0, 1, 2]",
                "two finishes operation two and releases two",
                "A goes on: queue is empty",
                "two calls order.append(3): now [0, 1, 2, 3]",
                "two finishes",
                "A finishes and releases one, two",
                "A releases the last reference to one, which is deallocated",
                "A releases the last reference to two, which is deallocated",
            ])
        #expect(result.schedule.text == "A A A A A A A A one A one two two A two A")
        #expect(result.findings.isEmpty)
    }

    @Test func mainSyncWaitsAndDeinitRunsOnTheReleasingThread() throws {
        let source = """
            class Box {
                var n = 1
                deinit { print("bye") }
            }
            let token = Lock()
            var kept: Box? = nil
            thread A {
                synchronized(token) {
                    synchronized(token) {
                        kept = Box()
                    }
                }
                main.sync { kept = nil }
            }
            """
        let result = try run(source)
        #expect(
            lines(result) == [
                "A enters synchronized(token)",
                "A enters synchronized(token), again (depth 2)",
                "A creates Box#1",
                "A writes kept = Box#1",
                "A leaves synchronized(token), still holding it (depth 1)",
                "A leaves synchronized(token)",
                "A sends a block to the main queue with main.sync and waits for main to run it",
                "main takes the next block from the main queue (sent by A) and runs it",
                "main writes kept = nil",
                "main releases the last reference to Box#1, which is deallocated; its deinit runs on main",
                "main prints \"bye\"",
                "main finishes the deinit of Box#1",
                "main finishes the main-queue block; A, waiting in main.sync, can go on",
                "A goes on: main has run its block",
                "A finishes",
            ])
        #expect(result.world.output == ["main: bye"])
    }

    @Test func aBlockedThreadCannotBeScheduled() throws {
        let source = "let l = Lock()\nthread A { l.lock()\n work(2)\n l.unlock() }\nthread B { l.lock()\n l.unlock() }"
        let result = try run(source, schedule: "A B A A A B B")
        #expect(
            lines(result) == [
                "A locks l", "B blocks on l, held by A", "A works (1 more step of work to go)", "A works",
                "A unlocks l; this wakes B", "A finishes", "B locks l (it was woken: l is free)", "B unlocks l", "B finishes",
            ])
        #expect(throws: ScheduleError.self) { try run(source, schedule: "A B B") }
    }

    @Test func cancellingAnOperationStopsItAtItsNextCheck() throws {
        let source = """
            var rounds = 0
            let queue = OperationQueue()
            main {
                let op = Operation(name: "loop") { op in
                    while !op.isCancelled { rounds += 1 }
                }
                queue.addOperation(op)
                op.cancel()
            }
            """
        let result = try run(source, schedule: "main main loop loop loop main loop loop")
        #expect(result.findings.isEmpty)
        #expect(result.world.globals[0] == .int(1))
        #expect(lines(result).contains("main cancels operation loop"))
        #expect(lines(result).contains("loop reads loop.isCancelled: true"))
    }
}
