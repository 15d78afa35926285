import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

struct EngineTests {
    @Test func countPlusEqualsIsAReadThenAWrite() throws {
        let source = "var count = 0\nthread A { count += 1 }\nthread B { count += 1 }\nexpect count == 2, \"no lost update\""
        let result = try run(source, schedule: "A B A B")
        #expect(
            lines(result) == [
                "A reads count: 0", "B reads count: 0", "A writes count = 1", "A finishes", "B writes count = 1", "B finishes",
            ])
        #expect(result.findings.map(\.kind) == [.expectation])
    }

    /// Every step copies the thread table: a thread is its frames, its wait, three
    /// flags and one reference for what few threads use, which stays nil until set
    /// and is dropped from equality when back at its defaults.
    @Test func aThreadIsAFewWords() {
        #expect(MemoryLayout<ThreadState>.stride <= 48)
        var thread = ThreadState(frames: [])
        let plain = thread
        thread.spin = nil
        thread.priority = 2
        #expect(thread == plain, "setting a default makes no box")
        thread.task = 7
        #expect(thread != plain && thread.task == 7)
        var copy = thread
        copy.task = nil
        #expect(thread.task == 7, "the box is copied before a write, never shared")
        #expect(copy == plain && copy.hashValue == plain.hashValue, "a box of defaults is no box")
    }

    @Test func replayingAPrintedScheduleGivesTheSameRun() throws {
        let scenario = try Shipped.scenario("singleton-race")
        let runner = Runner(program: scenario.versions[0].program)
        var seed: UInt64 = 0
        var failing: Run?
        while failing == nil && seed < 500 {
            var random = RandomScheduler(seed: seed)
            let result = try runner.run(&random)
            if result.failed { failing = result }
            seed += 1
        }
        let original = try #require(failing)
        var replay = try FixedScheduler(original.schedule.text, limit: 10_000)
        let again = try runner.run(&replay)
        #expect(again.events == original.events)
        #expect(again.findings == original.findings)
    }

    @Test func impossibleSchedulesAreReported() throws {
        let source = "let l = Lock()\nthread A { l.lock() }\nthread B { l.lock() }"
        #expect(throws: ScheduleError.self) { try run(source, schedule: "A C") }
        #expect(throws: ScheduleError.self) { try run(source, schedule: "A B B") }
        #expect(throws: ScheduleError.self) { try FixedScheduler("A*x", limit: 10_000) }
    }

    @Test func aRunawayLoopIsStopped() throws {
        let result = try run("thread A { var i = 0\n while true { i += 1 } }")
        #expect(result.findings.map(\.kind) == [.runaway])
        let spinning = try run("var x = 0\nthread A { while true { x += 1 } }")
        #expect(spinning.findings.map(\.kind) == [.stepLimit])
    }

    @Test func crashesAreFindings() throws {
        #expect(
            try run("var a = [1]\nthread A { let x = a[3] }").findings.first?.message
                == "index out of range: a[3], but a has 1 element")
        #expect(
            try run("var a: Int? = nil\nthread A { let x = a! }").findings.first?.message
                == "unexpectedly found nil while unwrapping an optional")
        #expect(try run("thread A { let x = 1 / 0 }").findings.first?.kind == .crash)
    }

    @Test func deadlockNamesTheCycle() throws {
        let result = try run(try String(contentsOf: Shipped.scenariosFolder.appendingPathComponent("deadlock.race"), encoding: .utf8), schedule: "A B A B")
        #expect(result.end == .deadlocked)
        #expect(
            result.findings.first?.message
                == "a wait-for cycle: A holds lock1 and waits for lock2, held by B; B holds lock2 and waits for lock1, held by A")
    }

    @Test func deinitRunsOnTheReleasingThread() throws {
        let result = try run(
            try String(contentsOf: Shipped.scenariosFolder.appendingPathComponent("dealloc-wrong-thread.race"), encoding: .utf8),
            schedule: "main main worker worker main main main worker worker")
        #expect(result.findings.map(\.kind) == [.mainThread])
        #expect(lines(result).last == "worker releases the last reference to ViewController#1, which is deallocated on worker, not on main")
    }

    /// A thread whose ending releases the last reference runs the deinit before it
    /// is finished: the deinit was pushed on a finished thread and never ran, so the
    /// object stayed alive at count 0 and `alive() == 0` failed.
    @Test func aDeinitAtTheEndOfAThreadRuns() throws {
        let result = try run(
            """
            class Box {
                var v = 0
                deinit { print("gone") }
            }
            main {
                let box = Box()
                spawn worker {
                    box.v = 1
                }
            }
            expect alive(Box) == 0, "the box is freed"
            """, schedule: "main main main worker worker worker worker")
        #expect(
            lines(result) == [
                "main creates Box#1", "main starts thread worker", "main finishes its code and releases Box#1", "worker writes Box#1.v = 1",
                "worker finishes and releases Box#1", "worker releases the last reference to Box#1, which is deallocated; its deinit runs on worker",
                "worker prints \"gone\"", "worker finishes the deinit of Box#1",
            ])
        #expect(result.expectations.map(\.passed) == [true])
        #expect(result.world.output == ["worker: gone"])
    }
}

struct CompilerDiagnosticTests {
    @Test func mainAsyncWithoutAClosureIsReported() {
        #expect(throws: ScriptError.self) { try compile("thread A { main.async(1) }") }
        do {
            _ = try compile("thread A { main.async(1) }")
        } catch let error as ScriptError {
            #expect(error.diagnostics.map(\.message) == ["main.async takes one closure: main.async { … }"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
