import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// How an `AsyncStream` ends (issue 33): `finish()`, or the cancellation of the task
/// in its `for await`, and the `onTermination` handler either one runs, once, on the
/// thread that ends it. Every search agrees.
struct StreamTerminationTests {
    /// A consumer suspended in `for await` sees the end only after the handler returns,
    /// as in Swift's runtime; one that comes back later finds the stream ended at once.
    @Test func finishRunsTheHandlerBeforeTheConsumerSeesTheEnd() throws {
        let source = """
            var log: [String] = []
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            task consumer {
                for await v in stream {
                    log.append("got")
                }
                log.append("end")
            }
            task producer {
                continuation.onTermination = { termination in
                    log.append(termination)
                }
                continuation.yield(1)
                continuation.finish()
            }
            """
        let run = try RaceLabEngineTests.run(
            source, schedule: "consumer producer producer consumer consumer consumer producer producer producer consumer consumer consumer producer")
        #expect(
            lines(run) == [
                "consumer awaits the next element of stream: none is buffered, so it suspends",
                "producer sets stream's onTermination handler",
                "producer yields 1 to stream: consumer, suspended for it, gets it",
                "consumer resumes with 1 from stream",
                "consumer calls log.append(\"got\"): now [\"got\"]",
                "consumer awaits the next element of stream: none is buffered, so it suspends",
                "producer finishes stream; its onTermination handler runs here",
                "producer calls log.append(\"finished\"): now [\"got\", \"finished\"]",
                "producer returns from stream's onTermination handler; consumer, suspended in for await, sees the end",
                "consumer resumes: stream has finished, so its loop ends",
                "consumer calls log.append(\"end\"): now [\"got\", \"finished\", \"end\"]",
                "consumer finishes",
                "producer finishes",
            ])
        try ConcurrencyTests.agree(
            source,
            [
                "log = [\"finished\", \"got\", \"end\"]: 153", "log = [\"got\", \"end\", \"finished\"]: 36",
                "log = [\"got\", \"finished\", \"end\"]: 156",
            ])
    }

    /// Cancelling the task suspended in `for await` ends the stream in the canceller's
    /// step: the handler runs there with "cancelled", and a later `yield` is
    /// "terminated". A task cancelled before it awaits ends the stream itself.
    @Test func cancellingTheConsumerEndsTheStream() throws {
        let source = """
            var log: [String] = []
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let consumer = Task.detached {
                for await v in stream {
                    log.append("got")
                }
                log.append("end")
            }
            task canceller {
                continuation.onTermination = { termination in
                    log.append(termination)
                }
                continuation.yield(1)
                consumer.cancel()
                let result = continuation.yield(2)
                log.append(result)
            }
            """
        let suspended = try RaceLabEngineTests.run(
            source, schedule: "task canceller canceller task task task canceller canceller canceller task task task canceller canceller canceller")
        #expect(
            lines(suspended) == [
                "task awaits the next element of stream: none is buffered, so it suspends",
                "canceller sets stream's onTermination handler",
                "canceller yields 1 to stream: task, suspended for it, gets it",
                "task resumes with 1 from stream",
                "task calls log.append(\"got\"): now [\"got\"]",
                "task awaits the next element of stream: none is buffered, so it suspends",
                "canceller cancels task; ends stream, which task awaits in for await; its onTermination handler runs here",
                "canceller calls log.append(\"cancelled\"): now [\"got\", \"cancelled\"]",
                "canceller returns from stream's onTermination handler; task, suspended in for await, sees the end",
                "task resumes: stream has finished, so its loop ends",
                "task calls log.append(\"end\"): now [\"got\", \"cancelled\", \"end\"]",
                "task finishes",
                "canceller yields 2 to stream, which has finished: terminated",
                "canceller calls log.append(\"terminated\"): now [\"got\", \"cancelled\", \"end\", \"terminated\"]",
                "canceller finishes",
            ])
        let cancelledFirst = try RaceLabEngineTests.run(
            source, schedule: "canceller canceller canceller task task task task task task task canceller canceller")
        #expect(
            lines(cancelledFirst) == [
                "canceller sets stream's onTermination handler",
                "canceller yields 1 to stream: buffered",
                "canceller cancels task",
                "task is cancelled: its for await ends stream; its onTermination handler runs here; it takes 1 from stream",
                "task calls log.append(\"cancelled\"): now [\"cancelled\"]",
                "task returns from stream's onTermination handler",
                "task calls log.append(\"got\"): now [\"cancelled\", \"got\"]",
                "task finds stream finished: its loop ends",
                "task calls log.append(\"end\"): now [\"cancelled\", \"got\", \"end\"]",
                "task finishes",
                "canceller yields 2 to stream, which has finished: terminated",
                "canceller calls log.append(\"terminated\"): now [\"cancelled\", \"got\", \"end\", \"terminated\"]",
                "canceller finishes",
            ])
        // A cancel while the consumer runs ends nothing: its next `for await` does.
        try ConcurrencyTests.agree(
            source,
            [
                "log = [\"cancelled\", \"enqueued\", \"got\", \"got\", \"end\"]: 15",
                "log = [\"cancelled\", \"got\", \"end\", \"terminated\"]: 191",
                "log = [\"cancelled\", \"got\", \"enqueued\", \"got\", \"end\"]: 11",
                "log = [\"cancelled\", \"got\", \"got\", \"end\", \"enqueued\"]: 3",
                "log = [\"cancelled\", \"got\", \"got\", \"enqueued\", \"end\"]: 7",
                "log = [\"cancelled\", \"got\", \"terminated\", \"end\"]: 199",
                "log = [\"cancelled\", \"terminated\", \"got\", \"end\"]: 79",
                "log = [\"enqueued\", \"cancelled\", \"got\", \"got\", \"end\"]: 19",
                "log = [\"enqueued\", \"got\", \"cancelled\", \"got\", \"end\"]: 27",
                "log = [\"got\", \"cancelled\", \"end\", \"terminated\"]: 176",
                "log = [\"got\", \"cancelled\", \"enqueued\", \"got\", \"end\"]: 99",
                "log = [\"got\", \"cancelled\", \"got\", \"end\", \"enqueued\"]: 27",
                "log = [\"got\", \"cancelled\", \"got\", \"enqueued\", \"end\"]: 63",
                "log = [\"got\", \"cancelled\", \"terminated\", \"end\"]: 164",
                "log = [\"got\", \"end\", \"cancelled\", \"terminated\"]: 12",
                "log = [\"got\", \"enqueued\", \"cancelled\", \"got\", \"end\"]: 135",
                "log = [\"got\", \"terminated\", \"cancelled\", \"end\"]: 30",
                "log = [\"terminated\", \"cancelled\", \"got\", \"end\"]: 7",
            ])
    }

    /// The stream keeps the one handler it will run: a handler replaced, or set after
    /// the end, is released there, and one that ran is released as it returns. What
    /// they capture goes away with them.
    @Test func aHandlerTheStreamDropsIsReleased() throws {
        let source = """
            class Box {
                var v = 0
                deinit { print("bye") }
            }
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            func install() {
                let b = Box()
                continuation.onTermination = { termination in
                    b.v = 1
                }
            }
            task producer {
                install()
                continuation.onTermination = { termination in
                    print(termination)
                }
                continuation.finish()
                install()
            }
            expect alive(Box) == 0, "every handler is gone, and what it captured"
            """
        let run = try RaceLabEngineTests.run(source, schedule: String(repeating: "producer ", count: 15))
        #expect(
            lines(run) == [
                "producer creates Box#1",
                "producer sets stream's onTermination handler",
                "producer returns from install and releases Box#1",
                "producer sets stream's onTermination handler, replacing the one before",
                "producer releases the last reference to Box#1, which is deallocated; its deinit runs on producer",
                "producer prints \"bye\"",
                "producer finishes the deinit of Box#1",
                "producer finishes stream; its onTermination handler runs here",
                "producer prints \"finished\"",
                "producer returns from stream's onTermination handler",
                "producer creates Box#2",
                "producer sets stream's onTermination, but stream has ended: it will never run",
                "producer returns from install and releases Box#2",
                "producer releases the last reference to Box#2, which is deallocated; its deinit runs on producer",
                "producer prints \"bye\"",
                "producer finishes the deinit of Box#2",
                "producer finishes",
            ])
        for (search, reduction) in ConcurrencyTests.searches {
            #expect(try ConcurrencyTests.explore(source, search, reduction).verdict() == .proven, "\(search) \(reduction)")
        }
    }

    /// The handler is Swift's `@Sendable` closure: off the main actor even when main
    /// sets it, so Swift 6 rejects its use of main's variables (and the race shows).
    @Test func aHandlerIsOffTheMainActorWhereverItIsSet() throws {
        let source = """
            var log: [String] = []
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            task producer {
                continuation.finish()
            }
            main {
                continuation.onTermination = { termination in
                    log.append(termination)
                }
                log.append("main")
            }
            """
        #expect(
            try compile(source).swift6Rejections == [
                "var 'log' is the main actor's, and the onTermination handler (a @Sendable closure, off the main actor) uses it (line 8)"
            ])
    }

    /// A cancel reads whether the stream its task awaits has ended, so every search
    /// orders it with `finish()`: who ends the stream (and so which word the handler
    /// gets) is counted alike. A stream `finish()` ended is not ended again.
    @Test func aCancelIsOrderedWithTheFinishItComesAfter() throws {
        let source = """
            var kind = ""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let t = Task {
                for await v in stream { }
            }
            task P {
                continuation.onTermination = { x in
                    kind = x
                }
                continuation.finish()
            }
            task C {
                t.cancel()
            }
            """
        try ConcurrencyTests.agree(source, ["kind = \"\": 84", "kind = \"cancelled\": 276", "kind = \"finished\": 486"])
        // While finish()'s handler runs, the consumer still waits: the cancel ends nothing.
        let run = try RaceLabEngineTests.run(source, schedule: "task P P P C")
        #expect(lines(run)[3..<5] == ["P writes kind = \"finished\"", "C cancels task"])
    }

    /// A stream made in a task's code, its elements objects: each is the consumer's
    /// once taken, whoever drops the stream.
    @Test func aStreamMadeInCodeCarriesObjects() throws {
        let source = """
            class Box {
                var v = 0
            }
            var got = 0
            task A {
                let (s, c) = AsyncStream.makeStream(of: Box.self)
                spawn producer {
                    c.yield(Box(v: 7))
                    c.finish()
                }
                for await b in s {
                    got = got + b.v
                }
            }
            """
        try ConcurrencyTests.agree(source, ["got = 7: 84"])
        #expect(firstDiagnostic("task A {\n    let (s, c) = makeStream()\n}") == "2:18: only AsyncStream.makeStream(…) gives two values here")
    }
}
