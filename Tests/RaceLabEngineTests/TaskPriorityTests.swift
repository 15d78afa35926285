import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Tasks' priorities (issue 33's mailboxes): an actor runs its waiting jobs by
/// priority band, in the order they came within one; the main actor first come, first
/// served; a task awaiting another of a lower priority escalates it.
struct TaskPriorityTests {
    static let log = """
        actor Log {
            var entries: [String] = []
            func add(e) {
                entries.append(e)
            }
        }
        let log = Log()
        task first {
            await log.add("first")
        }

        """

    /// A high job overtakes a low one waiting in the mailbox; every search agrees.
    @Test func anActorRunsHigherPrioritiesFirst() throws {
        let source =
            Self.log + """
                main {
                    Task.detached(priority: .low) { await log.add("low") }
                    Task.detached(priority: .high) { await log.add("high") }
                }
                """
        let run = try RaceLabEngineTests.run(source, schedule: "first main task main task#2 first")
        #expect(
            Array(lines(run).prefix(8)) == [
                "first calls Log.add: runs on log",
                "first calls log.entries.append(\"first\"): now [\"first\"]",
                "main starts task task (priority low)",
                "task calls Log.add: enqueues on log, which first holds: waits in its mailbox",
                "main starts task task#2 (priority high)",
                "task#2 calls Log.add: enqueues on log, which first holds: waits in its mailbox (2 waiting); its priority, high, puts it ahead of task",
                "first returns from Log.add: leaves log, which goes to task#2, first in its mailbox; runs on the global concurrent executor",
                "first finishes",
            ])
        try ConcurrencyTests.agree(
            source,
            [
                "log.entries = [\"first\", \"high\", \"low\"]: 892", "log.entries = [\"first\", \"low\", \"high\"]: 1613",
                "log.entries = [\"high\", \"first\", \"low\"]: 208", "log.entries = [\"high\", \"low\", \"first\"]: 152",
                "log.entries = [\"low\", \"first\", \"high\"]: 784", "log.entries = [\"low\", \"high\", \"first\"]: 512",
            ])
    }

    /// Awaiting a background task from a high one escalates it: its job waiting on the
    /// actor moves ahead of a low one.
    @Test func awaitingEscalatesATaskAndMovesItsJob() throws {
        let source =
            Self.log + """
                main {
                    let t = Task.detached(priority: .background) {
                        await log.add("background")
                    }
                    Task.detached(priority: .low) { await log.add("low") }
                    let w = Task(priority: .high) {
                        await t.value
                    }
                }
                """
        let run = try RaceLabEngineTests.run(source, schedule: "first main task main task#2 main main task#3 task#3 first")
        #expect(
            Array(lines(run)[8...11]) == [
                "task#3 starts: runs on MainActor",
                "task#3 awaits task's value: task has not finished, so it suspends, and escalates task from background to high (it moves up in log's mailbox); leaves MainActor",
                "first returns from Log.add: leaves log, which goes to task, first in its mailbox; runs on the global concurrent executor",
                "first finishes",
            ])
        var outcomes: [Set<String>] = []
        for (search, reduction) in [(ExploreConfig.Search.stateless, ExploreConfig.Reduction.dpor), (.stateful, .dpor)] {
            let exploration = try ConcurrencyTests.explore(source, search, reduction)
            #expect(exploration.isExhaustive)
            outcomes.append(Set(exploration.outcomes.map(\.outcome.state)))
        }
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[0].count == 6)
    }

    /// The main actor's queue is the main dispatch queue: first come, first served.
    @Test func theMainActorServesJobsInTheOrderTheyCame() throws {
        let source = """
            var order: [String] = []
            main {
                Task(priority: .low) { order.append("low") }
                Task(priority: .high) { order.append("high") }
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(lines(run)[4] == "main finishes its code; leaves MainActor, which goes to task, first in its mailbox")
        #expect(run.world.describe(run.world.globals[0]) == "[\"low\", \"high\"]")
    }

    /// A task made without a priority takes its maker's; a detached one is medium; a
    /// child is its parent's unless given one.
    @Test func aTaskInheritsItsMakersPriority() throws {
        let source = """
            main {
                let t = Task(priority: .low) {
                    let inner = Task { }
                    let free = Task.detached { }
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { }
                        group.addTask(priority: .high) { }
                    }
                }
            }
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(
            lines(run).filter { $0.contains("starts task") || $0.contains("adds child") } == [
                "main starts task task (priority low) for MainActor (it enqueues there when it first runs)",
                "task starts task task#2 (priority low) for MainActor (it enqueues there when it first runs)",
                "task starts task task#3 (priority medium)",
                "task adds child task child (priority low) to TaskGroup#1",
                "task adds child task child#2 (priority high) to TaskGroup#1",
            ])
        let priorities = run.world.heap.compactMap { $0.taskState.map { "\($0.priority.name)" } }
        #expect(priorities == ["low", "low", "medium", "low", "high"])
    }

    @Test func aPriorityIsOneOfSwifts() {
        #expect(
            firstDiagnostic("main {\n    Task(priority: .hgih) { }\n}")
                == "2:20: a task's priority is one of Swift's: Task(priority: .high) { … }, or .high, .medium, .low, .background, .userInitiated or .utility")
        #expect(
            firstDiagnostic("main {\n    Task(priority: .high, name: \"x\") { }\n}")
                == "2:33: the name comes before the priority, as in Swift: Task(name: \"tap\", priority: .high) { … }")
        #expect(
            firstDiagnostic("main {\n    Task.detached(priority: 3) { }\n}")?.hasPrefix("2:29: a task's priority is one of Swift's: Task.detached(priority:")
                == true)
    }
}
