extension Machine {
    /// The object a value refers to, or nil after reporting why it cannot be used.
    mutating func object(_ value: Value, _ purpose: String) -> ObjectID? {
        switch value {
        case .object(let id):
            guard world.headers[id].isAlive else {
                crash(useAfterFree(id, purpose))
                return nil
            }
            return id
        case .none:
            crash("unexpectedly found nil (\(purpose))")
            return nil
        default:
            fail(.type("\(purpose) needs an object, not \(value.typeName)"))
            return nil
        }
    }

    func fieldIndex(_ id: ObjectID, _ field: String) -> Int? {
        guard let classIndex = world.heap[id].classIndex else { return nil }
        return program.classes[classIndex].fieldNames.firstIndex(of: field)
    }

    /// A read of a shared place ("reads …"). Reading a weak reference reads its
    /// object's lifetime too: whether it is still there depends on every thread that
    /// releases it. (One access needs no array: reads are the commonest step.)
    func emitRead(_ what: @autoclosure () -> String, _ access: Access, _ value: Value) {
        if case .weak(let id) = value {
            emit("reads " + what(), [access, Access(.object(id), .read)])
        } else {
            emit("reads " + what(), access)
        }
    }

    /// What a weak place (`what`) stores for a value: the object as a weak reference,
    /// or nil; anything else is a finding.
    mutating func weakReference(to value: Value, _ what: String) -> Value? {
        switch world.resolve(value) {
        case .object(let id): return .weak(id)
        case .none: return Value.none
        default:
            fail(.type("\(what) is weak: it holds an object or nil, not \(value.typeName)"))
            return nil
        }
    }

    /// An access to a shared variable, marked if it is `atomic`.
    func globalAccess(_ g: Int, _ kind: Access.Kind) -> Access {
        Access(.global(g), kind, atomic: program.globals[g].isAtomic)
    }

    /// An access to a field (or, for a negative index, a built-in property), marked
    /// if it is `atomic`.
    ///
    /// An actor's field is marked too: it is read and written only in a job on the
    /// actor, which orders every such access (it is never part of a data race).
    func fieldAccess(_ id: ObjectID, _ index: Int, _ kind: Access.Kind) -> Access {
        guard index >= 0, let classIndex = world.heap[id].classIndex else { return Access(.field(id, index), kind) }
        return Access(.field(id, index), kind, atomic: program.classes[classIndex].fieldIsAtomic[index] || program.classes[classIndex].isActor)
    }

    /// " atomically" for an access to an `atomic` variable or field (an actor's
    /// isolated field is not: see `fieldAccess`).
    func atomically(_ access: Access, _ id: ObjectID? = nil) -> String {
        guard access.isAtomic, id.map({ !isActor($0) }) ?? true else { return "" }
        return " atomically"
    }

    /// The actor whose field an instruction reads or changes (its object operand),
    /// if it is an actor's.
    func isolatedFieldObject(_ instruction: Instruction) -> ObjectID? {
        guard state.executor != nil else { return nil }
        let depth: Int
        switch instruction {
        case .load, .arrayProperty, .iterate: depth = 0
        case .store, .readElement, .contains: depth = 1
        case .writeElement: depth = 2
        case .arrayMutation(_, let mutation):
            let operands: [ArrayMutation] = [.append, .removeAt, .removeValue, .insertMember, .removeMember]
            depth = mutation == .insert ? 2 : operands.contains(mutation) ? 1 : 0
        default: return nil
        }
        guard frame.slots.count - frame.localCount > depth, case .object(let id) = peek(depth), isActor(id) else { return nil }
        return id
    }

    mutating func noSuchField(_ id: ObjectID, _ field: String) {
        let object = world.heap[id]
        let kind =
            object.classIndex.map { program.classes[$0].name }
            ?? {
                switch object.kind {
                case .lock: return "Lock"
                case .semaphore: return "DispatchSemaphore"
                case .condition: return "NSCondition"
                case .group: return "DispatchGroup"
                case .atomic: return "Atomic"
                case .operation: return "Operation"
                case .queue: return "OperationQueue"
                case .actor: return "MainActor"
                case .task: return "Task"
                case .continuation: return "CheckedContinuation"
                case .stream: return "AsyncStream"
                case .taskGroup: return "TaskGroup"
                case .instance: return "object"
                }
            }()
        fail(.type("\(kind) has no field '\(field)'"))
    }

    mutating func load(_ place: Place) {
        switch place {
        case .local(let slot):
            execute(.loadLocal(slot))
        case .global(let g):
            let value = world.globals[g]
            push(world.resolve(value))
            advance()
            if !program.globals[g].isLet {
                let access = globalAccess(g, .read)
                emitRead("\(program.globals[g].name)\(access.isAtomic ? " atomically" : ""): \(describe(value))", access, value)
            }
            if case .weak = value { useWeakReferenceAtOnce() }
        case .field(let nameIndex):
            let field = program.names[nameIndex]
            guard let id = object(pop(), "reading .\(field)"), !refusesOutsideAccess(id, field) else { return }
            let name = world.heap[id].name
            let value: Value
            let slot: Int
            if let index = fieldIndex(id, field) {
                value = world.heap[id].fields[index]
                slot = index
            } else if let builtin = builtinProperty(id, field) {
                value = builtin
                slot = Access.builtinField(field)
            } else {
                noSuchField(id, field)
                return
            }
            push(world.resolve(value))
            advance()
            // An operation's or a queue's state (isFinished, isCancelled, operationCount)
            // is kept under the object's own lock, as Foundation keeps it: reading it
            // synchronizes with what set it (`isFinished` true orders the work before).
            let access: Access
            switch (slot < 0, world.heap[id].kind) {
            case (true, .operation): access = Access(.operation(id), .read)
            case (true, .queue): access = Access(.queue(id), .read)
            default: access = fieldAccess(id, slot, .read)
            }
            emitRead("\(name).\(field)\(atomically(access, id)): \(describe(value))", access, value)
            if case .weak = value { useWeakReferenceAtOnce() }
        }
    }

    mutating func store(_ place: Place) {
        switch place {
        case .local(let slot):
            execute(.storeLocal(slot))
        case .global(let g):
            var value = pop()
            if program.globals[g].isWeak {
                guard let weak = weakReference(to: value, program.globals[g].name) else { return }
                value = weak
            }
            let old = world.globals[g]
            retain(value)
            world.globals[g] = value
            world.globalVersions[g] += 1
            advance()
            if world.stepCount == 0, case .object(let id) = value, world.heap[id].name.contains("#") {
                world.heap[id].name = program.globals[g].name
            }
            let access = globalAccess(g, .write)
            emit("writes \(program.globals[g].name) = \(describe(value))\(access.isAtomic ? " atomically" : "")", access)
            release(old)
        case .field(let nameIndex):
            let field = program.names[nameIndex]
            let value = pop()
            guard let id = object(pop(), "writing .\(field)"), !refusesOutsideAccess(id, field) else { return }
            checkMainThreadOnly(id, "writes \(world.heap[id].name).\(field)")
            if let index = fieldIndex(id, field) {
                // An init sets its own object's `let` fields.
                let initializing = code.isInitializer && frame.slots.first == .object(id)
                if program.classes[world.heap[id].classIndex!].fieldIsLet[index] && !initializing {
                    fail(.type("cannot assign to '\(field)': it is a 'let' field"))
                    return
                }
                var value = value
                if program.classes[world.heap[id].classIndex!].fieldIsWeak[index] {
                    guard let weak = weakReference(to: value, "\(world.heap[id].name).\(field)") else { return }
                    value = weak
                }
                let old = world.heap[id].fields[index]
                retain(value)
                world.heap[id].fields[index] = value
                world.heap[id].fieldVersions[index] += 1
                advance()
                let access = fieldAccess(id, index, .write)
                emit("writes \(world.heap[id].name).\(field) = \(describe(value))\(atomically(access, id))", access)
                release(old)
            } else {
                setBuiltinProperty(id, field, value)
            }
        }
    }

    /// Reads the array at a place: its items, how to name it, and the shared access
    /// (nil for a thread's own locals).
    mutating func readArray(_ place: Place) -> (items: ArrayValue, what: String, access: Access?, kind: CollectionKind)? {
        let value: Value, what: String, access: Access?
        switch place {
        case .local(let slot):
            (value, what, access) = (frame.slots[slot], code.localNames[slot], nil)
        case .global(let g):
            let shared = !program.globals[g].isLet
            (value, what, access) = (world.globals[g], program.globals[g].name, shared ? globalAccess(g, .read) : nil)
        case .field(let nameIndex):
            let field = program.names[nameIndex]
            guard let id = object(pop(), "reading .\(field)"), !refusesOutsideAccess(id, field) else { return nil }
            guard let index = fieldIndex(id, field) else {
                noSuchField(id, field)
                return nil
            }
            (value, what, access) = (world.heap[id].fields[index], "\(world.heap[id].name).\(field)", fieldAccess(id, index, .read))
        }
        switch Operators.collection(value, what) {
        case .success(let (items, kind)): return (items, what, access, kind)
        case .failure(let failure):
            fail(failure)
            return nil
        }
    }

    /// Changes an array in place and returns the elements it removed (or fails, leaving it unchanged).
    /// The items are of a collection of the given kind.
    typealias Transform = (inout ArrayValue, String, CollectionKind) -> Result<[Value], Operators.Failure>

    /// Applies a change to the array at a place. Pushes the removed element (or nil)
    /// unless `pushes` is false.
    ///
    /// Only what changed is retained or released (`added`, and the removed elements),
    /// and a local array is taken out of its slot while it changes, so appending to an
    /// array of n elements costs O(1), not O(n): a loop that grows a local array is
    /// linear. `text` builds the sentence (from the new elements) only when narrating.
    mutating func mutateArray(
        _ place: Place, verb: String, pushes: Bool = true, added: [Value], _ transform: Transform,
        text: (Machine, String, Value) -> String
    ) {
        var objectID: ObjectID?
        if case .field(let nameIndex) = place {
            let field = program.names[nameIndex]
            guard let id = object(peek(), "changing .\(field)") else { return }
            objectID = id
            checkMainThreadOnly(id, "changes \(world.heap[id].name).\(field)")
            if world.halted { return }
            push(.object(id))
        }
        guard let read = readArray(place) else { return }
        var items = read.items
        let (what, kind) = (read.what, read.kind)
        func wrapped(_ items: ArrayValue) -> Value { kind.wrap(items) }
        // At most this heavy afterwards (a replaced element is not subtracted).
        guard withinBudget(added.reduce(items.weight) { $0 &+ $1.weight }) else { return }
        // The place's own reference goes, so that `items` is the array's only holder.
        var fieldSlot: Int?
        switch place {
        case .local(let slot): frame.slots[slot] = .none
        case .global(let g): world.globals[g] = .none
        case .field(let nameIndex):
            fieldSlot = fieldIndex(objectID!, program.names[nameIndex])
            if let fieldSlot { world.heap[objectID!].fields[fieldSlot] = .none }
        }
        let removed: [Value]
        switch transform(&items, what, kind) {
        case .success(let r): removed = r
        case .failure(let failure):
            fail(failure)
            // The mutation that stopped the program was a write all the same: one
            // that races with another thread's (two `removeLast()` of one element).
            switch place {
            case .local(let slot): frame.slots[slot] = wrapped(items)
            case .global(let g):
                world.globals[g] = wrapped(items)
                log.accesses.append(globalAccess(g, .write))
            case .field:
                if let fieldSlot {
                    world.heap[objectID!].fields[fieldSlot] = wrapped(items)
                    log.accesses.append(fieldAccess(objectID!, fieldSlot, .write))
                }
            }
            return
        }
        if objectID != nil { _ = pop() }
        log.copied &+= items.weight
        for value in added { retain(value) }
        var access: Access?
        switch place {
        case .local(let slot):
            frame.slots[slot] = wrapped(items)
        case .global(let g):
            world.globals[g] = wrapped(items)
            world.globalVersions[g] += 1
            access = globalAccess(g, .write)
        case .field(let nameIndex):
            let field = program.names[nameIndex]
            let index = fieldIndex(objectID!, field)!
            world.heap[objectID!].fields[index] = wrapped(items)
            world.heap[objectID!].fieldVersions[index] += 1
            access = fieldAccess(objectID!, index, .write)
        }
        if pushes { push(removed.first ?? .none) }
        advance()
        if let access { emit("\(verb) \(text(self, what, wrapped(items)))", [access]) }
        for value in removed { release(value, keepAlive: pushes ? removed.flatMap({ $0.references }) : []) }
    }

    mutating func iterate(_ place: Place, stateSlot: Int, element: Int, exit: Int, pair: Bool) {
        guard case .int(let position) = frame.slots[stateSlot] else { return }
        let index = Int(position)
        // A field's object is on the operand stack (`Compiler.compileForEach`).
        var object: Value?
        if case .field = place { object = peek() }
        let version = world.version(of: place, object: object, program: program)
        guard let (items, what, access, kind) = readArray(place) else { return }
        let keyed = kind == .dictionary
        guard keyed == pair else {
            fail(
                .type(
                    keyed
                        ? "\(what) is a dictionary: write for (key, value) in \(what)"
                        : "\(what) is \(kind == .set ? "a set" : "an array"): write for x in \(what)"))
            return
        }
        if index == 0 {
            frame.slots[stateSlot + 1] = .int(version)
        } else if frame.slots[stateSlot + 1] != .int(version) {
            crash("collection was mutated while being enumerated: \(what) changed during \(threadName)'s for-in loop")
            return
        }
        if index >= items.count {
            frame.pc = exit
            if let access { emit("finishes enumerating \(what) (\(items.count) element\(items.count == 1 ? "" : "s"))", [access]) }
            return
        }
        let value = keyed ? Dictionaries.key(items[index]) : items[index]
        let old = frame.slots[element]
        retain(value)
        frame.slots[element] = value
        var oldValue = Value.none
        if keyed {
            oldValue = frame.slots[element + 1]
            retain(Dictionaries.value(items[index]))
            frame.slots[element + 1] = Dictionaries.value(items[index])
        }
        frame.slots[stateSlot] = .int(index + 1)
        advance()
        if let access {
            emit(
                keyed
                    ? "enumerates \(what)[\(describe(value))]: \(describe(Dictionaries.value(items[index])))"
                    : kind == .set ? "enumerates a member of \(what): \(describe(value))" : "enumerates \(what)[\(index)]: \(describe(value))",
                [access])
        }
        release(old)
        release(oldValue)
    }
}
