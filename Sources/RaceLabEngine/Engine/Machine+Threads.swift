extension Machine {
    /// A thread name not yet taken: `worker`, then `worker#2`, `worker#3`.
    /// `name`, or `name#n` with the smallest n ≥ 2 that no thread has.
    /// - Complexity: O(threads), one pass over the names.
    func uniqueThreadName(_ name: String) -> String {
        let prefix = name + "#"
        var taken = false
        var used = Set<Int>()
        for other in world.threadNames {
            if other == name {
                taken = true
            } else if other.hasPrefix(prefix), let n = Int(other.dropFirst(prefix.count)) {
                used.insert(n)
            }
        }
        guard taken else { return name }
        var n = 2
        while used.contains(n) { n += 1 }
        return "\(name)#\(n)"
    }

    /// A frame that runs a closure. The closure's captured references move into the
    /// frame's locals; they are released when the frame returns.
    func closureFrame(_ closure: ClosureValue, kind: Frame.Kind, parameter: Value?) -> Frame {
        let code = program.codes[closure.code]
        var frame = Frame(code: closure.code, localCount: code.localCount, kind: kind)
        for (slot, value) in zip(code.captureSlots, closure.captures) { frame.slots[slot] = value }
        if code.parameterCount == 1, let parameter { frame.slots[0] = parameter }
        return frame
    }

    /// Starts a new thread running a closure; it is normalized at once.
    mutating func createThread(name: String, closure: ClosureValue, kind: Frame.Kind, parameter: Value?, operation: ObjectID? = nil) -> ThreadID {
        if let parameter, program.codes[closure.code].parameterCount == 1 { retain(parameter) }
        let frame = closureFrame(closure, kind: kind, parameter: parameter)
        let id = world.addThread(name: uniqueThreadName(name), frames: [frame], operation: operation)
        touch(.allocator, .write)
        runThread(id) { $0.normalize() }
        return id
    }

    /// - Parameter thrown: the value is an error the code throws (`rethrow`).
    mutating func returnFromFrame(thrown: Bool = false) {
        let value = pop()
        let finished = frame
        // The locals that hold references (most hold none: then nothing is built).
        var owned: [Value] = []
        for (slot, isTemp) in zip(finished.slots, code.localIsTemp) where !isTemp && slot.hasReferences { owned.append(slot) }
        // Under manual memory a frame's locals hold no counts: returning releases nothing.
        let released = program.manualMemory ? [] : owned.flatMap({ $0.references })
        // A release changes the retain count; deallocating (when it is the last) writes
        // the object, and says so itself.
        let accesses = released.map { Access(.count($0), .write) }
        var releasing: String {
            released.isEmpty ? "" : " and releases " + released.map { world.heap[$0].name }.joined(separator: ", ")
        }
        let name = program.codes[finished.code].name
        popFrame()
        if thrown {
            switch finished.kind {
            case .call:
                push(.none)
                let hop = returnHop.map { ": " + $0.text } ?? ""
                emit("throws \(describe(value)) out of \(name)\(releasing)\(hop)", (returnHop?.accesses ?? []) + accesses)
                returnHop = nil
                // The caller takes it at once (`catchThrown`), or the compiler missed a call.
                guard case .catchThrown = code.instructions[frame.pc] else {
                    fail(.type("\(name) threw \(describe(value)), and the call does not catch it: a call that throws is marked 'try'"))
                    return
                }
                state.thrown = value
            case .task:
                break
            default:
                // Nothing catches it: Swift's top-level code traps.
                crash("Fatal error: Error raised at top level: \(describe(value))")
                return
            }
        }
        switch finished.kind {
        case .call where thrown: break
        case .call:
            push(value)
            if let hop = returnHop {
                returnHop = nil
                emit("returns from \(program.codes[finished.code].name)\(releasing): \(hop.text)", hop.accesses + accesses)
            } else if !released.isEmpty {
                emit("returns from \(program.codes[finished.code].name)\(releasing)", accesses)
            }
        case .deinitializer(let id):
            emit("finishes the deinit of \(world.heap[id].name)", Access(.object(id), .write))
            free(id)
            // A deinit run after the thread's code ended is the last thing it does.
            if state.frames.isEmpty && !state.isMain { state.isFinished = true }
        case .body:
            if !state.isMain {
                state.isFinished = true
                emit("finishes\(releasing)", accesses)
            } else if let actor = state.executor, world.headers[actor].owner == thread {
                // Main's code is a job on the main actor: it ends here.
                let (text, access) = leaveActor(actor)
                state.executor = nil
                emit("finishes its code\(releasing); \(text)", accesses + [access])
            } else if !released.isEmpty || log.emitted == 0 {
                // Main goes on (it runs the main queue's blocks); a step with nothing
                // else to say says this, so no step goes untold.
                emit("finishes its code\(releasing)", accesses)
            }
        case .mainBlock(let block):
            world.completedBlocks.insert(block)
            let waiter = world.threads.firstIndex { $0.waiting == .mainBlock(block) }
            var note = waiter.map { "; \(world.threadNames[$0]), waiting in main.sync, can go on" } ?? ""
            var all = [Access(.mainQueue, .write)] + accesses
            if let actor = state.executor, world.headers[actor].owner == thread {
                let (text, access) = leaveActor(actor)
                state.executor = nil
                note += "; " + text
                all.append(access)
            }
            emit("finishes the main-queue block\(note)\(releasing)", all)
        case .operation(let op), .started(let op):
            emit(operationReturnText(op, started: finished.kind == .started(op), releasing: releasing), [Access(.operation(op), .write)] + accesses)
        case .completion:
            state.isFinished = true
            emit("finishes\(releasing)", accesses)
        case .task(let handle):
            taskReturned(handle, value: value, releasing: releasing, accesses: accesses, thrown: thrown)
        case .cancellationHandler(let handle):
            emit("returns from \(world.heap[handle].name)'s cancellation handler\(releasing)", accesses)
        case .terminationHandler(let stream):
            let note = handEnd(stream)
            emit(
                "returns from \(world.heap[stream].name)'s onTermination handler\(note)\(releasing)",
                accesses + [Access(.operation(stream), .write)])
        case .observer(let op):
            let last = state.frames.isEmpty && !state.isMain
            if last { state.isFinished = true }
            emit("returns from observing \(world.heap[op].name).isFinished" + (last ? " and finishes" : "") + releasing, accesses)
        }
        if finished.kind == .call { protected = value.references }
        for local in owned { release(local) }
        protected = []
        switch finished.kind {
        case .operation(let op): operationCodeReturned(op, started: false)
        case .started(let op): operationCodeReturned(op, started: true)
        default: break
        }
    }

    mutating func startNextMainBlock() {
        let block = world.mainQueue.removeFirst()
        range = program.codes[block.closure.code].ranges.first ?? nil
        pushFrame(closureFrame(block.closure, kind: .mainBlock(block.id), parameter: nil))
        let sender = world.threadNames[block.sender]
        var accesses = [Access(.mainQueue, .write)]
        if let actor = world.mainActor {
            // The block runs on the main actor (`Engine.isRunnable` waited for it).
            world.headers[actor].owner = thread
            world.headers[actor].depth = 1
            state.executor = actor
            accesses.append(Access(.queue(actor), .write))
        }
        emit("takes the next block from the main queue (sent by \(sender)) and runs it", accesses)
    }

    mutating func dispatchToMain(sync: Bool) {
        if case .mainBlock = state.waiting {
            state.waiting = nil
            push(.none)
            advance()
            emit("goes on: main has run its block", Access(.mainQueue, .read))
            return
        }
        guard case .closure(let closure) = pop() else { return }
        let id = world.nextBlockID
        world.nextBlockID += 1
        world.mainQueue.append(QueuedBlock(id: id, closure: closure, sender: thread))
        if sync {
            state.waiting = .mainBlock(id)
            emit("sends a block to the main queue with main.sync and waits for main to run it", Access(.mainQueue, .write))
        } else {
            push(.none)
            advance()
            emit("sends a block to the main queue with main.async", Access(.mainQueue, .write))
        }
    }

    /// `runThread`, returning what `body` returns.
    func runThreadReturning<T>(_ id: ThreadID, _ body: (inout Machine) -> T) -> T {
        var result: T?
        runThread(id) { result = body(&$0) }
        return result!
    }

    /// Takes a lock (or a synchronized token's mutex), or blocks if another thread
    /// holds it. A re-entrant mutex may be taken again by its holder. `verb` names the
    /// act from the lock's name (called only when narrating).
    mutating func acquire(_ id: ObjectID, reentrant: Bool, verb: (_ name: String) -> String) {
        let owner = world.headers[id].owner
        // Names only for the sentences, which are built only when narrating.
        var name: String { world.heap[id].name }
        if world.headers[id].canBeTaken(by: thread, reentrant: reentrant) {
            let waited = state.waiting != nil
            state.waiting = nil
            world.headers[id].owner = thread
            world.headers[id].depth += 1
            _ = pop()
            advance()
            let depth = world.headers[id].depth
            emit(
                verb(name) + (waited ? " (it was woken: \(name) is free)" : "") + (depth > 1 ? ", again (depth \(depth))" : ""),
                Access(.lock(id), .acquire))
        } else {
            state.waiting = .lock(id, reentrant: reentrant)
            var holder: String { owner == thread ? "itself: \(name) is not re-entrant" : world.threadNames[owner!] }
            emit("blocks on \(name), held by \(holder)", Access(.lock(id), .read))
        }
    }

    mutating func unlock(_ id: ObjectID, verb: (_ name: String) -> String) {
        var name: String { world.heap[id].name }
        guard world.headers[id].owner == thread else {
            let holder = world.headers[id].owner.map { "held by \(world.threadNames[$0])" } ?? "not locked"
            fail(.type("\(threadName) unlocks \(name), which it does not hold (\(holder))"))
            return
        }
        world.headers[id].depth -= 1
        let freed = world.headers[id].depth == 0
        if freed { world.headers[id].owner = nil }
        func text() -> String {
            let woken = world.threads.indices.filter {
                if case .lock(id, _) = world.threads[$0].waiting { return true }
                return false
            }.map { world.threadNames[$0] }
            if !freed { return verb(name) + ", still holding it (depth \(world.headers[id].depth))" }
            return verb(name) + (woken.isEmpty ? "" : "; this wakes \(woken.joined(separator: ", "))")
        }
        emit(text(), Access(.lock(id), .release))
    }
}
