import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Priorities and the strict-priority scheduler (issue 20, part 5): who may run, the
/// inversion it allows, priority inheritance, and the searches under it.
struct PriorityTests {
    static let inversion = """
        scheduling "strict priority"
        let bus = NSLock()
        let wake = DispatchSemaphore(value: 0)
        atomic var done = false
        var late = false
        thread low {
            Thread.current.qualityOfService = .background
            bus.lock()
            wake.signal()
            wake.signal()
            bus.unlock()
        }
        thread medium {
            wake.wait()
            work(2)
            late = !done
        }
        thread high {
            Thread.current.qualityOfService = .userInteractive
            wake.wait()
            bus.lock()
            done = true
            bus.unlock()
        }
        expect !late, "high gets the bus before medium's work ends"
        """

    @Test func theHighestPriorityRunsAndMediumOutranksTheHolder() throws {
        let run = try RaceLabEngineTests.run(Self.inversion)
        #expect(
            lines(run) == [
                "high waits on wake (count 0): it blocks", "medium waits on wake (count 0): it blocks", "low locks bus",
                "low signals wake (count now 1): a waiting thread can go on", "high is woken and takes one from wake (count now 0)",
                "high blocks on bus, held by low", "low signals wake (count now 1): a waiting thread can go on",
                "medium is woken and takes one from wake (count now 0)", "medium works (1 more step of work to go)", "medium works",
                "medium reads done atomically: false", "medium writes late = true", "medium finishes",
                "low unlocks bus; this wakes high", "low finishes", "high locks bus (it was woken: bus is free)",
                "high writes done = true atomically", "high unlocks bus", "high finishes",
            ])
        #expect(run.findings.map(\.kind) == [.expectation])
    }

    @Test func inheritanceLetsTheHolderRunAtTheWaitersPriority() throws {
        let fixed = try compile(Self.inversion.replacingOccurrences(of: "NSLock()", with: "OSAllocatedUnfairLock()"))
        var scheduler = RoundRobinScheduler()
        let run = try Runner(program: fixed).run(&scheduler)
        #expect(
            Array(lines(run)[5...8]) == [
                "high blocks on bus, held by low", "low signals wake (count now 1): a waiting thread can go on", "low unlocks bus; this wakes high",
                "low finishes",
            ])
        #expect(run.findings.isEmpty)
        // One schedule is all the scheduler allows, and every search agrees.
        for search in [ExploreConfig.Search.stateless, .stateful] {
            var config = ExploreConfig()
            config.search = search
            let broken = Explorer(program: try compile(Self.inversion), config: config).explore()
            let proven = Explorer(program: fixed, config: config).explore()
            #expect(broken.verdict() == .fails && proven.verdict() == .proven, "\(search)")
            #expect(broken.interleavings.isOne && proven.interleavings.isOne, "\(search)")
            #expect(broken.reduction == .none || search == .stateful, "DPOR's reduction is off under strict priority")
        }
    }

    @Test func withoutTheSchedulerPrioritiesChangeNothing() throws {
        var program = try compile(Self.inversion.replacingOccurrences(of: "scheduling \"strict priority\"\n", with: ""))
        #expect(!program.strictPriority)
        let every = Explorer(program: program).explore()
        #expect(every.verdict() == .fails)
        #expect(every.interleavings.description == "29775")
        program.strictPriority = true
        #expect(Explorer(program: program).explore().interleavings.isOne)
    }

    @Test func aThreadOutrankedIsRefusedWithTheReason() throws {
        var session = StepSession(program: try compile(Self.inversion))
        let low = session.world.thread(named: "low")!
        #expect(throws: StepSession.Refusal.self) { try session.step(low) }
        do {
            try session.step(low)
        } catch {
            #expect(
                error.message
                    == "low can't run now: it is ready, but high runs first: its priority is 4, this thread's 0, and a strict-priority scheduler always runs the highest"
            )
        }
    }

    @Test func anOperationsQualityOfServiceIsItsThreadsPriority() throws {
        let run = try RaceLabEngineTests.run(
            "let q = OperationQueue()\nmain {\n    let op = Operation(name: \"x\") { op in }\n    op.qualityOfService = .utility\n    q.addOperation(op)\n}")
        #expect(lines(run)[1] == "main sets the quality of service of x to utility")
        #expect(run.world.threads[run.world.thread(named: "x")!].priority == 1)
    }

    @Test func badPrioritiesAreDiagnosed() throws {
        for (source, message) in [
            (
                "thread A { Thread.current.qualityOfService = .urgent }",
                "'.urgent' is not known here: timeouts are .now() and .distantFuture, wait results .success and .timedOut, queue priorities .veryLow to .veryHigh, qualities of service .background to .userInteractive"
            ),
            ("scheduling \"fair\"\nthread A { }", "scheduling is \"strict priority\" (or leave it out: any interleaving)"),
            ("thread A { Thread.current.qualityOfService += 1 }", "write Thread.current.qualityOfService = .userInteractive"),
        ] {
            let error = #expect(throws: ScriptError.self) { try compile(source) }
            #expect(error?.diagnostics.first?.message == message, "\(source)")
        }
        let run = try RaceLabEngineTests.run("thread A { Thread.current.qualityOfService = 7 }")
        #expect(run.findings.map(\.message) == ["a quality of service is .background, .utility, .default, .userInitiated or .userInteractive"])
    }
}
