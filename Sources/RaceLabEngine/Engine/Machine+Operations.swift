/// NSOperation-style operations and queues, and dispatch queues: their properties and
/// their methods. How an operation joins a queue, starts, runs and finishes is in
/// Machine+OperationLifecycle.
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
            setBeforeStart(id, op, "queue priority", to: "\(priority)") { $0.priority = Int(priority) }
        case (.operation(let op), "qualityOfService", .int(let qos)) where (0...4).contains(qos):
            setBeforeStart(id, op, "quality of service", to: Compiler.qualitiesOfService[Int(qos)]) { $0.qualityOfService = Int(qos) }
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
        case (.queue, "maxConcurrentOperationCount", .int(let wide)) where wide == -1 || (1...Int64(Int32.max)).contains(wide):
            let max = Int(wide)
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

    /// A setting that matters only until the operation starts (its queue priority, its
    /// quality of service): set now, or a finding if it has started.
    mutating func setBeforeStart(_ id: ObjectID, _ op: OperationState, _ what: String, to value: String, _ change: (inout OperationState) -> Void) {
        let name = world.heap[id].name
        guard op.phase == .created || op.phase == .pending else {
            fail(.type("operation \(name) has started: set its \(what) before it starts"))
            return
        }
        updateOperation(id, change)
        advance()
        emit("sets the \(what) of \(name) to \(value)", Access(.operation(id), .write))
    }

    mutating func executeMethod(_ name: String, argc: Int, orderings: Int = 0) {
        let arguments = Array(frame.slots.suffix(argc))
        let receiver = frame.slots[frame.slots.count - 1 - argc]
        guard let id = object(receiver, name == "onTermination" ? "setting onTermination" : "calling \(name)()") else { return }
        if let classIndex = world.heap[id].classIndex, program.classes[classIndex].isActor || program.classes[classIndex].isMainActor,
            let method = program.classes[classIndex].methods[name]
        {
            // A method of the script's own (an actor's, a `@MainActor` class's): a call,
            // with the object as self.
            guard program.codes[method].parameterCount == argc + 1 else {
                let expected = program.codes[method].parameterCount - 1
                fail(.type("\(program.codes[method].name) takes \(expected) argument\(expected == 1 ? "" : "s"), not \(argc)"))
                return
            }
            execute(.call(function: method, argc: argc + 1))
            return
        }
        if executeMemoryMethod(name, on: id, argc: argc) { return }
        if executeSynchronizerMethod(name, on: id, arguments, orderings: AtomicOrderings(code: orderings)) { return }
        let objectName = world.heap[id].name
        func done(_ text: String, _ accesses: [Access]) { returnFromMethod(argc: argc, text, accesses) }
        switch (world.heap[id].kind, name, arguments.count) {
        case (.stream, "yield", 1):
            yieldToStream(id, arguments[0])
        case (.stream, "finish", 0):
            finishStream(id)
        case (.stream, "onTermination", 1):
            setOnTermination(id, arguments[0])
        case (.continuation, "resume", 0), (.continuation, "resume(returning:)", 1):
            resumeContinuation(id, value: arguments.first ?? .none, argc: argc)
        case (.continuation, "resume(throwing:)", 1):
            resumeContinuation(id, value: arguments[0], argc: argc, throwing: true)
        case (.task, "cancel", 0):
            // The receiver is on the stack: `taskOperation` pops it and pushes nil.
            taskOperation(.cancel)
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
}
