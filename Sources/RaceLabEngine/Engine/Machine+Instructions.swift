extension Machine {
    mutating func execute(_ instruction: Instruction) {
        switch instruction {
        case .constant(let index):
            push(program.constants[index])
            advance()
        case .pop:
            let value = pop()
            advance()
            if case .object(let id) = value, world.headers[id].retainCount == 0, world.headers[id].isAlive {
                deallocate(id) { "discards \($0), which was never stored, so it is deallocated" }
            }
        case .duplicate:
            push(peek())
            advance()
        case .loadLocal(let slot):
            let value = frame.slots[slot]
            push(world.resolve(value))
            advance()
            if case .weak(let id) = value {
                // Whether it is still there depends on every thread that releases it.
                emit("reads its weak reference \(code.localNames[slot]): \(describe(value))", Access(.object(id), .read))
                useWeakReferenceAtOnce()
            }
        case .storeLocal(let slot):
            let value = pop()
            let old = frame.slots[slot]
            retain(value)
            frame.slots[slot] = value
            advance()
            if old.hasReferences {
                emit("drops its reference in '\(code.localNames[slot])' to \(describe(old))", old.references.map { Access(.object($0), .write) })
                release(old)
            }
        case .storeTemp(let slot):
            frame.slots[slot] = pop()
            advance()
        case .contains(let place):
            let member = pop()
            guard let (items, what, access, kind) = readArray(place) else { return }
            var found = false
            switch kind {
            case .array: found = items.contains(member)
            case .set:
                switch Sets.find(items, member, what) {
                case .failure(let failure):
                    fail(failure)
                    return
                case .success(let result): found = result.found
                }
            case .dictionary:
                fail(.type("\(what) is a dictionary: ask whether \(what)[key] != nil"))
                return
            }
            push(.bool(found))
            advance()
            if let access { emit("reads \(what).contains(\(describe(member))): \(found)", [access]) }
        case .makeDictionary(let count):
            let elements = Array(frame.slots.suffix(count * 2))
            frame.slots.removeLast(count * 2)
            switch Dictionaries.make(elements) {
            case .failure(let failure): fail(failure)
            case .success(let entries):
                guard withinBudget(entries.weight) else { return }
                push(.dictionary(entries))
                advance()
            }
        case .makeArray(let count):
            let items = ArrayValue(Array(frame.slots.suffix(count)))
            frame.slots.removeLast(count)
            guard withinBudget(items.weight) else { return }
            push(.array(items))
            advance()
        case .load(let place):
            load(place)
        case .store(let place):
            store(place)
        case .readElement(let place):
            let index = pop()
            guard let (items, what, access, kind) = readArray(place) else { return }
            let element: Result<Value, Operators.Failure>
            switch kind {
            case .array: element = Operators.element(items, index, what)
            case .dictionary: element = Dictionaries.lookup(items, index, what)
            case .set: element = .failure(.type("\(what) is a set: it has no subscript; ask \(what).contains(x)"))
            }
            switch element {
            case .failure(let failure):
                fail(failure)
            case .success(let value):
                push(value)
                advance()
                if let access { emit("reads \(what)[\(describe(index))]: \(describe(value))", [access]) }
            }
        case .arrayProperty(let place, let property):
            guard let (items, what, access, kind) = readArray(place) else { return }
            let result: Result<Value, Operators.Failure>
            switch kind {
            case .array: result = Operators.property(items, property, what)
            case .dictionary: result = Dictionaries.property(items, property, what)
            case .set: result = Sets.property(items, property, what)
            }
            switch result {
            case .failure(let failure): fail(failure)
            case .success(let value):
                push(value)
                advance()
                if let access { emit("reads \(what).\(property.rawValue): \(describe(value))", [access]) }
            }
        case .writeElement(let place):
            let value = pop()
            let index = pop()
            mutateArray(place, verb: "writes", pushes: false, added: [value]) { items, what, kind in
                if kind == .dictionary { return Dictionaries.set(&items, index, value, what) }
                if kind == .set { return .failure(.type("\(what) is a set: it has no subscript; use insert(_:) and remove(_:)")) }
                guard case .success = Operators.element(items, index, what), case .int(let i) = index else {
                    return Operators.element(items, index, what).map { _ in [] }
                }
                // In range, so it fits the platform's Int.
                return .success([items.replace(at: Int(i), with: value)])
            } text: { machine, what, _ in
                "\(what)[\(machine.describe(index))] = \(machine.describe(value))"
            }
        case .arrayMutation(let place, let mutation):
            var operands: [Value] = []
            if [.append, .removeAt, .removeValue, .insertMember, .removeMember].contains(mutation) { operands = [pop()] }
            if mutation == .insert { operands = [peek(1), peek()]; _ = pop(); _ = pop() }
            let added = mutation == .append || mutation == .insert || mutation == .insertMember ? [operands[0]] : []
            mutateArray(place, verb: "calls", added: added) { items, what, kind in
                if kind == .array { return Operators.mutate(&items, mutation, operands, what) }
                if kind == .set { return Sets.mutate(&items, mutation, operands, what) }
                guard mutation == .removeValue else {
                    return .failure(
                        .type("\(what) is a dictionary: \(mutation.rawValue) belongs to arrays; write \(what)[key] = value or removeValue(forKey:)"))
                }
                return Dictionaries.set(&items, operands[0], .none, what)
            } text: { machine, what, collection in
                let call =
                    mutation == .append
                    ? "append(\(machine.describe(operands[0])))"
                    : mutation == .insert
                        ? "insert(\(machine.describe(operands[0])), at: \(machine.describe(operands[1])))"
                        : mutation == .removeAt || mutation == .removeValue
                            ? "\(mutation.rawValue.prefix { $0 != ":" }): \(machine.describe(operands[0])))"
                            : mutation == .insertMember || mutation == .removeMember
                                ? "\(mutation.rawValue.prefix { $0 != "(" })(\(machine.describe(operands[0])))" : "\(mutation.rawValue)()"
                return "\(what).\(call): now \(machine.describe(collection))"
            }
        case .iterate(let place, let stateSlot, let element, let exit, let pair):
            iterate(place, stateSlot: stateSlot, element: element, exit: exit, pair: pair)
        case .unary(let op):
            switch Operators.unary(op, pop()) {
            case .success(let value):
                push(value)
                advance()
            case .failure(let failure): fail(failure)
            }
        case .binary(let op):
            let right = pop()
            let left = pop()
            switch Operators.binary(op, left, right) {
            case .success(let value):
                guard withinBudget(value.weight) else { return }
                push(value)
                advance()
            case .failure(let failure): fail(failure)
            }
        case .unwrap:
            if peek() == .none {
                crash("unexpectedly found nil while unwrapping an optional")
            } else {
                advance()
            }
        case .jump(let target):
            frame.pc = target
        case .jumpIfFalse(let target):
            switch pop() {
            case .bool(true): advance()
            case .bool(false): frame.pc = target
            case let other: fail(.type("a condition must be Bool, not \(other.typeName)"))
            }
        case .call(let function, let argc):
            guard state.frames.count < 200 else {
                crash("stack overflow: more than 200 nested calls")
                return
            }
            let arguments = Array(frame.slots.suffix(argc))
            frame.slots.removeLast(argc)
            advance()
            var callee = Frame(code: function, localCount: program.codes[function].localCount, kind: .call)
            for (slot, value) in arguments.enumerated() {
                // A borrowed parameter (an actor method's self) is not counted.
                if !program.codes[function].localIsTemp[slot] { retain(value) }
                callee.slots[slot] = value
            }
            pushFrame(callee)
        case .ret:
            returnFromFrame()
        case .rethrow:
            returnFromFrame(thrown: true)
        case .catchThrown(let target):
            catchThrown(target)
        case .markHeight(let slot):
            frame.slots[slot] = .int(frame.slots.count)
            advance()
        case .truncate(let slot):
            if case .int(let height) = frame.slots[slot], height <= frame.slots.count { frame.slots.removeLast(frame.slots.count - Int(height)) }
            advance()
        case .isError(let name):
            push(.bool(isError(pop(), of: program.names[name])))
            advance()
        case .isolate(let isolation, let save):
            isolate(isolation, save: save)
        case .restoreExecutor(let slot):
            restoreExecutor(slot)
        case .task(let operation):
            taskOperation(operation)
        case .makeClosure(let code, let captures):
            var values = program.slotLists[captures].map { frame.slots[$0] }
            for (index, slot) in program.codes[code].captureSlots.enumerated() where program.codes[code].weakSlots.contains(slot) {
                switch world.resolve(values[index]) {
                case .object(let id): values[index] = .weak(id)
                case .none: values[index] = .none
                default:
                    fail(.type("a weak capture holds an object, not \(values[index].typeName)"))
                    return
                }
            }
            let closure = ClosureValue(code: code, captures: values)
            guard withinBudget(closure.weight) else { return }
            for value in values { retain(value) }
            push(.closure(closure))
            advance()
        case .allocate(let classIndex, let fields):
            allocateInstance(classIndex, fields: program.slotLists[fields])
        case .builtin(let builtin, let argc, let className):
            executeBuiltin(builtin, argc: argc, className: className)
        case .method(let name, let argc, let orderings):
            executeMethod(program.names[name], argc: argc, orderings: orderings)
        case .monitorEnter:
            guard case .object(let id) = peek() else {
                fail(.type("synchronized needs an object as its token, not \(peek().typeName)"))
                return
            }
            acquire(id, reentrant: true) { "enters synchronized(\($0))" }
        case .monitorExit:
            guard case .object(let id) = pop() else { return }
            advance()
            unlock(id) { "leaves synchronized(\($0))" }
        case .spawn(let name):
            guard case .closure(let closure) = pop() else { return }
            advance()
            let child = createThread(name: program.names[name], closure: closure, kind: .body, parameter: nil)
            emit("starts thread \(world.threadNames[child])", [])
        case .dispatchMain(let sync):
            dispatchToMain(sync: sync)
        case .check(let index):
            let passed = pop() == .bool(true)
            advance()
            checkResults.append((index, passed, log.accesses.count))
        case .requirement(let index, let holding):
            recordRequirement(index, holding: holding)
        case .requirementMet(let index):
            let record = index < world.requirements.count ? world.requirements[index] : RequirementRecord()
            push(.bool(record.isMet(counted: program.requirements[index].hasDue)))
            advance()
        case .criticalEnter(let section):
            enterCritical(section)
        case .criticalExit(let section):
            advance()
            emit("leaves \(program.sectionName(section))", Access(.section(section), .write))
            if section < world.criticalInside.count, let at = world.criticalInside[section].lastIndex(of: thread) {
                world.criticalInside[section].remove(at: at)
            }
        case .progress:
            advance()
            log.progressed = true
        case .round:
            advance()
            if !state.completedRound { state.completedRound = true }
            if !program.marksProgress { log.progressed = true }
        case .due(let index):
            advance()
            while world.requirements.count <= index { world.requirements.append(RequirementRecord()) }
            world.requirements[index].dues = min(world.requirements[index].dues + 1, Int.max - 1)
        }
    }

    /// A thread enters a critical section; if another is inside, mutual exclusion is
    /// broken: a finding, and the run stops there.
    mutating func enterCritical(_ section: Int) {
        advance()
        while world.criticalInside.count <= section { world.criticalInside.append([]) }
        let others = world.criticalInside[section].filter { $0 != thread }
        world.criticalInside[section].append(thread)
        guard let inside = others.first else {
            emit("enters \(program.sectionName(section))", Access(.section(section), .write))
            return
        }
        let name = world.threadNames[inside]
        emit("enters \(program.sectionName(section)) while \(name) is inside", Access(.section(section), .write))
        report(.exclusion, "\(threadName) enters \(program.sectionName(section)) while \(name) is inside: at most one thread may be in it at a time")
        world.halted = true
    }

    /// A `required` block starts: one more run, and whether this one is on its thread
    /// and holds its locks (the lock values are on the stack, the first deepest).
    mutating func recordRequirement(_ index: Int, holding: Int) {
        var missing: UInt64 = 0
        for position in 0..<holding {
            let value = pop()
            let owned: Bool
            if case .object(let id) = value { owned = world.headers[id].owner == thread } else { owned = false }
            if !owned && holding - 1 - position < 64 { missing |= 1 << UInt64(holding - 1 - position) }
        }
        advance()
        let requirement = program.requirements[index]
        let onThread = requirement.thread.map { $0 == "main" ? onMainThread : $0 == threadName } ?? true
        while world.requirements.count <= index { world.requirements.append(RequirementRecord()) }
        // Without a `due`, only whether it ran matters: a count would make every
        // round of a loop a new state.
        world.requirements[index].runs = requirement.hasDue ? min(world.requirements[index].runs + 1, Int.max - 1) : 1
        if !onThread { world.requirements[index].offThread = true }
        world.requirements[index].locksMissing |= missing
    }

    /// Renders a value for a sentence: objects by their trace name.
    func describe(_ value: Value) -> String { world.describe(value) }

    /// Swift holds the object a weak reference gave for as long as the expression uses
    /// it: a field read through it (`controller?.cancelled`, `controller!.cancelled`)
    /// belongs to the same step, so the object cannot go away in between. Called just
    /// after the instruction that read the weak reference.
    ///
    /// The compiler says which instruction uses the object (`Code.heldUntil`); none
    /// does when the expression only compares the reference (`controller != nil`) or
    /// stores it. The local instructions between the read and the use run first, in
    /// this frame, from the read forward; anything else (a shared step, a call, a nil
    /// that jumps past the use, the end of the code) leaves the rest to the next step.
    mutating func useWeakReferenceAtOnce() {
        let read = frame.pc - 1
        guard let use = code.heldUntil[read] else { return }
        let depth = state.frames.count
        let codeIndex = frame.code
        // Invariant: the thread is in the frame of the read, strictly after the read
        // and at most at the use; each pass runs one instruction of that span.
        while !world.halted && state.frames.count == depth && frame.code == codeIndex && frame.pc > read && frame.pc <= use {
            let next = instruction
            let isUse = frame.pc == use
            guard isUse || isLocal(next) else { return }
            executeCurrent(next)
            if isUse { return }
        }
    }
}
