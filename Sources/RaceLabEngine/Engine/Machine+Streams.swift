/// `AsyncStream` (SE-0314): a producer yields, a consumer awaits each element in
/// `for await`. The stream and its continuation are one object here.
///
/// An element yielded while a consumer is suspended goes straight to it (the first
/// one suspended); otherwise the buffer keeps it as the policy says, or drops it.
/// `finish()` ends the stream: the first suspended consumer is told so, and any
/// other stays suspended for ever, as swiftlang/swift #71412 reports of concurrent
/// iteration (which SE-0314 calls a programmer error).
extension Machine {
    /// `AsyncStream.makeStream(of:bufferingPolicy:)`.
    mutating func makeStream() {
        guard case .int(let limit) = pop(), case .int(let code) = pop() else { return }
        guard code == 0 || limit >= 1 else {
            fail(.type("a stream's buffer holds at least 1 element: .bufferingNewest(1) or more"))
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
        guard case .stream(var stream) = world.heap[id].kind else { return }
        let name = world.heap[id].name
        var text = "finishes \(name)"
        if !stream.isFinished {
            stream.isFinished = true
            if !stream.waiting.isEmpty {
                let first = stream.waiting.removeFirst()
                stream.handed.append(.init(consumer: first, value: .none, isEnd: true))
                text += "; \(world.threadNames[first]), suspended in for await, sees the end"
                if !stream.waiting.isEmpty {
                    text += "; " + stream.waiting.map { world.threadNames[$0] }.joined(separator: ", ") + " stays suspended for ever (swiftlang/swift #71412)"
                }
            }
        } else {
            text += " again: nothing more happens"
        }
        world.heap[id].kind = .stream(stream)
        returnFromMethod(argc: 0, text, [Access(.operation(id), .write)])
    }

    /// `for await`'s next element (`Instruction.task(.streamNext)`).
    mutating func streamNext() {
        guard case .object(let id) = peek(), case .stream(var stream) = world.heap[id].kind else {
            fail(.type("for await goes over an AsyncStream: \(describe(peek())) is not one"))
            return
        }
        let name = world.heap[id].name
        func deliver(_ value: Value, more: Bool, _ text: String) {
            world.heap[id].kind = .stream(stream)
            _ = pop()
            push(value)
            push(.bool(more))
            state.waiting = nil
            advance()
            emit(text, Access(.operation(id), .write))
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
