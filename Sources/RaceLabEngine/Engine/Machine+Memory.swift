/// Reference counting: every strong reference held by a global, a field, an array
/// element, a local or a closure's capture counts. When the count reaches zero the
/// object is deallocated on the thread that released it, and its deinit runs there.
extension Machine {
    mutating func retain(_ value: Value) {
        // Under manual memory only retain() counts (`Machine+ManualMemory`).
        guard !program.manualMemory else { return }
        switch value {
        case .object(let id): retain(object: id)
        case .array, .closure, .dictionary, .set: for id in value.references { retain(object: id) }
        default: break
        }
    }

    mutating func retain(object id: ObjectID) {
        world.headers[id].retainCount += 1
        touch(.count(id), .write)
    }

    /// Releases the references a value holds. Objects in `keepAlive` may reach zero
    /// without being deallocated: they are being handed to the caller.
    mutating func release(_ value: Value, keepAlive: [ObjectID] = []) {
        guard !program.manualMemory else { return }
        switch value {
        case .object(let id): release(object: id, keepAlive: keepAlive)
        case .array, .closure, .dictionary, .set: for id in value.references { release(object: id, keepAlive: keepAlive) }
        default: break
        }
    }

    mutating func release(object id: ObjectID, keepAlive: [ObjectID]) {
        touch(.count(id), .write)
        let before = world.headers[id].retainCount
        world.headers[id].retainCount -= 1
        if before == 1 && world.headers[id].isAlive && !keepAlive.contains(id) && !protected.contains(id) {
            deallocate(id) { "releases the last reference to \($0), which is deallocated" }
        }
    }

    /// Deallocates an object. `reason` starts the sentence from the object's name; it
    /// is called only when narrating.
    mutating func deallocate(_ id: ObjectID, reason: (_ name: String) -> String) {
        let classIndex = world.heap[id].classIndex
        let hasDeinit = classIndex.flatMap { program.classes[$0].deinitCode } != nil
        let wrongThread = classIndex.map { program.classes[$0].mainThreadOnly } == true && !onMainThread
        func text() -> String {
            var text = reason(world.heap[id].name)
            if hasDeinit { text += "; its deinit runs on \(threadName)" }
            if wrongThread { text += hasDeinit ? ", not on main" : " on \(threadName), not on main" }
            return text
        }
        emit(text(), Access(.object(id), .write))
        world.headers[id].deallocatedOn = thread
        if program.manualMemory { world.headers[id].deallocatedIn = frame.code }
        if wrongThread {
            let object = world.heap[id]
            report(
                .mainThread,
                "deinit \(object.name) runs on \(threadName), not main: \(program.classes[classIndex!].name) is main-thread-only, but \(threadName) released the last reference"
            )
        }
        if hasDeinit {
            pendingDeinits.append(id)
        } else {
            free(id)
        }
    }

    /// Marks an object dead and releases everything it holds.
    ///
    /// Iterative, with the same order as the recursive definition (depth first: all
    /// that the first held object frees goes before the second is released): the held
    /// objects are pushed on `pendingReleases` in reverse, and only the outermost
    /// `free` drains the stack. So a long chain of objects costs no stack.
    /// Every object some thread's frames hold (the running one's too), counted or
    /// not: what a value handed over but not stored yet may be held by.
    var heldInFrames: Set<ObjectID> {
        Set(frame.slots.flatMap({ $0.references }) + world.threads.flatMap { $0.frames.flatMap { $0.slots.flatMap({ $0.references }) } })
    }

    mutating func free(_ id: ObjectID) {
        touch(.allocator, .write)
        world.headers[id].isAlive = false
        continuationFreed(id)
        let fields = world.heap[id].fields
        // Only an object with fields is written: writing copies the heap when it is shared.
        if !fields.isEmpty { world.heap[id].fields = fields.map { _ in .none } }
        var held: [ObjectID] = []
        if case .operation(let op) = world.heap[id].kind {
            if let c = op.closure { held += Value.closure(c).references }
            if let c = op.completion { held += Value.closure(c).references }
            for c in op.moreBlocks + op.observers { held += Value.closure(c).references }
        }
        var handed: [ObjectID] = []
        if case .task(let task) = world.heap[id].kind { handed = task.value.references }
        if case .continuation(let continuation) = world.heap[id].kind { handed = continuation.value.references }
        held += handed
        if case .taskGroup(let group) = world.heap[id].kind { held += group.children }
        if case .stream(let stream) = world.heap[id].kind {
            held += stream.buffer.flatMap({ $0.references }) + stream.handed.flatMap({ $0.value.references })
            if let handler = stream.onTermination { held += Value.closure(handler).references }
        }
        if case .group(let group) = world.heap[id].kind {
            for notification in group.notifications { held += Value.closure(notification.closure).references }
        }
        for field in fields { held += field.references }
        // Under manual memory a dealloc releases what it holds only if it says so.
        if program.manualMemory { held = [] }
        pendingReleases.append(contentsOf: held.reversed())
        let saved = protected
        if !handed.isEmpty {
            // A task's value, or a continuation's, lives on (uncounted, as a fresh object
            // is) when code holds it on its stack, handed over already, or will take it:
            // a task suspended on the continuation holds the continuation itself there,
            // and the runtime moved the value into that task when it was resumed.
            let held = heldInFrames
            protected += held.contains(id) ? handed : handed.filter(held.contains)
        }
        guard !drainingReleases else { return }
        drainingReleases = true
        while let next = pendingReleases.popLast() { release(object: next, keepAlive: []) }
        drainingReleases = false
        protected = saved
    }

    /// Pushes a deinit frame for each object that reached zero during the last instruction.
    mutating func runPendingDeinits() {
        while let id = pendingDeinits.popLast() {
            guard let code = world.heap[id].classIndex.flatMap({ program.classes[$0].deinitCode }) else { continue }
            var deinitFrame = Frame(code: code, localCount: program.codes[code].localCount, kind: .deinitializer(id))
            deinitFrame.slots[0] = .object(id)
            pushFrame(deinitFrame)
            // The last release may be the thread's own ending (its locals released as
            // its code returns): it is not finished until the deinit has run.
            state.isFinished = false
        }
    }

    /// The built-in types whose objects are numbered apart (`World.builtinsNamed`).
    static let builtinTypeNames = ["Lock", "OperationQueue", "op", "Semaphore", "Condition", "Group", "Atomic"]

    /// A new heap object, named `MySingle#3` (the third of its class) unless named.
    /// - Complexity: O(1) amortized: the numbers are counted as objects are made, not
    ///   by scanning the heap.
    mutating func newObject(_ kind: HeapObject.Kind, classIndex: Int?, typeName: String, name: String? = nil) -> ObjectID {
        var number = 1
        if let classIndex {
            number = world.created[classIndex] + 1
        } else if let kind = Self.builtinTypeNames.firstIndex(of: typeName) {
            // A given name counts when it reads like a numbered one, as a scan would count it.
            if name == nil || name!.hasPrefix(typeName + "#") { world.builtinsNamed[kind] += 1 }
            number = world.builtinsNamed[kind]
        }
        var object = HeapObject(kind: kind, classIndex: classIndex, name: name ?? "\(typeName)#\(number)")
        if let classIndex {
            object.fields = program.classes[classIndex].fieldDefaults
            object.fieldVersions = object.fields.map { _ in 0 }
            world.created[classIndex] += 1
        }
        world.heap.append(object)
        var header = ObjectHeader()
        // Under manual memory, alloc hands the maker its one reference.
        if program.manualMemory { header.retainCount = 1 }
        world.headers.append(header)
        touch(.allocator, .write)
        return world.heap.count - 1
    }

    mutating func allocateInstance(_ classIndex: Int, fields: [Int]) {
        let values = Array(frame.slots.suffix(fields.count))
        frame.slots.removeLast(fields.count)
        // An Operation subclass's instance is an operation, its code the class's
        // main() (or start()), called with the operation as self.
        var kind = HeapObject.Kind.instance
        if program.classes[classIndex].isActor {
            kind = .actor(mailbox: [])
        } else if let subclass = program.classes[classIndex].operation {
            var state = OperationState(closure: ClosureValue(code: subclass.code, captures: []))
            state.isAsynchronous = subclass.isAsynchronous
            kind = .operation(state)
        }
        let id = newObject(kind, classIndex: classIndex, typeName: program.classes[classIndex].name)
        for (field, value) in zip(fields, values) {
            retain(value)
            world.heap[id].fields[field] = value
        }
        push(.object(id))
        advance()
        emit("creates \(world.heap[id].name)", Access(.object(id), .write))
    }

    /// A main-thread-only object written to (or changed) off the main thread.
    mutating func checkMainThreadOnly(_ id: ObjectID, _ what: String) {
        guard let classIndex = world.heap[id].classIndex, program.classes[classIndex].mainThreadOnly, !onMainThread else { return }
        report(.mainThread, "\(threadName) \(what) off the main thread: \(program.classes[classIndex].name) is main-thread-only")
    }
}
