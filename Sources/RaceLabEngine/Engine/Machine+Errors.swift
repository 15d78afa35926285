/// Errors (`throws`): a thrown error leaves its code beside the return value, in the
/// thread's `thrown` register, and the caller's `catchThrown` takes it at once (see
/// `Compiler+Throws.swift`: where it goes next is code the compiler wrote). A task's
/// closure that throws ends the task with the error, which `try await t.value`
/// throws again; main's code that throws crashes, as Swift's top-level code does.
extension Machine {
    /// `CancellationError()`, what cancellation throws: an object of its own.
    mutating func newCancellationError() -> Value {
        .object(newObject(.instance, classIndex: nil, typeName: "CancellationError", name: "CancellationError"))
    }

    /// Whether `value` is an error of the type named so: an instance of that class of
    /// the script's, or Swift's `CancellationError`.
    func isError(_ value: Value, of type: String) -> Bool {
        guard case .object(let id) = value else { return false }
        if let classIndex = world.heap[id].classIndex { return program.classes[classIndex].name == type }
        return type == "CancellationError" && world.heap[id].name == "CancellationError"
    }

    /// `catchThrown`: an error the call threw replaces its result, and the code goes
    /// on to send it on; else it jumps past that.
    mutating func catchThrown(_ target: Int) {
        guard let error = state.thrown else {
            frame.pc = target
            return
        }
        state.thrown = nil
        _ = pop()
        push(error)
        advance()
    }

    /// Hands a task's error (or a continuation's) to the code that awaited it: thrown
    /// again where that code checks (`try`), else a runtime error (Swift would not
    /// have compiled the read without `try`). Pushes the result's place holder.
    mutating func deliverError(_ error: Value, from what: String) -> Bool {
        guard case .catchThrown = code.instructions[frame.pc + 1] else {
            fail(.type("\(what) threw \(describe(error)): read it with 'try await', in a do { } catch { } or a throwing function"))
            return false
        }
        state.thrown = error
        push(.none)
        return true
    }

    /// `try Task.checkCancellation()`.
    mutating func checkCancellation() {
        guard let id = state.task, let task = taskState(id) else {
            push(.none)
            advance()
            emit("checks for cancellation: it is not a task, so nothing")
            return
        }
        guard task.isCancelled else {
            push(.none)
            advance()
            emit("checks for cancellation: not cancelled", Access(.operation(id), .read))
            return
        }
        state.thrown = newCancellationError()
        push(.none)
        advance()
        emit("checks for cancellation: it is cancelled, so it throws CancellationError", Access(.operation(id), .read))
    }

    /// `Task.sleep`: the first time, the task sleeps until the clock reads its deadline
    /// (a cancelled task throws at once); woken, it moves the clock there, or (woken by
    /// cancellation) throws `CancellationError`.
    mutating func sleep() {
        guard case .int(let milliseconds) = peek() else {
            fail(.type("Task.sleep takes a duration: Task.sleep(for: .seconds(1)) or .milliseconds(n)"))
            return
        }
        let task = state.task
        let cancelled = task.flatMap(taskState)?.isCancelled ?? false
        var accesses = [Access(.clock, .write)]
        if let task { accesses.append(Access(.operation(task), .read)) }
        if let deadline = state.sleepsUntil {
            state.sleepsUntil = nil
            state.waiting = nil
            _ = pop()
            guard cancelled && world.clock < deadline else {
                world.clock = max(world.clock, deadline)
                push(.none)
                advance()
                emit("wakes: the clock reads \(Engine.duration(world.clock))", accesses)
                return
            }
            state.thrown = newCancellationError()
            push(.none)
            advance()
            emit("wakes early: it was cancelled, so Task.sleep throws CancellationError", accesses)
            return
        }
        if cancelled {
            _ = pop()
            state.thrown = newCancellationError()
            push(.none)
            advance()
            emit("calls Task.sleep: it is cancelled, so it throws CancellationError at once", accesses)
            return
        }
        let (deadline, overflow) = world.clock.addingReportingOverflow(max(0, milliseconds))
        state.sleepsUntil = overflow ? Int64.max : deadline
        suspend(on: .sleep, "sleeps for \(Engine.duration(max(0, milliseconds))): until the clock reads \(Engine.duration(state.sleepsUntil!))", accesses)
    }
}
