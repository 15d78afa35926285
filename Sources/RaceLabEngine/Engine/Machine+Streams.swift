/// `AsyncStream` (SE-0314): a producer yields, a consumer awaits each element in
/// `for await`. The stream and its continuation are one object here.
///
/// An element yielded while a consumer is suspended goes straight to it (the first
/// one suspended); otherwise the buffer keeps it as the policy says, or drops it.
/// `finish()` ends the stream: the first suspended consumer is told so, and any
/// other stays suspended for ever, as swiftlang/swift #71412 reports of concurrent
/// iteration (which SE-0314 calls a programmer error). Cancelling a task suspended
/// in `for await` ends the stream too, as the iterator's cancellation handler does
/// (`Machine.cancelTree`); so does a `for await` that a cancelled task starts. Either
/// way the stream's `onTermination` handler runs once, on the thread that ends it,
/// with "finished" or "cancelled" (Swift's `Termination`).
extension Machine {
    /// `AsyncStream.makeStream(of:bufferingPolicy:)`.
    mutating func makeStream() {
        guard case .int(let wide) = pop(), case .int(let code) = pop() else { return }
        guard let limit = Value.bounded(wide), code == 0 || limit >= 1 else {
            fail(.type("a stream's buffer holds 1 to 2147483647 elements: .bufferingNewest(1) or more"))
            return
        }
        let policy: StreamState.Policy = code == 1 ? .bufferingOldest(limit) : code == 2 ? .bufferingNewest(limit) : .unbounded
        let id = newObject(.stream(StreamState(policy: policy)), classIndex: nil, typeName: "AsyncStream")
        push(.object(id))
        advance()
        emit("makes stream \(world.heap[id].name) (\(Self.describe(policy)))", Access(.operation(id), .write))
    }

    static func describe(_ policy: StreamState.Policy) -> String {
        switch policy {
        case .unbounded: return "unbounded"
        case .bufferingOldest(let n): return "bufferingOldest(\(n))"
        case .bufferingNewest(let n): return "bufferingNewest(\(n))"
        }
    }

    /// `continuation.yield(value)`: its result says what became of the element, as
    /// Swift's `YieldResult` does: "enqueued", "dropped" or "terminated".
    mutating func yieldToStream(_ id: ObjectID, _ value: Value) {
        guard case .stream(var stream) = world.heap[id].kind else { return }
        let name = world.heap[id].name
        var result = "enqueued"
        var text: String
        if stream.isFinished {
            result = "terminated"
            text = "yields \(describe(value)) to \(name), which has finished: terminated"
        } else if !stream.waiting.isEmpty {
            let consumer = stream.waiting.removeFirst()
            stream.handed.append(.init(consumer: consumer, value: value, isEnd: false))
            retain(value)
            text = "yields \(describe(value)) to \(name): \(world.threadNames[consumer]), suspended for it, gets it"
        } else {
            stream.buffer.append(value)
            retain(value)
            text = "yields \(describe(value)) to \(name): buffered"
            switch stream.policy {
            case .bufferingOldest(let n) where stream.buffer.count > n:
                let dropped = stream.buffer.removeLast()
                release(dropped)
                result = "dropped"
                text = "yields \(describe(value)) to \(name): the buffer is full (\(Self.describe(stream.policy))), so it is dropped"
            case .bufferingNewest(let n) where stream.buffer.count > n:
                let dropped = stream.buffer.removeFirst()
                result = "dropped"
                text =
                    "yields \(describe(value)) to \(name): the buffer is full (\(Self.describe(stream.policy))), so the oldest, \(describe(dropped)), is dropped"
                release(dropped)
            default: break
            }
        }
        world.heap[id].kind = .stream(stream)
        frame.slots.removeLast(2)
        push(.string(result))
        advance()
        emit(text, Access(.operation(id), .write))
    }

    /// `continuation.finish()`.
    mutating func finishStream(_ id: ObjectID) {
        guard case .stream(let stream) = world.heap[id].kind else { return }
        guard !stream.isFinished else {
            returnFromMethod(argc: 0, "finishes \(world.heap[id].name) again: nothing more happens", [Access(.operation(id), .write)])
            return
        }
        let end = endStream(id, cancelledBy: nil)
        returnFromMethod(argc: 0, "finishes \(world.heap[id].name)" + (end?.note ?? ""), [Access(.operation(id), .write)])
        runHandlers(end?.handler.map { [$0] } ?? [])
    }

    /// Ends a stream that has not ended: finished by `finish()` (`cancelledBy` nil), or
    /// cancelled by a task's cancellation in its `for await`: a later `for await` finds
    /// it ended at once. Its handler, taken from the stream, runs first, and a consumer
    /// suspended sees the end when it returns (`handEnd`), as in Swift's runtime. The
    /// handler to run, and the words that follow those of what ended the stream; nil
    /// when it had ended already, which is read all the same (a cancel and a finish()
    /// are ordered by it).
    mutating func endStream(_ id: ObjectID, cancelledBy task: ObjectID?) -> (note: String, handler: HandlerCall?)? {
        guard case .stream(var stream) = world.heap[id].kind else { return nil }
        guard !stream.isFinished else {
            touch(.operation(id), .read)
            return nil
        }
        touch(.operation(id), .write)
        stream.isFinished = true
        let handler = stream.onTermination.map {
            HandlerCall(closure: $0, kind: .terminationHandler(id), parameter: .string(task == nil ? "finished" : "cancelled"), isKept: false)
        }
        stream.onTermination = nil
        world.heap[id].kind = .stream(stream)
        guard handler == nil else { return ("; its onTermination handler runs here", handler) }
        return (handEnd(id), nil)
    }

    /// An ended stream's end, to the first consumer suspended in its `for await`; any
    /// other stays suspended for ever. The words.
    mutating func handEnd(_ id: ObjectID) -> String {
        guard case .stream(var stream) = world.heap[id].kind, !stream.waiting.isEmpty else { return "" }
        let first = stream.waiting.removeFirst()
        stream.handed.append(.init(consumer: first, value: .none, isEnd: true))
        var text = "; \(world.threadNames[first]), suspended in for await, sees the end"
        if !stream.waiting.isEmpty {
            text += "; " + stream.waiting.map { world.threadNames[$0] }.joined(separator: ", ") + " stays suspended for ever (swiftlang/swift #71412)"
        }
        world.heap[id].kind = .stream(stream)
        return text
    }

    /// `continuation.onTermination = { termination in … }`. The stream takes the
    /// closure's count from the stack; one it drops (replaced, or set too late) is
    /// released.
    mutating func setOnTermination(_ id: ObjectID, _ handler: Value) {
        guard case .stream(var stream) = world.heap[id].kind, case .closure(let closure) = handler else {
            fail(.type("onTermination takes a closure: continuation.onTermination = { termination in … }"))
            return
        }
        let name = world.heap[id].name
        let old = stream.onTermination
        let text: String
        var dropped: Value?
        if stream.isFinished {
            text = "sets \(name)'s onTermination, but \(name) has ended: it will never run"
            dropped = handler
        } else {
            stream.onTermination = closure
            text = "sets \(name)'s onTermination handler" + (old == nil ? "" : ", replacing the one before")
            dropped = old.map { .closure($0) }
        }
        world.heap[id].kind = .stream(stream)
        returnFromMethod(argc: 1, text, [Access(.operation(id), .write)])
        if let dropped { release(dropped) }
    }

    /// `for await`'s next element (`Instruction.task(.streamNext)`).
    mutating func streamNext() {
        guard case .object(let id) = peek(), case .stream(var stream) = world.heap[id].kind else {
            fail(.type("for await goes over an AsyncStream: \(describe(peek())) is not one"))
            return
        }
        let name = world.heap[id].name
        // A cancelled task's `for await` cancels the stream first (Swift's iterator
        // runs its cancellation handler at once): it ends, but what is buffered is
        // still taken.
        var cancelled: (note: String?, handler: HandlerCall?) = (nil, nil)
        // What it does depends on its task's flag: a read of it, ordered with `cancel()`.
        if let task = state.task { touch(.operation(task), .read) }
        if let task = state.task, taskState(task)?.isCancelled == true, !stream.isFinished, !stream.handed.contains(where: { $0.consumer == thread }),
            let end = endStream(id, cancelledBy: task)
        {
            cancelled = ("is cancelled: its for await ends \(name)" + end.note + "; it ", end.handler)
            guard case .stream(let ended) = world.heap[id].kind else { return }
            stream = ended
        }
        func deliver(_ value: Value, more: Bool, _ text: String) {
            world.heap[id].kind = .stream(stream)
            _ = pop()
            push(value)
            push(.bool(more))
            state.waiting = nil
            advance()
            emit((cancelled.note ?? "") + text, Access(.operation(id), .write))
            runHandlers(cancelled.handler.map { [$0] } ?? [])
        }
        if let index = stream.handed.firstIndex(where: { $0.consumer == thread }) {
            let handoff = stream.handed.remove(at: index)
            deliver(
                handoff.value, more: !handoff.isEnd,
                handoff.isEnd ? "resumes: \(name) has finished, so its loop ends" : "resumes with \(describe(handoff.value)) from \(name)")
        } else if !stream.buffer.isEmpty {
            let value = stream.buffer.removeFirst()
            deliver(value, more: true, "takes \(describe(value)) from \(name)")
        } else if stream.isFinished {
            deliver(.none, more: false, "finds \(name) finished: its loop ends")
        } else {
            if !stream.waiting.contains(thread) { stream.waiting.append(thread) }
            world.heap[id].kind = .stream(stream)
            suspend(on: .stream(id), "awaits the next element of \(name): none is buffered, so it suspends", Access(.operation(id), .write))
        }
    }
}
