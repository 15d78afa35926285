/// An operation's life on its queue: joining it, starting when ready (by queue
/// priority, barriers holding others back), running its blocks on threads of their own,
/// and finishing (when its code returns, or, asynchronous, when it says so), which
/// runs its completion block and its isFinished observers and starts what it held back.
extension Machine {
    func isReady(_ op: OperationState) -> Bool {
        op.isCancelled || op.dependencies.allSatisfy { self.operation($0)?.phase == .finished }
    }

    /// A dispatched block: an operation of `queue`, waiting its turn, named after the
    /// queue (`counter#2`, the second block sent to `counter`), as its thread is.
    mutating func enqueueBlock(_ closure: ClosureValue, on queue: ObjectID, barrier: Bool = false, group: ObjectID? = nil) -> ObjectID {
        updateQueue(queue) { $0.blocks += 1 }
        let name = "\(world.heap[queue].name)#\(self.queue(queue)!.blocks)"
        var state = OperationState(closure: closure)
        state.isBarrier = barrier && !self.queue(queue)!.isGlobal
        state.group = group
        let opID = newObject(.operation(state), classIndex: nil, typeName: "block", name: name)
        enqueue(opID, on: queue)
        return opID
    }

    /// An operation joins `queue`, which holds a reference to it until it finishes.
    mutating func enqueue(_ opID: ObjectID, on queue: ObjectID) {
        retain(.object(opID))
        updateOperation(opID) {
            $0.phase = .pending
            $0.queue = queue
        }
        updateQueue(queue) { $0.operations.append(opID) }
    }

    /// Starts every operation that may start now, queue by queue in creation order.
    mutating func startReadyOperations() {
        var started = true
        while started {
            started = false
            for queueID in world.queues where world.headers[queueID].isAlive {
                guard let q = queue(queueID), !q.isSuspended else { continue }
                // The ready operation with the highest queue priority first, then in order.
                var order = q.operations
                if order.contains(where: { operation($0)?.priority != 0 }) {
                    order = order.enumerated().sorted { a, b in
                        let (pa, pb) = (operation(a.element)?.priority ?? 0, operation(b.element)?.priority ?? 0)
                        return pa != pb ? pa > pb : a.offset < b.offset
                    }.map({ $0.element })
                }
                for opID in order {
                    let now = queue(queueID)!.operations
                    let running = now.filter { operation($0)?.phase == .executing }.count
                    if q.maxConcurrent != -1 && running >= q.maxConcurrent { break }
                    guard let op = operation(opID) else { continue }
                    // A barrier waits for everything sent before it, and holds back everything after it.
                    if op.isBarrier {
                        if op.phase == .pending && now.first == opID { startOperation(opID); started = true }
                        break
                    }
                    guard op.phase == .pending, isReady(op) else { continue }
                    startOperation(opID)
                    started = true
                }
            }
        }
    }

    mutating func startOperation(_ id: ObjectID) {
        let op = operation(id)!
        touch(.operation(id), .write)
        if let queueID = op.queue { touch(.queue(queueID), .write) }
        let name = world.heap[id].name
        guard begin(id) else { return }
        let worker = createThread(name: name, closure: op.closure!, kind: .operation(id), parameter: .object(id), operation: id)
        world.threads[worker].priority = op.qualityOfService
        updateOperation(id) { $0.thread = worker }
        appendToLastEvent("operation \(name) starts on thread \(world.threadNames[worker])")
        startMoreBlocks(id)
    }

    /// An operation begins: a cancelled one finishes at once without running (and
    /// the answer is false); any other is executing from now on.
    mutating func begin(_ id: ObjectID) -> Bool {
        guard !operation(id)!.isCancelled else {
            updateOperation(id) { $0.phase = .executing }
            appendToLastEvent("\(world.heap[id].name) was cancelled before it started, so it finishes without running")
            completeOperation(id, on: nil)
            return false
        }
        updateOperation(id) {
            $0.phase = .executing
            $0.closure = nil
        }
        return true
    }

    /// A block operation's further blocks start, each on a thread of its own; the
    /// operation counts the threads running its code (the first block's too).
    mutating func startMoreBlocks(_ id: ObjectID) {
        let blocks = operation(id)!.moreBlocks
        updateOperation(id) {
            $0.moreBlocks = []
            $0.running = 1 + blocks.count
        }
        for block in blocks {
            let worker = createThread(name: world.heap[id].name, closure: block, kind: .operation(id), parameter: nil, operation: id)
            appendToLastEvent("a further block of \(world.heap[id].name) starts on thread \(world.threadNames[worker])")
        }
    }

    /// What a thread says when the code of operation `id` returns: the operation
    /// finishes, or waits for its other blocks, or (asynchronous) keeps executing.
    func operationReturnText(_ id: ObjectID, started: Bool, releasing: String) -> String {
        let op = operation(id)!
        let name = world.heap[id].name
        let what = (started ? "returns from \(name).start()" : "finishes its code") + releasing
        if op.running > 1 { return "\(what): \(op.running - 1) more block\(op.running == 2 ? "" : "s") of operation \(name) still running" }
        if op.isAsynchronous && op.phase == .executing {
            return "\(what), but operation \(name) is asynchronous: it is still executing until it is told it has finished (finish())"
        }
        if op.phase == .finished { return "\(what) (operation \(name) has finished already)" }
        return started ? "\(what): operation \(name) finishes" : "finishes operation \(name)\(releasing)"
    }

    /// The code of operation `id` returned on this thread: a worker thread ends, and
    /// the operation finishes unless other blocks still run, it finished already, or
    /// it is asynchronous (then `finish()` finishes it).
    mutating func operationCodeReturned(_ id: ObjectID, started: Bool) {
        let op = operation(id)!
        updateOperation(id) { $0.running = max(0, $0.running - 1) }
        let last = op.running <= 1
        if last && op.phase == .executing && !op.isAsynchronous {
            completeOperation(id, on: started ? nil : thread)
        } else if !started {
            state.isFinished = true
        }
    }

    /// Whether an operation may be told it has finished (`what` did so): only an
    /// asynchronous one, and only while it executes; else a finding.
    mutating func canFinish(_ op: OperationState, _ what: String) -> Bool {
        guard op.isAsynchronous else {
            fail(
                .type(
                    "\(what): only an asynchronous operation (Operation(isAsynchronous: true)) says when it is finished; this one finishes when its code returns"
                ))
            return false
        }
        guard op.phase == .executing else {
            fail(.crash("\(what): the operation is not executing (\(op.phase == .finished ? "it has finished already" : "it has not started"))"))
            return false
        }
        return true
    }

    /// An asynchronous operation is told it has finished (`finish()`, or setting
    /// `isFinished`): its observers hear it on this thread.
    mutating func finishOperation(_ id: ObjectID, how: String) {
        emit("\(how): operation \(world.heap[id].name) has finished", Access(.operation(id), .write))
        completeOperation(id, on: nil)
    }

    mutating func completeOperation(_ id: ObjectID, on worker: ThreadID?) {
        let op = operation(id)!
        touch(.operation(id), .write)
        if let queueID = op.queue { touch(.queue(queueID), .write) }
        updateOperation(id) { $0.phase = .finished }
        if let queueID = op.queue { updateQueue(queueID) { $0.operations.removeAll { $0 == id } } }
        let completion = op.completion
        let observers = op.observers
        updateOperation(id) {
            $0.completion = nil
            $0.observers = []
        }
        if let completion {
            if let worker, worker == thread {
                pushFrame(closureFrame(completion, kind: .completion(id), parameter: nil))
            } else {
                _ = createThread(name: world.heap[id].name + ".completion", closure: completion, kind: .completion(id), parameter: nil)
            }
        } else if let worker, worker == thread, observers.isEmpty {
            state.isFinished = true
        }
        // Key-value observers hear isFinished change on the thread that changed it,
        // first observer first.
        for observer in observers.reversed() { pushFrame(closureFrame(observer, kind: .observer(id), parameter: nil)) }
        if !observers.isEmpty {
            appendToLastEvent("isFinished of \(world.heap[id].name) changes, so its observer runs on this thread, \(threadName)")
        }
        if let group = op.group { leaveGroup(group, byCall: false) }
        // The queue let go of it (an operation started by hand was never held by one).
        if op.queue != nil { release(.object(id)) }
        startReadyOperations()
    }
}
