/// NSOperation-style operations and queues. A queue starts each ready operation
/// (dependencies finished, or cancelled) in the order added, up to its concurrency
/// limit, on a worker thread of its own named after the operation.
extension Machine {
    func operation(_ id: ObjectID) -> OperationState? {
        if case .operation(let op) = world.heap[id].kind { return op }
        return nil
    }

    func queue(_ id: ObjectID) -> QueueState? {
        if case .queue(let q) = world.heap[id].kind { return q }
        return nil
    }

    mutating func updateOperation(_ id: ObjectID, _ change: (inout OperationState) -> Void) {
        guard case .operation(var op) = world.heap[id].kind else { return }
        change(&op)
        world.heap[id].kind = .operation(op)
    }

    mutating func updateQueue(_ id: ObjectID, _ change: (inout QueueState) -> Void) {
        guard case .queue(var q) = world.heap[id].kind else { return }
        change(&q)
        world.heap[id].kind = .queue(q)
    }

    func builtinProperty(_ id: ObjectID, _ field: String) -> Value? {
        if let op = operation(id) {
            switch field {
            case "isCancelled": return .bool(op.isCancelled)
            case "isFinished": return .bool(op.phase == .finished)
            case "isExecuting": return .bool(op.phase == .executing)
            case "isReady":
                // It reads the dependencies' states too: their finishing changes it.
                for dependency in op.dependencies { touch(.operation(dependency), .read) }
                return .bool(op.phase != .finished && isReady(op))
            case "isAsynchronous": return .bool(op.isAsynchronous)
            case "queuePriority": return .int(op.priority)
            case "qualityOfService": return .int(op.qualityOfService)
            case "name": return .string(world.heap[id].name)
            default: return nil
            }
        }
        if let q = queue(id) {
            switch field {
            case "isSuspended": return .bool(q.isSuspended)
            case "maxConcurrentOperationCount": return .int(q.maxConcurrent)
            case "operationCount": return .int(q.operations.count)
            default: return nil
            }
        }
        return nil
    }

    mutating func setBuiltinProperty(_ id: ObjectID, _ field: String, _ value: Value) {
        let name = world.heap[id].name
        switch (world.heap[id].kind, field, value) {
        case (.operation, "completionBlock", .closure(let closure)):
            updateOperation(id) { $0.completion = closure }
            advance()
            emit("sets the completion block of operation \(name)", Access(.operation(id), .write))
        case (.operation(let op), "queuePriority", .int(let priority)):
            guard (-8...8).contains(priority) else {
                fail(.type("queuePriority is .veryLow, .low, .normal, .high or .veryHigh (-8 to 8), not \(priority)"))
                return
            }
            guard op.phase == .created || op.phase == .pending else {
                fail(.type("operation \(name) has started: its queue priority no longer matters"))
                return
            }
            updateOperation(id) { $0.priority = priority }
            advance()
            emit("sets the queue priority of \(name) to \(priority)", Access(.operation(id), .write))
        case (.operation(let op), "qualityOfService", .int(let qos)) where (0...4).contains(qos):
            guard op.phase == .created || op.phase == .pending else {
                fail(.type("operation \(name) has started: set its quality of service before"))
                return
            }
            updateOperation(id) { $0.qualityOfService = qos }
            advance()
            emit("sets the quality of service of \(name) to \(Compiler.qualitiesOfService[qos])", Access(.operation(id), .write))
        case (.operation(let op), "name", .string(let newName)) where op.phase == .created && !newName.isEmpty:
            // Named before it runs: its thread takes the name.
            world.heap[id].name = newName
            advance()
            emit("names operation \(name) \(World.quoted(newName, elided: true))", Access(.operation(id), .write))
        case (.operation(let op), "isFinished", .bool(true)):
            guard canFinish(op, "\(name).isFinished = true") else { return }
            advance()
            finishOperation(id, how: "sets \(name).isFinished = true")
        case (.operation(let op), "isExecuting", .bool(false)) where op.isAsynchronous:
            advance()
            emit("sets \(name).isExecuting = false (it finishes when isFinished is set)", Access(.operation(id), .write))
        case (.queue, "isSuspended", .bool(let suspended)):
            updateQueue(id) { $0.isSuspended = suspended }
            advance()
            emit(suspended ? "suspends \(name)" : "resumes \(name)", Access(.queue(id), .write))
            startReadyOperations()
        case (.queue, "maxConcurrentOperationCount", .int(let max)) where max == -1 || max >= 1:
            updateQueue(id) { $0.maxConcurrent = max }
            advance()
            emit("sets \(name).maxConcurrentOperationCount = \(max)", Access(.queue(id), .write))
            startReadyOperations()
        default:
            if builtinProperty(id, field) != nil {
                fail(.type("cannot set \(name).\(field) to \(describe(value))"))
            } else {
                noSuchField(id, field)
            }
        }
    }

    mutating func executeMethod(_ name: String, argc: Int) {
        let arguments = Array(frame.slots.suffix(argc))
        let receiver = frame.slots[frame.slots.count - 1 - argc]
        guard let id = object(receiver, "calling \(name)()") else { return }
        if executeSynchronizerMethod(name, on: id, arguments) { return }
        let objectName = world.heap[id].name
        func done(_ text: String, _ accesses: [Access]) { returnFromMethod(argc: argc, text, accesses) }
        switch (world.heap[id].kind, name, arguments.count) {
        case (.operation, "cancel", 0):
            updateOperation(id) { $0.isCancelled = true }
            done("cancels operation \(objectName)", [Access(.operation(id), .write)])
            startReadyOperations()
        case (.operation, "addDependency", 1):
            guard let other = object(arguments[0], "addDependency"), self.operation(other) != nil else {
                if !world.halted { fail(.type("addDependency needs an operation")) }
                return
            }
            updateOperation(id) { $0.dependencies.append(other) }
            done("makes \(objectName) depend on \(world.heap[other].name)", [Access(.operation(id), .write)])
        case (.operation(let op), "start", 0):
            guard op.phase == .created else {
                fail(.crash("\(objectName).start(): the operation is in a queue or has started already, and Foundation raises an exception"))
                return
            }
            for dependency in op.dependencies { touch(.operation(dependency), .read) }
            guard isReady(op) else {
                fail(.crash("\(objectName).start(): the operation is not ready (a dependency has not finished), and Foundation raises an exception"))
                return
            }
            done("calls \(objectName).start(): it runs the operation here, on its own thread", [Access(.operation(id), .write)])
            guard begin(id) else { return }
            startMoreBlocks(id)
            if program.codes[op.closure!.code].parameterCount == 1 { retain(.object(id)) }
            pushFrame(closureFrame(op.closure!, kind: .started(id), parameter: .object(id)))
        case (.operation(let op), "finish", 0):
            guard canFinish(op, "\(objectName).finish()") else { return }
            frame.slots.removeLast()
            push(.none)
            advance()
            finishOperation(id, how: "calls \(objectName).finish()")
        case (.operation(let op), "addExecutionBlock", 1):
            guard case .closure(let closure) = arguments[0], op.phase == .created else {
                fail(.type(op.phase == .created ? "addExecutionBlock needs a closure" : "\(objectName) has started: blocks can be added only before"))
                return
            }
            updateOperation(id) { $0.moreBlocks.append(closure) }
            done("adds a block to \(objectName) (it runs beside the others)", [Access(.operation(id), .write)])
        case (.operation, "removeDependency", 1):
            guard let other = object(arguments[0], "removeDependency"), self.operation(other) != nil else {
                if !world.halted { fail(.type("removeDependency needs an operation")) }
                return
            }
            updateOperation(id) { $0.dependencies.removeAll { $0 == other } }
            done("makes \(objectName) no longer depend on \(world.heap[other].name)", [Access(.operation(id), .write)])
            startReadyOperations()
        case (.operation(let op), "addObserver(forKeyPath:)", 2):
            guard arguments[0] == .string("isFinished"), case .closure(let closure) = arguments[1] else {
                fail(.type("only isFinished can be observed here: op.addObserver(forKeyPath: \"isFinished\") { … }"))
                return
            }
            guard op.phase != .finished else {
                fail(.type("\(objectName) has finished already: its isFinished will not change again"))
                return
            }
            updateOperation(id) { $0.observers.append(closure) }
            done("observes \(objectName).isFinished (the observer runs on the thread that finishes it)", [Access(.operation(id), .write)])
        case (.operation, "waitUntilFinished", 0):
            if operation(id)!.phase == .finished {
                let waited = state.waiting != nil
                state.waiting = nil
                done(
                    waited ? "goes on: \(objectName) has finished" : "waits for \(objectName), which has already finished",
                    [Access(.operation(id), .read)])
            } else {
                state.waiting = .operation(id)
                emit("waits for operation \(objectName) to finish", Access(.operation(id), .read))
            }
        case (.queue, "async", 1), (.queue, "async(flags:)", 2), (.queue, "async(group:)", 2), (.queue, "async(group:flags:)", 3):
            guard case .closure(let closure) = arguments.last else {
                fail(.type("async needs a closure: queue.async { … }"))
                return
            }
            var group: ObjectID?
            if name.hasPrefix("async(group:") {
                guard case .object(let g) = arguments[0], case .group(var state) = world.heap[g].kind else {
                    fail(.type("async(group:) needs a dispatch group"))
                    return
                }
                guard state.entered < Int.max else {
                    fail(.crash("\(world.heap[g].name): entered too many times"))
                    return
                }
                state.entered += 1
                world.heap[g].kind = .group(state)
                group = g
            }
            let barrier = name.hasSuffix("flags:)")
            let opID = enqueueBlock(closure, on: id, barrier: barrier, group: group)
            var text: String {
                var text = "sends a \(barrier ? "barrier " : "")block to \(objectName) with async (it runs as \(world.heap[opID].name))"
                if let group { text += ", entering \(world.heap[group].name)" }
                if barrier && queue(id)!.isGlobal { text += "; a barrier on a global queue is an ordinary block" }
                return text
            }
            done(text, [Access(.queue(id), .write), Access(.operation(opID), .write)] + (group.map { [Access(.lock($0), .write)] } ?? []))
            startReadyOperations()
        case (.queue, "sync", 1), (.queue, "sync(flags:)", 2):
            if case .object(let opID) = arguments.last {
                // Woken: the block has run.
                state.waiting = nil
                done("goes on: the block it sent \(objectName) with sync has run", [Access(.operation(opID), .read)])
                return
            }
            guard case .closure(let closure) = arguments.last else {
                fail(.type("sync needs a closure: queue.sync { … }"))
                return
            }
            let barrier = name == "sync(flags:)"
            let opID = enqueueBlock(closure, on: id, barrier: barrier, group: nil)
            // The block's operation stands in the argument's place, for the step that goes on.
            frame.slots[frame.slots.count - 1] = .object(opID)
            state.waiting = .operation(opID)
            emit(
                "sends a \(barrier ? "barrier " : "")block to \(objectName) with sync (as \(world.heap[opID].name)) and waits for it to run",
                [Access(.queue(id), .write), Access(.operation(opID), .write)])
            startReadyOperations()
        case (.queue, "addOperation", 1):
            var opID: ObjectID
            switch arguments[0] {
            case .closure(let closure):
                opID = newObject(.operation(OperationState(closure: closure)), classIndex: nil, typeName: "op")
            default:
                guard let other = object(arguments[0], "addOperation") else { return }
                opID = other
            }
            guard let op = operation(opID), op.phase == .created else {
                fail(
                    .type(
                        operation(opID) == nil
                            ? "addOperation needs an operation or a closure"
                            : "operation \(world.heap[opID].name) was already added to a queue"))
                return
            }
            enqueue(opID, on: id)
            done("adds operation \(world.heap[opID].name) to \(objectName)", [Access(.queue(id), .write), Access(.operation(opID), .write)])
            startReadyOperations()
        case (.queue, "cancelAllOperations", 0):
            for op in queue(id)!.operations {
                updateOperation(op) { $0.isCancelled = true }
                touch(.operation(op), .write)
            }
            done("cancels every operation in \(objectName)", [Access(.queue(id), .write)])
            startReadyOperations()
        case (.queue, "waitUntilAllOperationsAreFinished", 0):
            if queue(id)!.operations.isEmpty {
                let waited = state.waiting != nil
                state.waiting = nil
                done(waited ? "goes on: \(objectName) is empty" : "waits for \(objectName), which is already empty", [Access(.queue(id), .read)])
            } else {
                state.waiting = .queue(id)
                emit("waits for every operation in \(objectName) to finish", Access(.queue(id), .read))
            }
        default:
            fail(.type("\(objectName) has no method \(name)() taking \(arguments.count) argument\(arguments.count == 1 ? "" : "s")"))
        }
    }

    /// A method that returns nothing is done: its receiver and arguments leave the
    /// stack, and the step says what it did.
    mutating func returnFromMethod(argc: Int, _ text: String, _ accesses: [Access]) {
        frame.slots.removeLast(argc + 1)
        push(.none)
        advance()
        emit(text, accesses)
    }

    mutating func appendToLastEvent(_ text: String) {
        if log.emitted == 0 {
            emit(text)
        } else if log.narrate {
            log.events[log.events.count - 1].text += "; " + text
        }
    }

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
                    }.map(\.element)
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
