/// A task's life: started (`Task { }`, a child), and ended, with its value or its
/// error, which awaiting tasks then get.
extension Machine {
    /// `Task { }`: a new task running the closure on the stack; its handle replaces it.
    mutating func startTask(_ isolation: Isolation, name: String, priority: JobPriority) {
        guard case .closure(let closure) = peek() else {
            fail(.type("Task { } takes a closure"))
            return
        }
        guard let target = executor(for: isolation) else { return }
        _ = pop()
        let handle = createTask(closure, on: target, name: name, priority: priority)
        let taskName = world.heap[handle].name
        let id = taskState(handle)!.thread
        var note = priorityWords(handle).map { " (\($0))" } ?? ""
        if let target {
            if isolation == .inherited {
                note += " for \(world.heap[target].name) (it enqueues there when it first runs)"
            } else {
                // Explicitly isolated: enqueued now, in creation order (SE-0431).
                let (text, access) = runThreadReturning(id) { $0.enterActor(target) }
                note += "; it " + text
                touch(access.target, access.kind)
            }
        }
        push(.object(handle))
        advance()
        emit("starts task \(taskName)\(note)", Access(.operation(handle), .write))
    }

    /// A new task, a thread of the world running `closure` on `target` (an actor, or
    /// nil: the global executor) at `priority`; its handle, which the runtime keeps
    /// while it runs.
    mutating func createTask(_ closure: ClosureValue, on target: ObjectID?, name: String, priority: JobPriority) -> ObjectID {
        let taskName = uniqueThreadName(name)
        var task = TaskState(thread: world.threads.count)
        task.priority = priority
        let handle = newObject(.task(task), classIndex: nil, typeName: "Task", name: taskName)
        retain(.object(handle))
        let frame = closureFrame(closure, kind: .task(handle), parameter: nil)
        let id = world.addThread(name: taskName, frames: [frame])
        world.threads[id].task = handle
        world.threads[id].executor = target
        touch(.allocator, .write)
        return handle
    }

    /// A task's closure returned: its value is kept, awaiting tasks may go on, and
    /// it leaves its actor.
    mutating func taskReturned(_ handle: ObjectID, value: Value, releasing: String, accesses: [Access], thrown: Bool = false) {
        guard var task = taskState(handle) else { return }
        task.isFinished = true
        task.value = value
        task.didThrow = thrown
        retain(value)
        leavePool()
        world.heap[handle].kind = .task(task)
        state.isFinished = true
        let ending = thrown ? " by throwing \(describe(value))" : value == .none ? "" : ", its value \(describe(value))"
        var parts = ["finishes" + ending + releasing]
        var all = [Access(.operation(handle), .write)] + accesses
        if let group = task.group, var members = groupState(group) {
            // Its group's `next()` gets results in the order children finish.
            members.finished.append(handle)
            world.heap[group].kind = .taskGroup(members)
            all.append(Access(.operation(group), .write))
        }
        if let actor = state.executor, world.headers[actor].owner == thread {
            let (text, access) = leaveActor(actor)
            parts.append(text)
            all.append(access)
        }
        emit(parts.joined(separator: "; "), all)
        // The task that started it may not have stored its handle yet (a step of its
        // own, when the variable held an earlier one): the handle it holds lives on.
        release(.object(handle), keepAlive: heldInFrames.contains(handle) ? [handle] : [])
    }
}
