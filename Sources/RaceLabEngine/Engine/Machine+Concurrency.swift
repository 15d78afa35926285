/// Swift concurrency: tasks, actors and the hops between them (SE-0296, SE-0304,
/// SE-0306, SE-0338).
///
/// A task is a thread of the world with a handle (`ThreadState.task`). It runs its
/// code on an executor (`ThreadState.executor`): an actor, which it must hold (the
/// actor's header `owner`), or the global concurrent executor (nil), which needs
/// nothing. Code isolated to an actor is one job from one suspension point to the
/// next: nobody else runs on the actor meanwhile, so its state is read and written
/// without a step of its own (`Machine.isolatedFieldObject`). A hop (calling into
/// another executor, returning from it) and a suspension (awaiting a task that has
/// not finished, `Task.yield()`) leave the actor to the next task in its mailbox:
/// that is actor reentrancy.
///
/// The mailbox's order: today's runtime runs an actor's jobs of one priority in the
/// order they were enqueued, and every task here has one priority, so the actor goes
/// to its mailbox's first task when it is left. `mailbox "any"` drops that promise,
/// as SE-0306 does ("not guaranteed to be run in the same order"): the actor is left
/// free, and whichever waiting task the scheduler picks takes it.
extension Machine {
    /// Whether the object is an actor (or the main actor).
    func isActor(_ id: ObjectID) -> Bool {
        world.heap[id].isActor
    }

    /// Whether the running code is on the main thread: main's, or a job on the main
    /// actor (whose jobs the main thread runs).
    var onMainThread: Bool {
        state.isMain || (state.executor != nil && state.executor == world.mainActor && holdsExecutor)
    }

    func mailbox(_ actor: ObjectID) -> [ThreadID] {
        if case .actor(let mailbox) = world.heap[actor].kind { return mailbox }
        return []
    }

    /// Whether the object is an instance of a `@MainActor` class.
    func isMainActorObject(_ id: ObjectID) -> Bool {
        world.heap[id].classIndex.map { program.classes[$0].isMainActor } == true
    }

    /// An actor's own state touched from outside it, or a `@MainActor` class's off
    /// the main actor (by a name another class's field has too, so the compiler could
    /// not tell): refused, as Swift refuses it. Its own init and deinit may touch it
    /// anywhere, and anyone may read a `let` field (nobody changes it after the
    /// init), as Swift lets code in the same module. True when refused.
    mutating func refusesOutsideAccess(_ id: ObjectID, _ field: String) -> Bool {
        guard !checking else { return false }
        if let info = world.heap[id].classIndex.map({ program.classes[$0] }), let index = info.fieldNames.firstIndex(of: field), info.fieldIsLet[index] {
            return false
        }
        let name = world.heap[id].name
        if isActor(id), world.headers[id].owner != thread {
            fail(.type("\(name).\(field) is \(name)'s own state: outside the actor, read it with 'await \(name).\(field)' or change it in one of its methods"))
            return true
        }
        // On the main actor, not merely on the main thread: main's code that called a
        // nonisolated async function runs off it.
        let onMainActor = state.executor != nil && state.executor == world.mainActor && holdsExecutor
        guard isMainActorObject(id), !onMainActor, frame.kind != .deinitializer(id), !(code.isInitializer && frame.slots.first == .object(id)) else {
            return false
        }
        fail(
            .type(
                "\(name).\(field) is the main actor's (its class is @MainActor), and \(threadName) is off the main actor: read it with 'await \(name).\(field)' or change it in one of its methods"
            ))
        return true
    }

    /// The executor an isolation names for the running code: `.some(actor)`, or
    /// `.some(nil)` for the global executor; nil (and a runtime error) when the slot
    /// holds no live object.
    mutating func executor(for isolation: Isolation) -> ObjectID?? {
        switch isolation {
        case .generic: return .some(nil)
        case .mainActor: return .some(world.mainActor)
        case .inherited: return .some(state.executor)
        case .slot(let slot):
            guard case .object(let id) = world.resolve(frame.slots[slot]), world.headers[id].isAlive else {
                fail(.type("\(describe(frame.slots[slot])) is not an actor: only an actor's state and methods are awaited so"))
                return nil
            }
            // An object that is not an actor (`await box.v`, the name some actor's
            // field has too): no hop, as Swift's `await` on what does not suspend.
            // A `@MainActor` class's instance: its state is the main actor's.
            if isMainActorObject(id) { return .some(world.mainActor) }
            return .some(isActor(id) ? id : state.executor)
        }
    }

    /// Whether the running thread may run its code: it holds its actor, or runs on
    /// the global executor.
    var holdsExecutor: Bool {
        guard let actor = state.executor else { return true }
        return world.headers[actor].owner == thread
    }

    /// Moves the running task to `target` (an actor, or nil: the global executor),
    /// leaving the actor it holds: one step, told as `why` and what happened.
    mutating func hop(to target: ObjectID?, _ why: String) {
        let (text, accesses) = hopParts(to: target)
        emit(why + ": " + text, accesses)
    }

    /// `hop`'s work, untold: the words and the accesses.
    mutating func hopParts(to target: ObjectID?) -> (text: String, accesses: [Access]) {
        var parts: [String] = []
        var accesses: [Access] = []
        if let from = state.executor, world.headers[from].owner == thread {
            let (text, access) = leaveActor(from)
            parts.append(text)
            accesses.append(access)
        }
        state.executor = target
        // The main actor's jobs run on the main thread, not the pool.
        if target != nil && target == world.mainActor { leavePool() }
        if let target {
            let (text, access) = enterActor(target)
            parts.append(text)
            accesses.append(access)
        } else {
            parts.append("runs on the global concurrent executor")
        }
        return (parts.joined(separator: "; "), accesses)
    }

    /// `isolate`: the function's first instruction.
    mutating func isolate(_ isolation: Isolation, save: Int) {
        guard let target = executor(for: isolation) else { return }
        if let target, target != state.executor || !holdsExecutor, state.task == nil, !state.isMain {
            // Only a task waits for an actor: a thread gets here by a method name the
            // compiler could not tell from a built-in one (`cancel`).
            let actor = world.heap[target].name
            fail(
                .type(
                    "\(threadName) is a thread, not a task, so it cannot wait for \(actor) to run \(code.name) (Swift 6: \(target == world.mainActor ? "main actor" : "actor")-isolated method in a synchronous nonisolated context)"
                ))
            return
        }
        // A function's first instruction, `MainActor.run` (the only other isolation to
        // the main actor by name), or a read of an actor's state from outside.
        var why = "hops to \(target.map { world.heap[$0].name } ?? "the global executor") to read its state"
        if isolation == .mainActor { why = "hops to MainActor to run MainActor.run's closure" }
        if frame.pc == 0 { why = "calls \(code.name)" }
        frame.slots[save] = .int(state.executor ?? -1)
        advance()
        guard target != state.executor || !holdsExecutor else { return }
        hop(to: target, why)
    }

    /// `restoreExecutor`: back where the caller ran, before returning.
    mutating func restoreExecutor(_ slot: Int) {
        guard case .int(let saved) = frame.slots[slot] else { return }
        let target: ObjectID? = saved < 0 ? nil : Int(saved)
        let next = code.instructions[frame.pc + 1]
        let returns = next == .ret || next == .rethrow
        advance()
        guard target != state.executor || !holdsExecutor else { return }
        guard returns, state.frames.count > 1 else {
            hop(to: target, returns ? "returns from \(code.name)" : "hops back")
            return
        }
        // The return is this step too: it says where the caller goes on.
        returnHop = hopParts(to: target)
        guard state.waiting == nil else {
            // Enqueued behind another job: the return waits for its turn.
            let hop = returnHop!
            returnHop = nil
            emit("ends \(code.name): " + hop.text, hop.accesses)
            return
        }
        execute(next)
    }

    /// A task that does not hold its actor takes its first step, or resumes after a
    /// suspension: it enters the actor (takes it, or waits in its mailbox).
    mutating func resumeOnExecutor() {
        guard let actor = state.executor else { return }
        range = code.ranges[frame.pc] ?? (frame.pc > 0 ? code.ranges[frame.pc - 1] : nil)
        let fresh = state.frames.count == 1 && frame.pc == 0
        let woken = wokenAccess
        state.waiting = nil
        let (text, access) = enterActor(actor)
        let accesses = [access] + (woken.map { [$0] } ?? [])
        let next = code.instructions[frame.pc]
        if state.waiting == nil, !fresh, frame.kind == .call, next == .ret || next == .rethrow {
            // Back on the caller's actor: the return it waited to make is this step.
            returnHop = (text, accesses)
            execute(next)
            return
        }
        emit((fresh ? "starts: " : "resumes: ") + text, accesses)
    }

    /// A suspended task's first step after it was woken reads what it was suspended on:
    /// the step that woke it (a task finishing, a resume, a yield) comes first.
    var wokenAccess: Access? {
        switch state.waiting {
        case .task(let id), .continuation(let id), .stream(let id), .taskGroup(let id, _): Access(.operation(id), .read)
        case .sleep: Access(.clock, .read)
        default: nil
        }
    }

    /// Whether the running thread's next step is to enter its actor, not to run.
    var mustEnterExecutor: Bool {
        guard let actor = state.executor else { return false }
        // Its turn came (the actor was handed to it, or is free): it takes it.
        if case .actor = state.waiting { return true }
        guard world.headers[actor].owner != thread else { return false }
        switch state.waiting {
        case nil, .task, .continuation, .stream, .taskGroup, .sleep: return true
        default: return false
        }
    }

    /// Suspends the running task: it waits, leaving its pool thread and its actor (if
    /// it holds one). One step, told as `text` with `access`, and the leaving.
    mutating func suspend(on wait: Wait, _ text: String, _ access: Access) {
        suspend(on: wait, text, [access])
    }

    /// `suspend`, for a step with several accesses.
    mutating func suspend(on wait: Wait, _ text: String, _ accesses: [Access]) {
        leavePool()
        state.waiting = wait
        guard let actor = state.executor, world.headers[actor].owner == thread else {
            emit(text, accesses)
            return
        }
        let (left, release) = leaveActor(actor)
        emit(text + "; " + left, accesses + [release])
    }

    func taskState(_ id: ObjectID) -> TaskState? { world.heap[id].taskState }

    mutating func taskOperation(_ operation: TaskOperation) {
        switch operation {
        case .start(let isolation, let name, let priority):
            startTask(isolation, name: name.map { program.names[$0] } ?? "task", priority: priority ?? currentPriority)
        case .value:
            guard case .object(let id) = peek(), let task = taskState(id) else {
                // A field named `value` (of a class or actor of the script's).
                if case .object = peek(), let name = program.names.firstIndex(of: "value") {
                    execute(.load(.field(name: name)))
                } else {
                    fail(.type("'.value' is a Task's: \(describe(peek())) is not a task"))
                }
                return
            }
            let name = world.heap[id].name
            if task.isFinished {
                var awaited = task
                awaited.isAwaited = true
                world.heap[id].kind = .task(awaited)
                _ = pop()
                state.waiting = nil
                if task.didThrow {
                    guard deliverError(task.value, from: name) else { return }
                    advance()
                    emit("awaits \(name)'s value: \(name) threw \(describe(task.value)), so this throws it", Access(.operation(id), .read))
                    return
                }
                push(task.value)
                advance()
                emit("gets \(name)'s value: \(describe(task.value))", Access(.operation(id), .read))
                return
            }
            let escalation = escalate(id, to: currentPriority)
            suspend(
                on: .task(id), "awaits \(name)'s value: \(name) has not finished, so it suspends\(escalation.words)",
                [Access(.operation(id), .read)] + escalation.accesses)
        case .cancel:
            guard case .object(let id) = pop(), let task = taskState(id) else {
                fail(.type("cancel() here is a Task's"))
                return
            }
            let running = task.isCancelled ? [] : task.children.filter(world.isRunningTask)
            let cancellation = cancelTree(id)
            push(.none)
            advance()
            let children = running.isEmpty ? "" : " and its children " + running.map { world.heap[$0].name }.joined(separator: ", ")
            emit("cancels \(world.heap[id].name)\(children)" + cancellation.words, Access(.operation(id), .write))
            runHandlers(cancellation.handlers)
        case .makeContinuation(let function):
            let id = newObject(.continuation(ContinuationState(task: thread, function: function)), classIndex: nil, typeName: "Continuation")
            push(.object(id))
            advance()
            emit("makes continuation \(world.heap[id].name) in \(program.names[function])", Access(.operation(id), .write))
        case .awaitContinuation:
            awaitContinuation()
        case .streamNext:
            if case .object(let id) = peek(), groupState(id) != nil {
                groupNext(loop: true)
            } else {
                streamNext()
            }
        case .checkCancellation: checkCancellation()
        case .sleep: sleep()
        case .makeGroup: makeGroup()
        case .addChild(let name, let priority): addChild(name: name.map { program.names[$0] } ?? "child", priority: priority)
        case .startChild(let name): startAsyncLet(name: program.names[name])
        case .groupNext: groupNext(loop: false)
        case .cancelAll: cancelAll()
        case .drainGroup(let close): drainGroup(close: close)
        case .endChild: endChild()
        case .pushCancellationHandler:
            guard case .closure(let handler) = pop(), let id = state.task, var task = taskState(id) else {
                fail(.type("withTaskCancellationHandler runs in a task: \(threadName) is not one"))
                return
            }
            task.handlers.append(handler)
            world.heap[id].kind = .task(task)
            advance()
            emit(
                "registers a cancellation handler" + (task.isCancelled ? "; it is cancelled already, so the handler runs now" : ""),
                Access(.operation(id), .write))
            if task.isCancelled { runHandlers([HandlerCall(closure: handler, kind: .cancellationHandler(id), parameter: nil, isKept: true)]) }
        case .popCancellationHandler:
            guard let id = state.task, var task = taskState(id), let handler = task.handlers.popLast() else { return }
            world.heap[id].kind = .task(task)
            advance()
            emit("leaves withTaskCancellationHandler: its handler is no longer registered", Access(.operation(id), .write))
            release(.closure(handler))
        case .isCancelled:
            guard let id = state.task, let task = taskState(id) else {
                // Outside a task (main's code), as in Swift: false.
                push(.bool(false))
                advance()
                emit("reads Task.isCancelled: false (it is not a task)")
                return
            }
            push(.bool(task.isCancelled))
            advance()
            emit("reads Task.isCancelled: \(task.isCancelled)", Access(.operation(id), .read))
        case .yield:
            push(.none)
            advance()
            leavePool()
            var parts = ["yields (Task.yield())"]
            var accesses: [Access] = []
            if let actor = state.executor, world.headers[actor].owner == thread {
                let (text, access) = leaveActor(actor)
                parts.append(text)
                accesses.append(access)
            }
            emit(parts.joined(separator: ": "), accesses)
        }
    }
}
