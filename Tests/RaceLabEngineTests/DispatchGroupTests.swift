import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Barriers on concurrent queues and dispatch groups (issue 20, part 2): their steps,
/// their sentences, the order they make and the blocking they cause.
struct BarrierTests {
    /// Readers and a writer on one concurrent queue: the writer is a barrier.
    static let readersWriter = """
        let cache = DispatchQueue(label: "cache", attributes: .concurrent)
        var value = 0
        var seen = [0]
        thread main {
            cache.async { seen.append(value) }
            cache.async(flags: .barrier) { value = 1 }
            cache.async { seen.append(value) }
        }
        expect seen == [0, 0, 1], "the first reader sees the old value, the second the new"
        """

    @Test func aBarrierWaitsForTheBlocksBeforeItAndHoldsBackTheBlocksAfter() throws {
        let run = try RaceLabEngineTests.run(Self.readersWriter, schedule: "main main main cache#1 cache#1 cache#1 cache#2 cache#2")
        #expect(
            lines(run).prefix(9) == [
                "main sends a block to cache with async (it runs as cache#1); operation cache#1 starts on thread cache#1",
                "main sends a barrier block to cache with async (it runs as cache#2)",
                // Not started: the barrier is in the way.
                "main sends a block to cache with async (it runs as cache#3)",
                "cache#1 reads value: 0", "cache#1 calls seen.append(0): now [0, 0]", "cache#1 finishes operation cache#1",
                "cache#1 releases the last reference to cache#1, which is deallocated; operation cache#2 starts on thread cache#2",
                "cache#2 writes value = 1",
                "cache#2 finishes operation cache#2",
            ])
        #expect(lines(run)[9] == "cache#2 releases the last reference to cache#2, which is deallocated; operation cache#3 starts on thread cache#3")
    }

    @Test func barrierWritesAreProvenAndPlainOnesRace() throws {
        #expect(try provenCountsAcrossSearches(compile(Self.readersWriter)) == ["5 18", "18 18", "1 18"])
        let plain = Explorer(program: try compile(Self.readersWriter.replacingOccurrences(of: "(flags: .barrier)", with: ""))).explore()
        #expect(plain.verdict() == .fails)
        #expect(
            plain.dataRaces.map { "\($0.first.thread) \($0.first.kind) \($0.second.thread) \($0.second.kind)" } == [
                "cache#1 read cache#2 write", "cache#2 write cache#3 read", "cache#1 write cache#3 write",
            ])
    }

    @Test func aBarrierOnAGlobalQueueIsAnOrdinaryBlock() throws {
        let source = """
            var value = 0
            thread main {
                let q = DispatchQueue.global()
                q.async { value += 1 }
                q.async(flags: .barrier) { value += 1 }
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(
            lines(run).filter { $0.contains("barrier") }
                == [
                    "main sends a barrier block to global with async (it runs as global#2); a barrier on a global queue is an ordinary block; operation global#2 starts on thread global#2"
                ])
        #expect(!Explorer(program: try compile(source)).explore().dataRaces.isEmpty)
    }

    @Test func misspelledFlagsAndLabelsAreDiagnosed() throws {
        for (source, message) in [
            ("let q = DispatchQueue(label: \"q\")\nthread A { q.async(flags: .serial) { } }", "a dispatch block's flags can be .barrier"),
            (
                "let q = DispatchQueue(label: \"q\")\nthread A { q.async(after: 1) { } }",
                "write async { … }, async(group: g) { … } or async(flags: .barrier) { … }"
            ),
            ("let g = DispatchGroup()\nthread A { g.notify { } }", "write group.notify(queue: q) { … }"),
            ("let g = DispatchGroup()\nthread A { g.enter(now: 1) }", "'enter' takes no argument labelled 'now'"),
        ] {
            let error = #expect(throws: ScriptError.self) { try compile(source) }
            #expect(error?.diagnostics.map(\.message) == [message], "\(source)")
        }
    }
}

struct DispatchGroupTests {
    /// Two workers join a group; main waits for both, then reads what they wrote.
    static let join = """
        let group = DispatchGroup()
        let workers = DispatchQueue(label: "workers", attributes: .concurrent)
        var a = 0
        var b = 0
        var total = 0
        thread main {
            workers.async(group: group) { a = 1 }
            workers.async(group: group) { b = 2 }
            group.wait()
            total = a + b
        }
        expect total == 3, "main reads both results after the wait"
        """

    @Test func waitBlocksUntilTheLastBlockLeaves() throws {
        let run = try RaceLabEngineTests.run(Self.join, schedule: "main main main workers#1 workers#1 workers#2 workers#2 main")
        #expect(
            lines(run).prefix(9) == [
                "main sends a block to workers with async (it runs as workers#1), entering group; operation workers#1 starts on thread workers#1",
                "main sends a block to workers with async (it runs as workers#2), entering group; operation workers#2 starts on thread workers#2",
                "main waits on group (2 still in it): it blocks",
                "workers#1 writes a = 1", "workers#1 finishes operation workers#1; it leaves group (1 still in it)",
                "workers#1 releases the last reference to workers#1, which is deallocated",
                "workers#2 writes b = 2", "workers#2 finishes operation workers#2; it leaves group, the last one in it: main can go on",
                "workers#2 releases the last reference to workers#2, which is deallocated",
            ])
        #expect(lines(run)[9] == "main is woken: everything in group has left")
        #expect(try provenCountsAcrossSearches(compile(Self.join)) == ["8 45", "45 45", "1 45"])
    }

    @Test func readingWithoutTheWaitIsARace() throws {
        let result = Explorer(program: try compile(Self.join.replacingOccurrences(of: "group.wait()", with: ""))).explore()
        #expect(result.verdict() == .fails)
        #expect(result.dataRaces.map { "\($0.first.thread) \($0.second.thread)" } == ["main workers#1", "main workers#2"])
    }

    @Test func enterAndLeaveByHandAndANotification() throws {
        let source = """
            let group = DispatchGroup()
            var total = 0
            var printed = 0
            thread main {
                group.enter()
                DispatchQueue.global().async {
                    total += 1
                    group.leave()
                }
                group.notify(queue: DispatchQueue.main) { printed = total }
            }
            expect printed == 1, "the notification runs after the work"
            """
        let run = try RaceLabEngineTests.run(source, schedule: "main main main main global#1 global#1 global#1 main")
        #expect(
            lines(run) == [
                "main enters group (1 in it now)", "main creates concurrent dispatch queue global",
                "main sends a block to global with async (it runs as global#1); operation global#1 starts on thread global#1",
                "main asks group to send a block to the main queue once it is empty",
                "global#1 reads total: 0", "global#1 writes total = 1",
                "global#1 leaves group, the last one in it; the notification block goes to the main queue",
                "main takes the next block from the main queue (sent by global#1) and runs it",
                "main reads total: 1", "main writes printed = 1", "main finishes the main-queue block",
                "global#1 finishes operation global#1", "global#1 releases the last reference to global#1, which is deallocated",
            ])
        #expect(try provenCountsAcrossSearches(compile(source)) == ["2 21", "21 21", "1 21"])
        let late = try RaceLabEngineTests.run("let g = DispatchGroup()\nvar x = 0\nthread main { g.notify(queue: DispatchQueue.main) { x = 1 } }")
        #expect(lines(late).first == "main asks g to notify the main queue, and it is empty already; the notification block goes to the main queue")
        #expect(late.world.globals[1] == .int(1))
    }

    @Test func leavingMoreThanEnteredCrashes() throws {
        let run = try RaceLabEngineTests.run("let g = DispatchGroup()\nthread A { g.enter(); g.leave(); g.leave() }")
        #expect(run.findings.map(\.kind) == [.crash])
        #expect(run.findings.map(\.message) == ["g.leave() without a matching enter(): an unbalanced leave crashes the program"])
    }

    @Test func waitingOnMainForWorkThatNeedsMainIsADeadlock() throws {
        let source = """
            let jobs = DispatchGroup()
            var done = false
            thread main {
                DispatchQueue.global().async(group: jobs) {
                    DispatchQueue.main.sync { done = true }
                }
                jobs.wait()
            }
            """
        let result = Explorer(program: try compile(source)).explore()
        #expect(result.verdict() == .fails)
        let run = try RaceLabEngineTests.run(source)
        #expect(
            run.findings.map(\.message) == [
                "a wait-for cycle: main waits on group jobs: 1 unit of work has entered it and not left (running on global#1); global#1 waits in main.sync for main to run its block"
            ])
    }

    @Test func aWaitThatTimesOutAtOnce() throws {
        let run = try RaceLabEngineTests.run(
            "let g = DispatchGroup()\nthread A { if g.wait(timeout: .now()) == .success { g.enter() }; if g.wait(timeout: .now()) == .timedOut { g.leave() } }")
        #expect(
            lines(run).filter { $0.contains("checks") } == [
                "A checks g (a wait that times out at once): nothing is left in it, so .success",
                "A checks g (a wait that times out at once): work is still in it, so .timedOut",
            ])
        #expect(run.end == .completed)
    }
}
