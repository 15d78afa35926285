import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// The rest of the Operation API (issue 20, part 4): asynchronous operations that
/// finish when their code says so, start(), block operations, key-value observers of
/// isFinished, queue priorities, removeDependency and OperationQueue.main.
struct OperationAPITests {
    /// A download that finishes when its background work is done; show depends on it.
    static let download = """
        let queue = OperationQueue()
        var result = 0
        var shown = 0
        main {
            let download = Operation(name: "download", isAsynchronous: true) { op in
                DispatchQueue.global().async {
                    result = 42
                    op.finish()
                }
            }
            let show = Operation(name: "show") { op in shown = result }
            show.addDependency(download)
            queue.addOperation(download)
            queue.addOperation(show)
            queue.waitUntilAllOperationsAreFinished()
        }
        expect shown == 42, "show runs after the download"
        """

    @Test func anAsynchronousOperationFinishesWhenItSaysSo() throws {
        let run = try RaceLabEngineTests.run(Self.download, schedule: "main main main main download download download main main global#1 global#1")
        #expect(
            Array(lines(run)[4...10]) == [
                "download creates concurrent dispatch queue global",
                "download sends a block to global with async (it runs as global#1); operation global#1 starts on thread global#1",
                "download finishes its code and releases download, but operation download is asynchronous: it is still executing until it is told it has finished (finish())",
                "main adds operation show to queue",
                "main waits for every operation in queue to finish",
                "global#1 writes result = 42",
                "global#1 calls download.finish(): operation download has finished; operation show starts on thread show",
            ])
        #expect(try provenCountsAcrossSearches(compile(Self.download)) == ["48 2044", "2044 2044", "3 2044"])
    }

    @Test func finishingWhenStartReturnsLetsTheDependentReadTooSoon() throws {
        let early = Self.download.replacingOccurrences(of: ", isAsynchronous: true", with: "").replacingOccurrences(
            of: "        op.finish()\n", with: "")
        let result = Explorer(program: try compile(early)).explore()
        #expect(result.verdict() == .fails)
        #expect(result.outcomes.map { "\($0.outcome.state) \($0.interleavings)" } == ["result = 42, shown = 42 437", "result = 42, shown = 0 378"])
        #expect(result.dataRaces.map { "\($0.target) \($0.first.thread) \($0.second.thread)" } == ["result global#1 show"])
    }

    @Test func anOperationThatNeverFinishesLeavesItsDependentsWaiting() throws {
        let never = Self.download.replacingOccurrences(of: "        op.finish()\n", with: "")
        let run = try RaceLabEngineTests.run(never)
        #expect(
            run.findings.map(\.message) == [
                "every thread left is blocked: main waits for every operation of queue to finish, but operation download is asynchronous and its code has returned without calling finish(), so it never finishes; operation show waits for download to finish"
            ])
    }

    @Test func startBlockOperationsObserversPrioritiesAndTheMainQueue() throws {
        let source = """
            let queue = OperationQueue(maxConcurrentOperationCount: 1)
            var order = [0]
            var observed = 0
            main {
                queue.isSuspended = true
                let low = Operation(name: "low") { op in order.append(1) }
                let high = Operation(name: "high") { op in order.append(2) }
                high.queuePriority = .veryHigh
                let blocks = BlockOperation { order.append(3) }
                blocks.addExecutionBlock { order.append(4) }
                blocks.addObserver(forKeyPath: "isFinished") { observed = 1 }
                queue.addOperation(low)
                queue.addOperation(high)
                queue.addOperation(blocks)
                queue.isSuspended = false
                queue.waitUntilAllOperationsAreFinished()
                let solo = Operation(name: "solo") { op in order.append(5) }
                solo.start()
                OperationQueue.main.addOperation { order.append(6) }
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(run.world.describe(run.world.globals[1]) == "[0, 2, 1, 3, 4, 5, 6]")
        let text = lines(run)
        // The highest priority first; then both blocks, each on its thread; the
        // observer on the thread that finished the operation.
        #expect(text.contains("main resumes queue; operation high starts on thread high"))
        #expect(
            text.contains(
                "low finishes operation low and releases low; operation op#1 starts on thread op#1; a further block of op#1 starts on thread op#1#2"))
        #expect(text.contains("op#1 finishes its code: 1 more block of operation op#1 still running"))
        #expect(text.contains("op#1#2 finishes operation op#1; isFinished of op#1 changes, so its observer runs on this thread, op#1#2"))
        #expect(text.contains("op#1#2 writes observed = 1"))
        #expect(text.contains("main calls solo.start(): it runs the operation here, on its own thread"))
        #expect(text.contains("main returns from solo.start() and releases solo: operation solo finishes"))
    }

    @Test func anOperationNamedBeforeItRunsGivesItsThreadTheName() throws {
        let run = try RaceLabEngineTests.run(
            "let q = OperationQueue()\nmain {\n    let op = Operation { op in }\n    op.name = \"fetch\"\n    q.addOperation(op)\n}")
        #expect(Array(lines(run)[1...2]) == ["main names operation op#1 \"fetch\"", "main adds operation fetch to q; operation fetch starts on thread fetch"])
    }

    @Test func removeDependencyLetsAnOperationStart() throws {
        let source = """
            let queue = OperationQueue()
            var done = 0
            main {
                let first = Operation(name: "first") { op in done = 1 }
                let second = Operation(name: "second") { op in done = 2 }
                second.addDependency(first)
                queue.addOperation(second)
                second.removeDependency(first)
                queue.waitUntilAllOperationsAreFinished()
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(lines(run)[4] == "main makes second no longer depend on first; operation second starts on thread second")
        #expect(run.world.globals[1] == .int(2))
        #expect(run.end == .completed)
    }

    @Test func misuseIsAFindingOrADiagnostic() throws {
        for (body, message) in [
            (
                "let op = Operation(name: \"x\") { op in }\n    op.finish()",
                "x.finish(): only an asynchronous operation (Operation(isAsynchronous: true)) says when it is finished; this one finishes when its code returns"
            ),
            (
                "let op = Operation(name: \"x\") { op in }\n    op.isFinished = true",
                "x.isFinished = true: only an asynchronous operation (Operation(isAsynchronous: true)) says when it is finished; this one finishes when its code returns"
            ),
            (
                "let op = Operation(name: \"x\", isAsynchronous: true) { op in }\n    op.finish()",
                "x.finish(): the operation is not executing (it has not started)"
            ),
            (
                "let op = Operation(name: \"x\") { op in }\n    op.start()\n    op.start()",
                "x.start(): the operation is in a queue or has started already, and Foundation raises an exception"
            ),
            (
                "let op = Operation(name: \"x\") { op in }\n    op.queuePriority = 9",
                "queuePriority is .veryLow, .low, .normal, .high or .veryHigh (-8 to 8), not 9"
            ),
            (
                "let op = Operation(name: \"x\") { op in }\n    op.addObserver(forKeyPath: \"isExecuting\") { }",
                "only isFinished can be observed here: op.addObserver(forKeyPath: \"isFinished\") { … }"
            ),
        ] {
            let run = try RaceLabEngineTests.run("main {\n    \(body)\n}")
            #expect(run.findings.map(\.message) == [message], "\(body)")
        }
        let error = #expect(throws: ScriptError.self) { try compile("main { let op = Operation(name: \"x\", async: true) { op in } }") }
        #expect(error?.diagnostics.map(\.message) == ["unexpected argument label 'async'"])
    }
}
