/// Structured concurrency (SE-0304, SE-0317): task groups and `async let`.
///
/// A child is a task like any other (a thread of the world with a handle) that runs on
/// the global executor, and that its parent's cancellation reaches
/// (`TaskState.children`). A group keeps its children's handles until it ends;
/// `next()` gives their results in the order they finished. The scope that made a
/// child never ends before it: a group's body waits for every child at its end, and
/// leaving an `async let`'s scope cancels a child still running and awaits it.
extension Machine {
    func groupState(_ id: ObjectID) -> TaskGroupState? {
        if case .taskGroup(let group) = world.heap[id].kind { return group }
        return nil
    }

    /// The group on the stack `depth` down, if the running thread may use it: its own,
    /// inside its body. Else a runtime error (Swift does not let a group escape its
    /// `withTaskGroup`, nor other tasks use it), and nil.
    mutating func usableGroup(_ depth: Int, _ what: String) -> (id: ObjectID, state: TaskGroupState)? {
        guard case .object(let id) = peek(depth), let group = groupState(id) else {
            fail(.type("\(what) is a task group's: \(describe(peek(depth))) is not one"))
            return nil
        }
        let name = world.heap[id].name
        guard group.owner == thread else {
            fail(
                .type(
                    "\(name) belongs to \(world.threadNames[group.owner]): only the task that made a group uses it, inside its withTaskGroup (Swift does not let it escape)"
                ))
            return nil
        }
        guard group.isOpen else {
            fail(.type("\(name)'s withTaskGroup has ended: a group is used only inside its body (Swift does not let it escape)"))
            return nil
        }
        return (id, group)
    }

    /// `withTaskGroup`: a new group, for its body.
    mutating func makeGroup() {
        let id = newObject(.taskGroup(TaskGroupState(owner: thread)), classIndex: nil, typeName: "TaskGroup")
        push(.object(id))
        advance()
        emit("makes task group \(world.heap[id].name)", Access(.operation(id), .write))
    }

    /// A new child of the running task (if it is one) on the global executor, at
    /// `priority` or its parent's: created cancelled when its parent (or its group)
    /// is cancelled already, as Swift's are.
    mutating func startChild(_ closure: ClosureValue, name: String, group: ObjectID?, priority: JobPriority? = nil) -> ObjectID {
        let handle = createTask(closure, on: nil, name: name, priority: priority ?? currentPriority)
        var child = taskState(handle)!
        child.group = group
        if let parent = state.task, var task = taskState(parent) {
            task.children.append(handle)
            world.heap[parent].kind = .task(task)
            // It inherits its parent's cancellation, and joins its children: both
            // a cancel() meanwhile would see otherwise.
            child.isCancelled = task.isCancelled
            touch(.operation(parent), .write)
        }
        if let group, var members = groupState(group) {
            members.children.append(handle)
            // The group keeps it until it ends: `next()` reads its result.
            retain(.object(handle))
            child.isCancelled = child.isCancelled || members.isCancelled
            world.heap[group].kind = .taskGroup(members)
        }
        world.heap[handle].kind = .task(child)
        return handle
    }

    /// `group.addTask { }`.
    mutating func addChild(name: String, priority: JobPriority?) {
        guard case .closure(let closure) = peek(), let group = usableGroup(1, "addTask { }")?.id else { return }
        frame.slots.removeLast(2)
        let handle = startChild(closure, name: name, group: group, priority: priority)
        push(.none)
        advance()
        let cancelled =
            !taskState(handle)!.isCancelled
            ? "" : groupState(group)!.isCancelled ? "; the group is cancelled, so it starts cancelled" : "; this task is cancelled, so it starts cancelled"
        emit(
            "adds child task \(world.heap[handle].name)\(priorityWords(handle).map { " (\($0))" } ?? "") to \(world.heap[group].name)\(cancelled)",
            [Access(.operation(group), .write), Access(.operation(handle), .write)])
    }

    /// `async let x = …`: the child, whose handle the scope keeps.
    mutating func startAsyncLet(name: String) {
        guard case .closure(let closure) = pop() else { return }
        let handle = startChild(closure, name: name, group: nil)
        push(.object(handle))
        advance()
        let cancelled = taskState(handle)!.isCancelled ? "; this task is cancelled, so it starts cancelled" : ""
        emit(
            "starts child task \(world.heap[handle].name) (async let\(priorityWords(handle).map { ", " + $0 } ?? ""))\(cancelled)",
            Access(.operation(handle), .write))
    }

    /// `await group.next()`, and `for await` over a group (`loop`: it pushes whether
    /// there was a result too).
    mutating func groupNext(loop: Bool) {
        guard let found = usableGroup(0, "next()") else { return }
        let id = found.id
        var group = found.state
        let name = world.heap[id].name
        if !group.finished.isEmpty {
            let child = group.finished.removeFirst()
            world.heap[id].kind = .taskGroup(group)
            let value = taskState(child)?.value ?? .none
            _ = pop()
            state.waiting = nil
            if taskState(child)?.didThrow == true, loop {
                fail(.type("\(world.heap[child].name) threw \(describe(value)): take a throwing group's results with 'try await group.next()'"))
                return
            }
            if taskState(child)?.didThrow == true {
                guard deliverError(value, from: world.heap[child].name) else { return }
                advance()
                emit("gets \(world.heap[child].name)'s result from \(name): it threw \(describe(value)), so this throws it", Access(.operation(id), .write))
                return
            }
            push(value)
            if loop { push(.bool(true)) }
            advance()
            emit("gets \(world.heap[child].name)'s result from \(name): \(describe(value))", Access(.operation(id), .write))
        } else if !group.children.contains(where: world.isRunningTask) {
            _ = pop()
            push(.none)
            if loop { push(.bool(false)) }
            state.waiting = nil
            advance()
            emit(
                loop ? "finds no child of \(name) left: its loop ends" : "asks \(name) for the next result: no child is left, so nil",
                Access(.operation(id), .read))
        } else {
            suspend(
                on: .taskGroup(id, all: false), "awaits the next child of \(name) to finish: none has yet, so it suspends", Access(.operation(id), .read))
        }
    }

    /// `group.cancelAll()`.
    mutating func cancelAll() {
        guard let found = usableGroup(0, "cancelAll()") else { return }
        let id = found.id
        var group = found.state
        _ = pop()
        group.isCancelled = true
        world.heap[id].kind = .taskGroup(group)
        var cancellation = Cancellation()
        var accesses = [Access(.operation(id), .write)]
        let running = group.children.filter(world.isRunningTask)
        for child in group.children {
            accesses.append(Access(.operation(child), .write))
            if world.isRunningTask(child) { cancellation += cancelTree(child) }
        }
        push(.none)
        advance()
        let names = running.map { world.heap[$0].name }.joined(separator: ", ")
        emit(
            "cancels \(world.heap[id].name)" + (running.isEmpty ? ": no child is running" : " and its running children: \(names)")
                + cancellation.notes.map { "; " + $0 }.joined(), accesses)
        runHandlers(cancellation.handlers)
    }

    /// The end of a group's body (and `waitForAll()`): every child must finish.
    mutating func drainGroup(close: Bool) {
        guard let found = usableGroup(0, "waitForAll()") else { return }
        let id = found.id
        var group = found.state
        let name = world.heap[id].name
        let running = group.children.filter(world.isRunningTask)
        guard running.isEmpty else {
            let names = running.map { world.heap[$0].name }.joined(separator: ", ")
            suspend(on: .taskGroup(id, all: true), "waits for every child of \(name) to finish (\(names) still running)", Access(.operation(id), .read))
            return
        }
        _ = pop()
        let dropped = group.finished
        let children = group.children
        group.children = []
        group.finished = []
        group.isOpen = !close
        world.heap[id].kind = .taskGroup(group)
        state.waiting = nil
        advance()
        let results = dropped.compactMap { child -> String? in
            let value = taskState(child)?.value ?? .none
            return value == .none ? nil : "\(world.heap[child].name)'s \(describe(value))"
        }
        emit(
            "finds every child of \(name) finished" + (results.isEmpty ? "" : "; results nobody took are dropped: " + results.joined(separator: ", ")),
            Access(.operation(id), .write))
        // What this code holds on its stack (an error on its way out) lives on.
        protected = frame.slots.flatMap({ $0.references })
        for child in children { release(.object(child)) }
        protected = []
    }

    /// Leaving an `async let`'s scope: a child still running is cancelled (one step),
    /// then awaited; one this thread has awaited needs nothing (`isLocal`).
    mutating func endChild() {
        guard case .object(let id) = peek(), let child = taskState(id) else { return }
        let name = world.heap[id].name
        if child.isFinished {
            _ = pop()
            let waited = state.waiting != nil
            state.waiting = nil
            advance()
            // Awaited already: nothing happens (`isLocal`). Else the step sees it ended.
            guard !child.isAwaited || waited else { return }
            emit(
                waited ? "resumes: \(name) has finished, so its async let's scope ends" : "leaves the scope of async let \(name), which has finished",
                Access(.operation(id), .read))
        } else if !child.isCancelled {
            let cancellation = cancelTree(id)
            emit(
                "leaves the scope of async let \(name) while it runs: cancels it" + cancellation.notes.map { "; " + $0 }.joined(),
                Access(.operation(id), .write))
            runHandlers(cancellation.handlers)
        } else {
            suspend(on: .task(id), "leaves the scope of async let \(name): awaits it, as Swift does", Access(.operation(id), .read))
        }
    }

    /// Cancels a task and, once, its structured children still running (SE-0304):
    /// the handlers to run, innermost first. A task suspended in `for await` over a
    /// stream ends the stream, as `AsyncStream`'s iterator does when its task is
    /// cancelled.
    mutating func cancelTree(_ id: ObjectID) -> Cancellation {
        guard var task = taskState(id), !task.isCancelled else { return Cancellation() }
        task.isCancelled = true
        world.heap[id].kind = .task(task)
        var cancellation = Cancellation()
        cancellation.handlers = task.handlers.reversed().map { HandlerCall(closure: $0, kind: .cancellationHandler(id), parameter: nil, isKept: true) }
        if case .stream(let stream)? = world.threads[task.thread].waiting, let end = endStream(stream, cancelledBy: id) {
            cancellation.notes.append("ends \(world.heap[stream].name), which \(world.heap[id].name) awaits in for await" + end.note)
            cancellation.handlers += end.handler.map { [$0] } ?? []
        }
        // Every child is touched, finished (even freed) or not: whether one has finished
        // is what its finishing step writes, so the cancel is ordered with it either way.
        for child in task.children {
            touch(.operation(child), .write)
            if world.isRunningTask(child) { cancellation += cancelTree(child) }
        }
        return cancellation
    }

    /// Runs handlers on this thread, before it goes on: each is a frame.
    mutating func runHandlers(_ handlers: [HandlerCall]) {
        // Pushed last first: the first runs first.
        for handler in handlers.reversed() {
            if handler.isKept { retain(.closure(handler.closure)) }
            pushFrame(closureFrame(handler.closure, kind: handler.kind, parameter: handler.parameter))
        }
    }
}

/// Code a thread runs for someone else before it goes on: a task's cancellation
/// handler (run by its canceller), a stream's `onTermination` (run by whoever ends it).
struct HandlerCall {
    var closure: ClosureValue
    var kind: Frame.Kind
    var parameter: Value?
    /// Whether its owner keeps it (a task's handler stays registered), so the frame
    /// takes a count of its own; else the owner hands its count over.
    var isKept: Bool
}

/// What a cancellation does besides setting flags: the handlers to run, and the
/// streams it ends, in words.
struct Cancellation {
    var handlers: [HandlerCall] = []
    var notes: [String] = []

    static func += (lhs: inout Cancellation, rhs: Cancellation) {
        lhs.handlers += rhs.handlers
        lhs.notes += rhs.notes
    }

    /// What the cancelling step says of them, after what it cancels.
    var words: String {
        let runsHandler = handlers.contains { if case .cancellationHandler = $0.kind { true } else { false } }
        return (runsHandler ? ", and runs its cancellation handler here" : "") + notes.map { "; " + $0 }.joined()
    }
}
