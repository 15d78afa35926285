import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Swift concurrency's ways to wait (issue 33): checked continuations, cancellation
/// handlers, the cooperative pool's width, and `AsyncStream`. Every search agrees.
struct ContinuationTests {
    /// SE-0300's exactly-once rule: a second resume is the runtime's trap.
    @Test func aSecondResumeTraps() throws {
        let source = """
            var got = 0
            func load() async -> Int {
                return await withCheckedContinuation { continuation in
                    spawn network {
                        continuation.resume(returning: 1)
                        continuation.resume(returning: 2)
                    }
                }
            }
            task A {
                got = await load()
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(
            lines(run) == [
                "A makes continuation Continuation#1 in load",
                "A starts thread network",
                "network resumes Continuation#1 with 1",
                "A goes on: Continuation#1 was resumed with 1",
                "network crashes: SWIFT TASK CONTINUATION MISUSE: load() tried to resume its continuation more than once",
            ])
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            #expect(result.findingKinds == [.crash], "\(search) \(reduction)")
            #expect(ConcurrencyTests.histogram(result) == ["got = 0: 4", "got = 1: 4"], "\(search) \(reduction)")
        }
    }

    /// A path that returns without resuming drops the continuation: the runtime's
    /// warning, and the task waits for ever. One kept but never resumed hangs too.
    @Test func aContinuationNobodyResumesHangsItsTask() throws {
        let leaked = try RaceLabEngineTests.run(
            """
            func load(n) async -> Int {
                return await withCheckedContinuation { continuation in
                    if n == 0 {
                        return
                    }
                    continuation.resume(returning: n)
                }
            }
            task A {
                let v = await load(0)
            }
            """)
        #expect(leaked.end == .deadlocked)
        #expect(
            leaked.findings.map(\.message) == [
                "SWIFT TASK CONTINUATION MISUSE: load() leaked its continuation without resuming it; A waits for it for ever",
                "every thread left is blocked: A waits for ever on continuation Continuation#1, which load leaked without resuming it",
            ])
        let kept = try RaceLabEngineTests.run(
            """
            var pending: CheckedContinuation? = nil
            func load() async -> Int {
                return await withCheckedContinuation { continuation in
                    pending = continuation
                }
            }
            task A {
                let v = await load()
            }
            """)
        #expect(
            kept.findings.map(\.message) == ["every thread left is blocked: A waits on continuation Continuation#1 (made in load), which nobody has resumed"])
    }

    /// Cancelling runs the handler in the canceller's step; a task cancelled already
    /// runs it as it registers it.
    @Test func aCancellationHandlerRunsOnTheCanceller() throws {
        let source = """
            var log: [String] = []
            var started = false
            func job() async -> Int {
                return await withTaskCancellationHandler(operation: {
                    started = true
                    await Task.yield()
                    return 1
                }, onCancel: {
                    log.append("handler")
                })
            }
            main {
                let t = Task.detached {
                    return await job()
                }
                t.cancel()
                log.append("main")
            }
            """
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            // Cancelled while the handler is registered: main runs it, before its own
            // append. Cancelled before: the task runs it as it registers it, off the
            // main actor, racing with main's append. After: nobody runs it.
            #expect(
                ConcurrencyTests.histogram(result) == [
                    "log = [\"handler\", \"main\"], started = true: 141", "log = [\"main\", \"handler\"], started = true: 15",
                    "log = [\"main\"], started = true: 4",
                ], "\(search) \(reduction)")
            #expect(result.dataRaces.count == 1, "\(search) \(reduction)")
        }
    }

    /// `pool 1`: a task blocked on a semaphore holds the only thread, so the task
    /// that would signal never runs. With more threads it may get lucky, and the
    /// blocking wait is still reported.
    @Test func aBlockedTaskHoldsItsPoolThread() throws {
        let source = """
            pool WIDTH
            let done = DispatchSemaphore(value: 0)
            var result = 0
            task waiter {
                done.wait()
                result += 1
            }
            task signaller {
                done.signal()
            }
            """
        for (search, reduction) in ConcurrencyTests.searches {
            let one = try ConcurrencyTests.explore(source.replacingOccurrences(of: "WIDTH", with: "1"), search, reduction)
            #expect(ConcurrencyTests.histogram(one) == ["result = 0: 2", "result = 1: 3"], "\(search) \(reduction)")
            #expect(one.findingKinds == [.deadlock, .forwardProgress], "\(search) \(reduction)")
            let two = try ConcurrencyTests.explore(source.replacingOccurrences(of: "WIDTH", with: "2"), search, reduction)
            #expect(ConcurrencyTests.histogram(two) == ["result = 1: 15", "result = 1: 16"], "\(search) \(reduction)")
            #expect(two.findingKinds == [.forwardProgress], "\(search) \(reduction)")
        }
        let run = try RaceLabEngineTests.run(source.replacingOccurrences(of: "WIDTH", with: "1"), schedule: "waiter waiter signaller")
        #expect(
            run.findings.map(\.message) == [
                "waiter blocks its thread in done.wait(): a thread of the cooperative pool, held until other work signals; if that work needs a thread of the pool too, with one thread (or every thread so blocked) it never runs",
                "every thread left is blocked: waiter waits on semaphore done (count 0); no other thread can run to signal it; signaller waits for a thread of the cooperative pool: all 1 are held (by waiter)",
            ])
    }

    /// A task that resumes from a suspension takes a pool thread again before it
    /// goes on: with one thread, the awaited task runs while it is suspended.
    @Test func aResumedTaskTakesAPoolThreadAgain() throws {
        let run = try RaceLabEngineTests.run(
            """
            pool 1
            var got = 0
            task A {
                let t = Task.detached {
                    return 5
                }
                got = await t.value
            }
            """)
        #expect(
            lines(run) == [
                "A runs its job on a thread of the cooperative pool (1 of 1 busy)",
                "A starts task task",
                "task waits for a thread of the cooperative pool: all 1 are busy",
                "A awaits task's value: task has not finished, so it suspends",
                "task runs its job on a thread of the cooperative pool (1 of 1 busy)",
                "task finishes, its value 5",
                "A runs its job on a thread of the cooperative pool (1 of 1 busy)",
                "A gets task's value: 5",
                "A writes got = 5",
                "A finishes and releases task",
                "A releases the last reference to task, which is deallocated",
            ])
    }

    /// `bufferingNewest(1)`: a consumer that is slow to come back misses values; every
    /// search counts the same.
    @Test func aFullBufferDropsTheOldest() throws {
        let source = """
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
            var rendered: [Int] = []
            task consumer {
                for await value in stream {
                    rendered.append(value)
                    await Task.yield()
                }
            }
            task producer {
                continuation.yield(1)
                continuation.yield(2)
                continuation.yield(3)
                continuation.finish()
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(
            lines(run) == [
                "consumer awaits the next element of stream: none is buffered, so it suspends",
                "producer yields 1 to stream: consumer, suspended for it, gets it",
                "consumer resumes with 1 from stream",
                "producer yields 2 to stream: buffered",
                "consumer calls rendered.append(1): now [1]",
                "producer yields 3 to stream: the buffer is full (bufferingNewest(1)), so the oldest, 2, is dropped",
                "consumer yields (Task.yield())",
                "producer finishes stream",
                "consumer takes 3 from stream",
                "producer finishes",
                "consumer calls rendered.append(3): now [1, 3]",
                "consumer yields (Task.yield())",
                "consumer finds stream finished: its loop ends",
                "consumer finishes",
            ])
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            #expect(
                ConcurrencyTests.histogram(result) == ["rendered = [1, 2, 3]: 1044", "rendered = [1, 3]: 440", "rendered = [2, 3]: 106", "rendered = [3]: 21"],
                "\(search) \(reduction)")
        }
    }

    /// Two consumers of one stream: finishing it tells one, and the other may stay
    /// suspended for ever (swiftlang/swift #71412).
    @Test func aSecondConsumerCanStaySuspended() throws {
        let source = """
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            task a {
                for await value in stream {
                    work(value)
                }
            }
            task b {
                for await value in stream {
                    work(value)
                }
            }
            task producer {
                continuation.finish()
            }
            """
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            #expect(result.findingKinds == [.deadlock], "\(search) \(reduction)")
        }
        let run = try RaceLabEngineTests.run(source, schedule: "a b producer")
        #expect(
            run.findings.map(\.message) == [
                "every thread left is blocked: b awaits the next element of stream, which has finished: nothing will resume it (swiftlang/swift #71412)"
            ])
    }

    /// The value a continuation was resumed with is the waiting task's: the resumer
    /// may drop the continuation before the task goes on, and the object lives.
    @Test func aResumedObjectOutlivesItsContinuation() throws {
        let source = """
            class Box {
                var v = 0
            }
            var got = 0
            func load() async -> Box {
                return await withCheckedContinuation { continuation in
                    spawn network {
                        continuation.resume(returning: Box(v: 7))
                    }
                }
            }
            task A {
                let b = await load()
                got = b.v
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A A network network network A A A")
        #expect(
            lines(run) == [
                "A makes continuation Continuation#1 in load", "A starts thread network", "network creates Box#1",
                "network resumes Continuation#1 with Box#1", "network finishes and releases Continuation#1",
                "network releases the last reference to Continuation#1, which is deallocated", "A goes on: Continuation#1 was resumed with Box#1",
                "A reads Box#1.v: 7", "A writes got = 7", "A finishes and releases Box#1", "A releases the last reference to Box#1, which is deallocated",
            ])
        try ConcurrencyTests.agree(source, ["got = 7: 15"])
    }

    /// A closure's parameters may stand in parentheses, typed as Swift writes them;
    /// an expression in parentheses is still one.
    @Test func aClosuresParametersMayBeTyped() throws {
        let source = """
            var got = 0
            func load() async -> Int {
                return await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                    continuation.resume(returning: (1 + 2))
                }
            }
            task A {
                got = await load()
                await withTaskGroup(of: Int.self) { (group) in
                    group.addTask { (got) }
                }
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(run.world.describe(run.world.globals[0]) == "3")
        #expect(firstDiagnostic("task A {\n    await withTaskGroup(of: Int.self) { (group: ) in\n    }\n}") == "2:49: expected a type name, found ')'")
    }
}
