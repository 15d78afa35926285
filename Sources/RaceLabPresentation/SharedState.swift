import RaceLabEngine

/// The shared state of a world in lines, as step mode and the lesson page show it:
/// the variables, the objects, each lock (who holds it, who waits), semaphores,
/// groups, queues, the main queue, who is inside each critical section, and what was
/// printed. Each line is a label and its items, which a screen wraps as it can.
public enum SharedState {
    public struct Line: Equatable, Sendable {
        /// "objects: ", "main queue: ", or "" for a line of variables or one item.
        public var label: String
        public var items: [String]

        init(_ label: String, _ items: [String]) {
            self.label = label
            self.items = items
        }

        /// A line of one item and no label.
        init(_ text: String) {
            self.init("", [text])
        }

        /// The line as one text: the label, then the items joined by commas.
        public var text: String { label + items.joined(separator: ", ") }
    }

    public static func lines(_ world: World, _ program: Program) -> [Line] {
        var lines: [Line] = []
        let formatter = ValueFormatter(world: world)
        let variables = program.globals.indices.filter { index in
            if case .object(let id) = world.globals[index], world.heap[id].classIndex == nil, world.heap[id].kind != .atomic { return false }
            return true
        }
        if !variables.isEmpty {
            lines.append(Line("", variables.map { "\(program.globals[$0].name) = \(formatter.describe(world.globals[$0]))" }))
        }
        let objects = formatter.objects
        if !objects.isEmpty { lines.append(Line("objects: ", objects)) }
        for id in world.heap.indices where Self.isLock(world, id) {
            let object = world.heap[id]
            var kind = "lock"
            if case .condition = object.kind { kind = "condition" }
            var text = "\(kind) \(object.name): "
            let monitor = world.headers[id]
            if let owner = monitor.owner {
                text += "held by \(world.threadNames[owner])" + (monitor.depth > 1 ? " (\(monitor.depth) times)" : "")
            } else {
                text += "free"
            }
            let waiters = world.threads.indices.filter { thread in
                if case .lock(id, _) = world.threads[thread].waiting, !world.threads[thread].isFinished { return true }
                return false
            }
            if !waiters.isEmpty { text += "; waiting: " + waiters.map { world.threadNames[$0] }.joined(separator: ", ") }
            if case .condition(let signalled) = object.kind, !signalled.isEmpty {
                text += "; waiting for a signal: " + signalled.map { world.threadNames[$0] }.joined(separator: ", ")
            }
            lines.append(Line(text))
        }
        for id in world.heap.indices where world.headers[id].isAlive {
            switch world.heap[id].kind {
            case .semaphore(let count):
                var text = "semaphore \(world.heap[id].name): count \(count)"
                let waiters = world.threads.indices.filter { world.threads[$0].waiting == .semaphore(id) }
                if !waiters.isEmpty { text += "; waiting: " + waiters.map { world.threadNames[$0] }.joined(separator: ", ") }
                lines.append(Line(text))
            case .group(let group):
                var text = "group \(world.heap[id].name): \(group.entered) in it"
                let waiters = world.threads.indices.filter { world.threads[$0].waiting == .group(id) }
                if !waiters.isEmpty { text += "; waiting: " + waiters.map { world.threadNames[$0] }.joined(separator: ", ") }
                if !group.notifications.isEmpty { text += "; \(group.notifications.count) to notify" }
                lines.append(Line(text))
            default:
                continue
            }
        }
        lines += concurrencyLines(world, program)
        for queue in world.queues {
            guard case .queue(let state) = world.heap[queue].kind else { continue }
            let limit = state.maxConcurrent < 0 ? "no limit" : "max \(state.maxConcurrent) at a time"
            var text = "queue \(world.heap[queue].name) (\(limit)\(state.isSuspended ? ", suspended" : "")): "
            text += state.operations.isEmpty ? "empty" : state.operations.map { Self.operationText(world, $0) }.joined(separator: ", ")
            lines.append(Line(text))
        }
        if world.mainQueue.isEmpty {
            lines.append(Line("main queue: empty"))
        } else {
            let blocks = world.mainQueue.map { block -> String in
                let sync = world.threads[block.sender].waiting == .mainBlock(block.id)
                return "block \(block.id) from \(world.threadNames[block.sender]) (\(sync ? "main.sync" : "main.async"))"
            }
            lines.append(Line("main queue: ", blocks))
        }
        // Who is inside each critical section (a section no one has entered is left out).
        for (index, inside) in world.criticalInside.enumerated() where index < program.criticalSections.count {
            let who = inside.isEmpty ? "no one" : inside.map { world.threadNames[$0] }.joined(separator: ", ")
            lines.append(Line("\(program.sectionName(index)): \(who) inside"))
        }
        if !world.output.isEmpty {
            lines.append(Line("printed: " + world.output.suffix(3).joined(separator: " | ")))
        }
        return lines
    }

    /// Each actor (who holds it, who waits in its mailbox), task (what it does), task
    /// group (its children, whose results wait) and stream (its buffer, whether it has
    /// finished, who waits): Swift concurrency's state, for step mode, the lesson page
    /// and the timeline's footer.
    public static func concurrencyLines(_ world: World, _ program: Program) -> [Line] {
        var lines: [Line] = []
        for id in world.heap.indices where world.headers[id].isAlive {
            switch world.heap[id].kind {
            case .actor:
                guard let actor = ActorLane.standing(world, id) else { continue }
                lines.append(Line("actor \(world.heap[id].name): " + actor.text(world.threadNames)))
            case .task(let task):
                lines.append(Line("task \(world.heap[id].name): " + Self.taskText(world, task, program)))
            case .taskGroup(let group) where !group.children.isEmpty:
                var text = "task group \(world.heap[id].name): "
                let children = group.children.map { child -> String in
                    let finished = world.heap[child].taskState?.isFinished ?? true
                    return world.heap[child].name + (group.finished.contains(child) ? " (result waiting)" : finished ? " (taken)" : " (running)")
                }
                text += children.joined(separator: ", ")
                if group.isCancelled { text += "; cancelled" }
                lines.append(Line(text))
            case .stream(let stream):
                var text =
                    "stream \(world.heap[id].name): "
                    + (stream.buffer.isEmpty ? "nothing buffered" : "buffered " + world.describe(.array(ArrayValue(stream.buffer))))
                if stream.isFinished { text += "; finished" }
                if !stream.waiting.isEmpty { text += "; waiting: " + stream.waiting.map { world.threadNames[$0] }.joined(separator: ", ") }
                lines.append(Line(text))
            default:
                continue
            }
        }
        return lines
    }

    /// What a task is doing, as Instruments' task states say it: running, enqueued
    /// (waiting for its actor), suspended (on what), ready (what it waited for is
    /// there: its next step resumes it), finished (with its value).
    static func taskText(_ world: World, _ task: TaskState, _ program: Program) -> String {
        let thread = world.threads[task.thread]
        var text: String
        // An actor handed to it says so below; any other wait that is over, here.
        var waitsForActor = false
        if case .actor? = thread.waiting { waitsForActor = true }
        if task.isFinished {
            text = "finished" + (task.value == .none ? "" : ", value \(world.describe(task.value))")
        } else if thread.waiting != nil, !waitsForActor, Engine(program: program).isRunnable(world, task.thread) {
            text = "ready: what it was suspended on is there, so its next step resumes it"
        } else {
            switch thread.waiting {
            case .actor(let actor) where world.headers[actor].owner == task.thread:
                text = "ready: \(world.heap[actor].name) was handed to it"
            case .actor(let actor): text = "enqueued on \(world.heap[actor].name)"
            case .task(let other): text = "suspended, awaiting \(world.heap[other].name)"
            case .continuation(let id): text = "suspended on continuation \(world.heap[id].name)"
            case .stream(let id): text = "suspended in for await on \(world.heap[id].name)"
            case .taskGroup(let id, let all):
                text =
                    all
                    ? "suspended at the end of \(world.heap[id].name)'s body, awaiting its children" : "suspended, awaiting a child of \(world.heap[id].name)"
            case .pool: text = "waiting for a thread of the cooperative pool"
            case .sleep: text = "sleeping until the clock reads \(Engine.duration(thread.sleepsUntil ?? world.clock))"
            case nil:
                let on = thread.executor.map { world.heap[$0].name } ?? "the global executor"
                text = thread.executor.map { world.headers[$0].owner == task.thread } ?? true ? "running on \(on)" : "ready to enqueue on \(on)"
            default: text = "blocked"
            }
        }
        let priority = program.usesTaskPriorities && !task.isFinished ? ", priority \(task.priority.name)" : ""
        return text + priority + (task.isCancelled ? ", cancelled" : "")
    }

    static func isLock(_ world: World, _ id: ObjectID) -> Bool {
        switch world.heap[id].kind {
        case .lock, .condition: return world.headers[id].isAlive
        case .actor: return false
        default: break
        }
        return world.headers[id].owner != nil
    }

    static func operationText(_ world: World, _ id: ObjectID) -> String {
        guard case .operation(let op) = world.heap[id].kind else { return world.heap[id].name }
        var phase: String
        switch op.phase {
        case .created: phase = "created"
        case .pending: phase = "waiting"
        case .executing: phase = "executing"
        case .finished: phase = "finished"
        }
        if op.isCancelled { phase += ", cancelled" }
        return "\(world.heap[id].name) (\(phase))"
    }
}
