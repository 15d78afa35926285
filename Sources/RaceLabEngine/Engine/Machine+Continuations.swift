/// Checked continuations (SE-0300): a task suspends until one resume, and the
/// runtime's words for a second resume and for a continuation dropped unresumed.
extension Machine {
    /// After a continuation's body: the task goes on with the value it was resumed
    /// with, or suspends until it is. One that nobody holds and nobody resumed is
    /// leaked: the runtime says so, and the task waits for ever.
    mutating func awaitContinuation() {
        guard case .object(let id) = peek(), case .continuation(let continuation) = world.heap[id].kind else { return }
        let name = world.heap[id].name
        if continuation.isResumed {
            _ = pop()
            state.waiting = nil
            if continuation.didThrow {
                guard deliverError(continuation.value, from: name) else { return }
                advance()
                emit("goes on: \(name) was resumed throwing \(describe(continuation.value)), so this throws it", Access(.operation(id), .read))
                return
            }
            push(continuation.value)
            advance()
            emit("goes on: \(name) was resumed with \(describe(continuation.value))", Access(.operation(id), .read))
            return
        }
        if world.headers[id].isAlive && world.headers[id].retainCount == 0 {
            // Nothing holds it: nobody can resume it now.
            free(id)
        }
        suspend(on: .continuation(id), "suspends until \(name) is resumed", Access(.operation(id), .read))
    }

    /// `continuation.resume()` or `resume(returning:)`: the task it belongs to may go
    /// on. A second resume is the runtime's trap.
    mutating func resumeContinuation(_ id: ObjectID, value: Value, argc: Int, throwing: Bool = false) {
        guard case .continuation(var continuation) = world.heap[id].kind else { return }
        let function = program.names[continuation.function]
        guard !continuation.isResumed else {
            crash("\(Finding.continuationMisuse): \(function)() tried to resume its continuation more than once")
            return
        }
        continuation.isResumed = true
        continuation.value = value
        continuation.didThrow = throwing
        retain(value)
        world.heap[id].kind = .continuation(continuation)
        let waiting = world.threads[continuation.task].waiting == .continuation(id)
        let task = world.threadNames[continuation.task]
        returnFromMethod(
            argc: argc,
            "resumes \(world.heap[id].name)" + (throwing ? " throwing \(describe(value))" : value == .none ? "" : " with \(describe(value))")
                + (waiting ? "; \(task) can go on" : ""),
            [Access(.operation(id), .write)])
    }

    /// A continuation freed without being resumed: the runtime's warning.
    mutating func continuationFreed(_ id: ObjectID) {
        guard case .continuation(let continuation) = world.heap[id].kind, !continuation.isResumed else { return }
        let function = program.names[continuation.function]
        let message = "\(Finding.continuationMisuse): \(function)() leaked its continuation without resuming it"
        emit("drops the last reference to \(world.heap[id].name): " + message, Access(.operation(id), .write))
        report(.leak, message + "; \(world.threadNames[continuation.task]) waits for it for ever")
    }
}
