import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Swift concurrency (issue 33): tasks, actors, `await`, the main actor, a task's
/// value and cancellation. An actor runs one job at a time, a job ends at each
/// suspension, and every search agrees on what follows.
struct ConcurrencyTests {
    /// The migration guide's island: a read and a store, each a hop, from two tasks.
    static let island = """
        actor Island {
            var food = 0
            func store(amount) {
                food = amount
            }
        }
        let island = Island()
        task A {
            var food = await island.food
            food += 1
            await island.store(food)
        }
        task B {
            var food = await island.food
            food += 1
            await island.store(food)
        }
        expect island.food == 2, "both deposits land"
        """

    static let searches: [(ExploreConfig.Search, ExploreConfig.Reduction)] = [(.stateless, .dpor), (.stateless, .none), (.stateful, .dpor)]

    static func explore(_ source: String, _ search: ExploreConfig.Search, _ reduction: ExploreConfig.Reduction) throws -> Exploration {
        var config = ExploreConfig()
        config.search = search
        config.reduction = reduction
        return Explorer(program: try compile(source), config: config).explore()
    }

    /// Every search gives these outcomes, with these interleavings.
    static func agree(_ source: String, _ expected: [String]) throws {
        for (search, reduction) in searches {
            let result = try explore(source, search, reduction)
            #expect(histogram(result) == expected, "\(search) \(reduction)")
        }
    }

    /// Each outcome's state and interleavings, in a fixed order.
    static func histogram(_ result: Exploration) -> [String] {
        result.outcomes.map { "\($0.outcome.state): \($0.interleavings)" }.sorted()
    }

    @Test func anActorsStateIsReadAndWrittenInItsJobs() throws {
        let run = try RaceLabEngineTests.run(Self.island, schedule: "A B A B A")
        #expect(
            lines(run) == [
                "A hops to island to read its state: runs on island",
                "A reads island.food: 0",
                "B hops to island to read its state: enqueues on island, which A holds: waits in its mailbox",
                "A hops back: leaves island, which goes to B, first in its mailbox; runs on the global concurrent executor",
                "B resumes: runs on island: its turn",
                "B reads island.food: 0",
                "A calls Island.store: enqueues on island, which B holds: waits in its mailbox",
                "B hops back: leaves island, which goes to A, first in its mailbox; runs on the global concurrent executor",
                "B calls Island.store: enqueues on island, which A holds: waits in its mailbox",
                "A resumes: runs on island: its turn",
                "A writes island.food = 1",
                "A returns from Island.store: leaves island, which goes to B, first in its mailbox; runs on the global concurrent executor",
                "A finishes",
                "B resumes: runs on island: its turn",
                "B writes island.food = 1",
                "B returns from Island.store: leaves island; runs on the global concurrent executor",
                "B finishes",
            ])
    }

    /// A read and a store are two jobs: another task's store can fall between them.
    @Test func everySearchLosesTheSameUpdate() throws {
        for (search, reduction) in Self.searches {
            let result = try Self.explore(Self.island, search, reduction)
            #expect(Self.histogram(result) == ["island.food = 1: 136", "island.food = 2: 24"], "\(search) \(reduction)")
            #expect(result.verdict() == .fails, "\(search) \(reduction)")
            #expect(result.dataRaces.isEmpty, "\(search) \(reduction)")
        }
    }

    /// The image cache: the await of a nonisolated call leaves the actor (SE-0338),
    /// so a second caller finds the cache empty too.
    static let cache = """
        actor Server {
            var downloads = 0
            func fetch(url) -> Int {
                downloads += 1
                return 7
            }
        }
        actor Cache {
            var images: [String: Int] = [:]
            var pending = [:]
            func image(url) async -> Int {
                if images[url] != nil {
                    return images[url]!
                }
                let image = await server.fetch(url)
                images[url] = image
                return image
            }
            func shared(url) async -> Int {
                if pending[url] == nil {
                    pending[url] = Task(name: "download") {
                        return await server.fetch(url)
                    }
                }
                return await pending[url]!.value
            }
        }
        let server = Server()
        let cache = Cache()
        task A {
            let image = await cache.METHOD("cat")
        }
        task B {
            let image = await cache.METHOD("cat")
        }
        expect server.downloads == 1, "one download"
        """

    @Test func anAwaitInsideAnActorLetsAnotherJobIn() throws {
        let source = Self.cache.replacingOccurrences(of: "METHOD", with: "image")
        for (search, reduction) in Self.searches {
            let result = try Self.explore(source, search, reduction)
            #expect(
                Self.histogram(result) == [
                    "server.downloads = 1, cache.images = [\"cat\": 7], cache.pending = [:]: 16",
                    "server.downloads = 2, cache.images = [\"cat\": 7], cache.pending = [:]: 124",
                ], "\(search) \(reduction)")
        }
    }

    /// Keeping the in-flight task before the first await: the second caller awaits it.
    @Test func anInFlightTaskIsDownloadedOnce() throws {
        let source = Self.cache.replacingOccurrences(of: "METHOD", with: "shared")
        for (search, reduction) in Self.searches where reduction == .none || search == .stateful {
            let result = try Self.explore(source, search, reduction)
            #expect(
                Self.histogram(result) == ["server.downloads = 1, cache.images = [:], cache.pending = [\"cat\": download]: 1760"],
                "\(search) \(reduction)")
            #expect(result.verdict() == .proven, "\(search) \(reduction)")
        }
        let dpor = try Self.explore(source, .stateless, .dpor)
        #expect(dpor.verdict() == .proven && dpor.dataRaces.isEmpty)
    }

    /// A job that awaits a detached task's value leaves the actor; the other caller's
    /// job may take it, and the first job's resumption (woken by the task's end, which
    /// the other job's steps leave alone) then waits in the mailbox behind it. DPOR
    /// once skipped that order, taking the resumption for one woken by the other
    /// job's leaving: 22 of the 60 traces, 1,615 interleavings.
    @Test func aJobWokenByATasksValueQueuesBehindAnotherJob() throws {
        let source = """
            actor Cache {
                var hits = 0
                func get(n) async -> Int {
                    let t = Task.detached { return n }
                    let v = await t.value
                    return v
                }
            }
            let cache = Cache()
            task A { let x = await cache.get(1) }
            task B { let y = await cache.get(2) }
            """
        try Self.agree(source, ["cache.hits = 0: 4446"])
        #expect(try Self.explore(source, .stateless, .dpor).executions == 60)
        // With a job on each side of the await: 46 of the 156 traces, 1,618 interleavings.
        // DPOR's count of these is a lower bound (counting's allowance runs out).
        let both = source.replacingOccurrences(of: "let v = await t.value", with: "hits += 1\n        let v = await t.value\n        hits += 10")
        for (search, reduction) in Self.searches where reduction == .none || search == .stateful {
            #expect(try Self.histogram(Self.explore(both, search, reduction)) == ["cache.hits = 22: 4446"], "\(search) \(reduction)")
        }
        #expect(try Self.explore(both, .stateless, .dpor).executions == 156)
    }

    static let order = """
        var order: [String] = []
        main {
            Task { @MainActor in
                order.append("first")
            }
            Task { @MainActor in
                order.append("second")
            }
        }
        expect order == ["first", "second"], "creation order"
        """

    /// `Task { @MainActor in }` is enqueued as it is made: the runtime runs the main
    /// actor's jobs in that order. `mailbox "any"` drops the promise, as SE-0306 does.
    @Test func theMailboxKeepsEnqueueOrderUnlessToldOtherwise() throws {
        for (search, reduction) in Self.searches {
            let fifo = try Self.explore(Self.order, search, reduction)
            #expect(Self.histogram(fifo) == ["order = [\"first\", \"second\"]: 1"], "\(search) \(reduction)")
            let any = try Self.explore("mailbox \"any\"\n" + Self.order, search, reduction)
            #expect(Self.histogram(any) == ["order = [\"first\", \"second\"]: 1", "order = [\"second\", \"first\"]: 1"], "\(search) \(reduction)")
        }
    }

    /// Implicitly isolated tasks enqueue at their first step: either may start first.
    @Test func implicitlyIsolatedTasksStartInEitherOrder() throws {
        let source = Self.order.replacingOccurrences(of: "@MainActor in", with: "")
        for (search, reduction) in Self.searches {
            let result = try Self.explore(source, search, reduction)
            #expect(Self.histogram(result) == ["order = [\"first\", \"second\"]: 13", "order = [\"second\", \"first\"]: 8"], "\(search) \(reduction)")
        }
    }

    /// Awaiting a task's value suspends main and leaves the main actor, so the task
    /// (isolated to it) can run: no deadlock.
    @Test func awaitingAValueLeavesTheActor() throws {
        let run = try RaceLabEngineTests.run(
            """
            var seen = 0
            main {
                let t = Task { @MainActor in
                    return 7
                }
                seen = await t.value
            }
            """)
        #expect(
            lines(run) == [
                "main starts task task; it enqueues on MainActor, which main holds: waits in its mailbox",
                "main awaits task's value: task has not finished, so it suspends; leaves MainActor, which goes to task, first in its mailbox",
                "task starts: runs on MainActor: its turn",
                "task finishes, its value 7; leaves MainActor",
                "main resumes: runs on MainActor",
                "main gets task's value: 7",
                "main writes seen = 7",
                "main finishes its code and releases task; leaves MainActor",
                "main releases the last reference to task, which is deallocated",
            ])
        #expect(run.end == .completed)
    }

    /// A semaphore wait blocks main and keeps the main actor: the task that would
    /// signal waits in its mailbox for ever (the semaphore bridge).
    @Test func blockingOnTheMainActorDeadlocks() throws {
        let run = try RaceLabEngineTests.run(
            """
            main {
                let done = DispatchSemaphore(value: 0)
                Task { @MainActor in
                    done.signal()
                }
                done.wait()
            }
            """)
        #expect(run.end == .deadlocked)
        #expect(
            run.findings.map(\.message) == [
                "every thread left is blocked: main waits on semaphore Semaphore#1 (count 0); no other thread can run to signal it; task is enqueued on MainActor, which main holds"
            ])
    }

    /// Cancelling is a flag: a task that never reads it commits a stale answer; one
    /// that checks after its await does not.
    static func taps(checking: Bool) -> String {
        """
        var fact = 0
        var current: Task? = nil
        func fetch(n) async -> Int {
            if n == 1 {
                await Task.yield()
            }
            return n * 10
        }
        @MainActor func tap(n) {
            if current != nil {
                current!.cancel()
            }
            current = Task {
                let answer = await fetch(n)
                if \(checking ? "!Task.isCancelled" : "true") {
                    fact = answer
                }
            }
        }
        main {
            tap(1)
            tap(2)
        }
        expect fact == 20, "the screen shows the last tap's answer"
        """
    }

    @Test func cancellationIsOnlyAFlag() throws {
        for (search, reduction) in Self.searches {
            let ignored = try Self.explore(Self.taps(checking: false), search, reduction)
            #expect(ignored.verdict() == .fails, "\(search) \(reduction)")
            #expect(Set(ignored.outcomes.map(\.outcome.state)) == ["fact = 10, current = task#2", "fact = 20, current = task#2"], "\(search) \(reduction)")
            let checked = try Self.explore(Self.taps(checking: true), search, reduction)
            #expect(checked.verdict() == .proven, "\(search) \(reduction)")
            #expect(checked.dataRaces.isEmpty, "\(search) \(reduction)")
        }
    }

    /// Swift's rules, in RaceLab's words.
    @Test(arguments: [
        (
            "func f() async -> Int {\n    return 1\n}\nmain {\n    let x = f()\n}\n",
            "5:13: a call to async function 'f' may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "actor A {\n    var n = 0\n    func bump() {\n        n += 1\n    }\n}\nlet a = A()\ntask T {\n    a.bump()\n}\n",
            "9:5: a call to an actor's method 'bump' may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "actor A {\n    var n = 0\n}\nlet a = A()\ntask T {\n    let m = a.n\n}\n",
            "6:13: reading an actor's 'n' from outside it may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "actor A {\n    var n = 0\n}\nlet a = A()\nthread T {\n    let m = await a.n\n}\n",
            "6:13: 'await' in code that cannot suspend: a thread, a synchronous function or a queue's block is not async; start a Task { } or mark the function 'async'"
        ),
        (
            "main {\n    Task.wait(1)\n}\n",
            "2:5: Task has 'detached { }', 'yield()', 'isCancelled', 'checkCancellation()' and 'sleep(for:)' here, not 'wait'"
        ),
        (
            "actor A {\n    var items: [Int] = []\n}\nlet a = A()\ntask T {\n    a.items.append(5)\n}\n",
            "6:5: cannot change 'items' from outside A: an actor's state changes only in its own methods; call one with 'await'"
        ),
        (
            "actor A {\n    var n = 0\n}\nlet a = A()\ntask T {\n    a.n += 1\n}\n",
            "6:5: cannot change 'n' from outside A: an actor's state changes only in its own methods; call one with 'await'"
        ),
        ("main {\n    spawn w { @MainActor in\n        work()\n    }\n}\n", "2:13: '@MainActor in' marks a task's closure: Task { @MainActor in … }"),
        (
            "mailbox \"fifo\"\nmain {\n}\n",
            "1:1: mailbox is \"any\" (an actor runs its waiting jobs in any order, as SE-0306 allows) or \"enqueue order\" (the runtime's, and leaving it out)"
        ),
        (
            "main {\n    let t = Task(priority: .urgent) {\n        work()\n    }\n}\n",
            "2:28: a task's priority is one of Swift's: Task(priority: .high) { … }, or .high, .medium, .low, .background, .userInitiated or .utility"
        ),
    ])
    func swiftsRulesAreChecked(source: String, expected: String) throws {
        #expect(firstDiagnostic(source) == expected)
    }

    /// `Task.isCancelled` is Swift's static property: synchronous code asks it too, and
    /// reads the running task's flag (false outside any task).
    @Test func synchronousCodeAsksTaskIsCancelled() throws {
        let source = """
            actor Acc {
                var seen = 0
                func check() {
                    if Task.isCancelled {
                        seen = 1
                    }
                }
            }
            let acc = Acc()
            var plain = 0
            func ask() {
                if Task.isCancelled {
                    plain = 1
                }
            }
            thread T {
                ask()
            }
            main {
                let t = Task.detached {
                    await acc.check()
                }
                t.cancel()
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "T main main")
        #expect(
            lines(run) == [
                "T reads Task.isCancelled: false (it is not a task)", "T finishes", "main starts task task", "main cancels task",
                "main finishes its code and releases task", "task calls Acc.check: runs on acc", "task reads Task.isCancelled: true",
                "task writes acc.seen = 1", "task returns from Acc.check: leaves acc; runs on the global concurrent executor", "task finishes",
                "task releases the last reference to task, which is deallocated",
            ])
        try Self.agree(source, ["plain = 0, acc.seen = 0: 48", "plain = 0, acc.seen = 1: 72"])
    }
}
