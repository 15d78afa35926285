import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Structured concurrency (issue 33): task groups and `async let`. A group's `next()`
/// gives results in the order children finish; a scope never ends before its
/// children; cancellation reaches structured children only. Every search agrees.
struct StructuredConcurrencyTests {
    static let sum = """
        var total = 0
        var order: [Int] = []
        func fetch(n) async -> Int {
            return n * 10
        }
        task A {
            let sum = await withTaskGroup(of: Int.self) { group in
                group.addTask { return await fetch(1) }
                group.addTask { return await fetch(2) }
                var s = 0
                for await value in group {
                    order.append(value)
                    s += value
                }
                return s
            }
            total = sum
        }
        expect total == 30, "both children's results are summed"
        """

    @Test func aGroupGivesResultsInTheOrderChildrenFinish() throws {
        let run = try RaceLabEngineTests.run(Self.sum, schedule: "A A A child#2 A child A A A A A A")
        #expect(
            lines(run) == [
                "A makes task group TaskGroup#1",
                "A adds child task child to TaskGroup#1",
                "A adds child task child#2 to TaskGroup#1",
                "child#2 finishes, its value 20",
                "A gets child#2's result from TaskGroup#1: 20",
                "child finishes, its value 10",
                "A calls order.append(20): now [20]",
                "A gets child's result from TaskGroup#1: 10",
                "A calls order.append(10): now [20, 10]",
                "A finds no child of TaskGroup#1 left: its loop ends",
                "A finds every child of TaskGroup#1 finished",
                "A releases the last reference to child, which is deallocated",
                "A releases the last reference to child#2, which is deallocated",
                "A writes total = 30",
                "A finishes",
            ])
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(Self.sum, search, reduction)
            #expect(result.findingKinds.isEmpty, "\(search) \(reduction)")
            #expect(ConcurrencyTests.histogram(result) == ["total = 30, order = [10, 20]: 12", "total = 30, order = [20, 10]: 8"], "\(search) \(reduction)")
        }
    }

    /// The group's body ends only when every child has: `for await` is not needed
    /// for that, and the results nobody took are dropped.
    @Test func aGroupWaitsForItsChildrenAtItsEnd() throws {
        let source = """
            var shown = 0
            var done = false
            task A {
                let w = await withTaskGroup(of: Int.self) { group in
                    group.addTask {
                        done = true
                        return 7
                    }
                    return 9
                }
                shown = w
            }
            expect done, "the child ran before the group ended"
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A A A child child A A A")
        #expect(
            lines(run) == [
                "A makes task group TaskGroup#1",
                "A adds child task child to TaskGroup#1",
                "A waits for every child of TaskGroup#1 to finish (child still running)",
                "child writes done = true",
                "child finishes, its value 7",
                "A finds every child of TaskGroup#1 finished; results nobody took are dropped: child's 7",
                "A releases the last reference to child, which is deallocated",
                "A writes shown = 9",
                "A finishes",
            ])
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            #expect(result.findingKinds.isEmpty, "\(search) \(reduction)")
            #expect(ConcurrencyTests.histogram(result).count == 1, "\(search) \(reduction)")
        }
    }

    static let cancelled = """
        var seen: [String] = []
        func load(name) async -> String {
            if Task.isCancelled {
                return name + " cancelled"
            }
            return name
        }
        task A {
            await withTaskGroup(of: String.self) { group in
                group.addTask { return await load("x") }
                group.cancelAll()
                group.addTask { return await load("y") }
                for await r in group {
                    seen.append(r)
                }
            }
        }
        """

    /// `cancelAll()` cancels the children running, and a child added afterwards
    /// starts cancelled.
    @Test func cancelAllReachesEveryChildLaterOnesToo() throws {
        let run = try RaceLabEngineTests.run(Self.cancelled)
        #expect(lines(run)[3] == "A cancels TaskGroup#1 and its running children: child")
        #expect(lines(run)[5] == "A adds child task child#2 to TaskGroup#1; the group is cancelled, so it starts cancelled")
        try ConcurrencyTests.agree(
            Self.cancelled,
            [
                "seen = [\"x cancelled\", \"y cancelled\"]: 104", "seen = [\"x\", \"y cancelled\"]: 52",
                "seen = [\"y cancelled\", \"x cancelled\"]: 74", "seen = [\"y cancelled\", \"x\"]: 12",
            ])
    }

    /// Cancelling a task cancels its group's children (structured), not a task it
    /// started with `Task { }` (unstructured).
    @Test func cancellationReachesStructuredChildrenOnly() throws {
        let source = """
            var seen: [String] = []
            func load(name) async -> String {
                if Task.isCancelled {
                    return name + " cancelled"
                }
                return name
            }
            task A {
                let t = Task.detached {
                    await withTaskGroup(of: String.self) { group in
                        group.addTask { return await load("child") }
                        let other = Task.detached { return await load("detached") }
                        let r = await group.next()
                        seen.append(r)
                        seen.append(await other.value)
                    }
                }
                t.cancel()
            }
            """
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            let states = result.outcomes.map(\.outcome.state).sorted()
            #expect(states.contains("seen = [\"child cancelled\", \"detached\"]"), "\(search) \(reduction)")
            #expect(!states.contains { $0.contains("detached cancelled") }, "\(search) \(reduction)")
        }
    }

    static let leftRunning = """
        var log: [String] = []
        func load(name) async -> String {
            if Task.isCancelled {
                return "cancelled"
            }
            return name
        }
        task B {
            async let lost = load("c")
            log.append("left")
        }
        """

    /// SE-0317: leaving the scope of an `async let` that was never awaited cancels its
    /// child and waits for it.
    @Test func anAsyncLetLeftRunningIsCancelledAndAwaited() throws {
        let run = try RaceLabEngineTests.run(Self.leftRunning, schedule: "B B B B lost lost B B")
        #expect(
            lines(run) == [
                "B starts child task lost (async let)",
                "B calls log.append(\"left\"): now [\"left\"]",
                "B leaves the scope of async let lost while it runs: cancels it",
                "B leaves the scope of async let lost: awaits it, as Swift does",
                "lost reads Task.isCancelled: true",
                "lost finishes, its value \"cancelled\"",
                "B resumes: lost has finished, so its async let's scope ends",
                "B finishes and releases lost",
                "B releases the last reference to lost, which is deallocated",
            ])
        try ConcurrencyTests.agree(Self.leftRunning, ["log = [\"left\"]: 10"])
    }

    /// An `async let` awaited in a loop, left by `break`, and a `return` with one in
    /// scope: each child is awaited once, and its handle released.
    @Test func asyncLetsEndWithTheirScopes() throws {
        let source = """
            var log: [Int] = []
            func f(n) async -> Int {
                return n
            }
            func g() async -> Int {
                async let a = f(1)
                for i in 0..<3 {
                    async let b = f(i)
                    if i == 1 {
                        break
                    }
                    log.append(await b)
                }
                return await a + 4
            }
            task A {
                log.append(await g())
            }
            expect log == [0, 5], "each child once"
            """
        for (search, reduction) in ConcurrencyTests.searches {
            let result = try ConcurrencyTests.explore(source, search, reduction)
            #expect(result.findingKinds.isEmpty, "\(search) \(reduction)")
            #expect(ConcurrencyTests.histogram(result) == ["log = [0, 5]: 90"], "\(search) \(reduction)")
        }
    }

    @Test(arguments: [
        (
            "thread A {\n    async let x = 1\n}\n",
            "2:5: 'async let' in code that cannot suspend: a thread, a synchronous function or a queue's block is not async"
        ),
        (
            "task A {\n    async let x = 1\n    let y = x\n}\n",
            "3:13: reading 'async let x' may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "task A {\n    async let x = 1\n    let t = Task { return await x }\n}\n",
            "3:33: 'async let x' cannot be captured by a closure: read it first (let value = await x) and use that"
        ),
        (
            "task A {\n    await withTaskGroup(of: Int.self) { group in\n        let v = group.next()\n    }\n}\n",
            "3:17: a task group's next() may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        ("task A {\n    await withTaskGroup(of: Int.self) { }\n}\n", "2:11: write withTaskGroup(of: Int.self) { group in … }"),
    ])
    func swiftsRulesAreChecked(source: String, expected: String) throws {
        #expect(firstDiagnostic(source) == expected)
    }
}
