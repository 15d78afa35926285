import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Errors and time (issue 33): `throws`, `try`, `try?`, `do`/`catch`, cancellation
/// that throws, throwing continuations and groups, and `Task.sleep` on the virtual
/// clock. Every search agrees.
struct ThrowsTests {
    static let timeout = """
        class Timeout {
        }
        var log: [String] = []
        func fetch(n) async throws -> Int {
            if n == 0 {
                throw Timeout()
            }
            try Task.checkCancellation()
            return n
        }
        task A {
            do {
                let v = try await fetch(0)
                log.append("got")
            } catch is Timeout {
                log.append("timeout")
            } catch {
                log.append("other")
            }
            let w = try? await fetch(2)
            log.append("w")
        }
        expect log == ["timeout", "w"], "the first fetch times out"
        """

    @Test func anErrorGoesToTheCatchThatTakesIt() throws {
        let run = try RaceLabEngineTests.run(Self.timeout)
        #expect(
            lines(run) == [
                "A creates Timeout#1",
                "A throws Timeout#1 out of fetch",
                "A calls log.append(\"timeout\"): now [\"timeout\"]",
                "A discards Timeout#1, which was never stored, so it is deallocated",
                "A checks for cancellation: not cancelled",
                "A calls log.append(\"w\"): now [\"timeout\", \"w\"]",
                "A finishes",
            ])
        try ConcurrencyTests.agree(Self.timeout, ["log = [\"timeout\", \"w\"]: 1"])
    }

    /// A task's error comes back through `try await t.value`; without `try` the read
    /// is refused at run time (Swift would not compile it); main's uncaught error
    /// crashes, as top-level code does.
    @Test func aTasksErrorIsThrownWhereItsValueIsRead() throws {
        let caught = """
            class Failure {
            }
            var got = 0
            task A {
                let t = Task {
                    throw Failure()
                }
                do {
                    got = try await t.value
                } catch is Failure {
                    got = -1
                }
            }
            expect got == -1, "the task's error reaches A"
            """
        try ConcurrencyTests.agree(caught, ["got = -1: 3"])
        let unchecked = try RaceLabEngineTests.run(
            caught.replacingOccurrences(of: "try await t.value", with: "await t.value").replacingOccurrences(of: "do {", with: "if true {")
                .replacingOccurrences(of: "} catch is Failure {", with: "} else {"))
        #expect(unchecked.findings.map(\.message) == ["task threw Failure#1: read it with 'try await', in a do { } catch { } or a throwing function"])
        let top = try RaceLabEngineTests.run("class Failure {\n}\nmain {\n    throw Failure()\n}\n")
        #expect(top.end == .crashed)
        #expect(top.findings.map(\.message) == ["Fatal error: Error raised at top level: Failure#1"])
    }

    /// An actor's method that throws: the error leaves the actor and reaches the
    /// caller's catch; the call is marked `try`, as any throwing call.
    @Test func anActorsThrowingMethodThrowsToItsCaller() throws {
        let source = """
            class Failure {
            }
            actor Door {
                var opens = 0
                func open(ok) throws {
                    if !ok {
                        throw Failure()
                    }
                    opens += 1
                }
            }
            let door = Door()
            var log: [String] = []
            task A {
                do {
                    try await door.open(false)
                    log.append("opened")
                } catch {
                    log.append("refused")
                }
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(lines(run)[2] == "A throws Failure#1 out of Door.open: leaves door; runs on the global concurrent executor")
        try ConcurrencyTests.agree(source, ["log = [\"refused\"], door.opens = 0: 1"])
        #expect(
            firstDiagnostic(source.replacingOccurrences(of: "try await door.open", with: "await door.open"))
                == "16:15: a call to 'open' can throw: write 'try' before it (Swift: call can throw but is not marked with 'try')")
    }

    /// SE-0304: a throwing group's body that throws cancels the children left and
    /// waits for them; the error goes on to the catch.
    @Test func aThrowingGroupPassesItsChildsErrorOn() throws {
        let source = """
            class Failure {
            }
            var log: [String] = []
            func fetch(n) async throws -> Int {
                if n == 2 {
                    throw Failure()
                }
                return n
            }
            task A {
                do {
                    let sum = try await withThrowingTaskGroup(of: Int.self) { group in
                        group.addTask { return try await fetch(1) }
                        group.addTask { return try await fetch(2) }
                        let a = try await group.next()
                        let b = try await group.next()
                        return a + b
                    }
                    log.append("sum")
                } catch is Failure {
                    log.append("failed")
                }
            }
            expect log == ["failed"], "the second child's error reaches A"
            """
        try ConcurrencyTests.agree(source, ["log = [\"failed\"]: 76"])
    }

    /// The clock moves only when a sleeper wakes, the earliest first; and sleeping is
    /// no synchronization: what each does after it still races.
    @Test func sleepersWakeInTheOrderOfTheirDeadlines() throws {
        let source = """
            var log: [String] = []
            task A {
                try await Task.sleep(for: .seconds(2))
                log.append("A")
            }
            task B {
                try await Task.sleep(for: .milliseconds(1000))
                log.append("B")
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A B B A B A")
        #expect(
            lines(run).prefix(6) == [
                "A sleeps for 2 s: until the clock reads 2 s",
                "B sleeps for 1 s: until the clock reads 1 s",
                "B wakes: the clock reads 1 s",
                "A wakes: the clock reads 2 s",
                "B calls log.append(\"B\"): now [\"B\"]",
                "A calls log.append(\"A\"): now [\"B\", \"A\"]",
            ])
        do {
            _ = try RaceLabEngineTests.run(source, schedule: "A B A")
            Issue.record("A woke before B")
        } catch {
            #expect("\(error)".contains("which cannot run then: A sleeps until the clock reads 2 s (it reads 0 ms)"))
        }
        try ConcurrencyTests.agree(source, ["log = [\"A\", \"B\"]: 21", "log = [\"B\", \"A\"]: 29"])
        let result = try ConcurrencyTests.explore(source, .stateless, .dpor)
        #expect(result.dataRaces.count == 1)
    }

    /// A cancelled sleep throws `CancellationError` at once, or wakes early.
    @Test func cancellingASleeperWakesItWithAnError() throws {
        let source = """
            var log: [String] = []
            task A {
                let t = Task {
                    do {
                        try await Task.sleep(for: .seconds(5))
                        log.append("slept")
                    } catch is CancellationError {
                        log.append("cancelled")
                    }
                }
                t.cancel()
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A task A task")
        #expect(lines(run)[3] == "task wakes early: it was cancelled, so Task.sleep throws CancellationError")
        try ConcurrencyTests.agree(source, ["log = [\"cancelled\"]: 10", "log = [\"slept\"]: 6"])
    }

    @Test(arguments: [
        (
            "func f() throws {\n}\ntask A {\n    f()\n}\n",
            "4:5: a call to 'f' can throw: write 'try' before it (Swift: call can throw but is not marked with 'try')"
        ),
        (
            "class E {\n}\nfunc f() {\n    throw E()\n}\n",
            "4:5: an error thrown here is not handled: catch it with do { … } catch { … }, or mark the function 'throws' (a task's closure and main's code may throw)"
        ),
        (
            "thread A {\n    try Task.checkCancellation()\n}\n",
            "2:5: an error that 'try' passes on here is not handled: catch it with do { … } catch { … }, or mark the function 'throws' (a task's closure and main's code may throw)"
        ),
        (
            "task A {\n    await Task.sleep(for: .seconds(1))\n}\n",
            "2:11: Task.sleep can throw: write 'try' before it (Swift: call can throw but is not marked with 'try')"
        ),
        ("task A {\n    try await Task.sleep(for: 1)\n}\n", "2:31: write Task.sleep(for: .seconds(1)), .milliseconds(n), or Task.sleep(nanoseconds: n)"),
    ])
    func swiftsRulesAreChecked(source: String, expected: String) throws {
        #expect(firstDiagnostic(source) == expected)
    }
}
