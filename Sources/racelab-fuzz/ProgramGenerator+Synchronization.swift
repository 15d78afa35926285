/// Statements of the synchronisation toolkit: locks, semaphores, conditions, atomics
/// and spin loops, each in the ways LANGUAGE.md shows them (and a few misuses the
/// engine reports as findings: an unlock without a lock, a wait without the lock).
extension ProgramGenerator {
    /// `m.lock()` … `m.unlock()`, `synchronized(m) { … }`, `if m.try() { … }`, or a
    /// recursive lock taken twice.
    mutating func lockStatement() {
        let recursive = toolkit.lock == "NSRecursiveLock"
        let tryable = toolkit.lock == "NSLock" || toolkit.lock == "Lock"
        switch choices.below(canNest ? 6 : 1) {
        case 0:
            emit("m.lock()")
            emit("m.unlock()")
        case 1:
            emit("m.lock()")
            depth += 1
            body(1 + choices.below(2))
            depth -= 1
            emit("m.unlock()")
        case 2: block("synchronized(m) {", count: 1 + choices.below(2))
        case 3 where tryable:
            emit("if m.try() {")
            nested(count: 1, after: ["m.unlock()"])
            emit("} else {")
            nested(count: 1)
            emit("}")
        case 3 where recursive, 4 where recursive:
            emit("m.lock()")
            block("synchronized(m) {", count: 1, before: ["m.lock()"], after: ["m.unlock()"])
            emit("m.unlock()")
        case 5 where choices.chance(20): emit("m.unlock()")
        default: block("synchronized(m) {", count: 1)
        }
    }

    /// `sem.wait()` (perhaps marked `idle`), `sem.signal()`, and the waits with a timeout.
    mutating func semaphoreStatement() {
        switch choices.below(7) {
        case 0: emit("sem.signal()")
        case 1: emit("sem.wait()")
        case 2: emit(oneOf: ["let NEW = sem.signal()"])
        case 3: emit("sem.wait(timeout: .distantFuture)")
        case 4 where canNest:
            block("if sem.wait(timeout: .now()) == \(choices.pick([".success", ".timedOut"])) {", count: 1)
        case 5:
            emit("idle")
            emit("sem.wait()")
        default: emit("sem.signal()")
        }
    }

    /// The two sides of a condition: waiting for `ready` under the lock (in a `while`,
    /// or in an `if`, which a spurious wakeup gets past), and making it true and
    /// signalling or broadcasting.
    mutating func conditionStatement() {
        switch choices.below(6) {
        case 0, 1:
            emit("c.lock()")
            emit("ready = true")
            emit(choices.pick(["c.signal()", "c.broadcast()"]))
            emit("c.unlock()")
        case 2, 3:
            emit("c.lock()")
            emit(choices.chance(70) ? "while !ready { c.wait() }" : "if !ready { c.wait() }")
            if canNest && choices.chance(50) {
                depth += 1
                body(1)
                depth -= 1
            }
            emit("c.unlock()")
        case 4: emit(choices.pick(["ready = false", "c.signal()", "c.broadcast()"]))
        default:
            if choices.chance(20) {
                emit("c.wait()")
            } else {
                emit("c.lock()")
                emit("c.unlock()")
            }
        }
    }

    /// The orderings each kind of access takes, as Swift checks them: a load cannot
    /// release, a store cannot acquire, a read-modify-write takes any.
    enum Access {
        case load, store, readModifyWrite

        var orderings: [String] {
            switch self {
            case .load: return [".relaxed", ".acquiring", ".sequentiallyConsistent"]
            case .store: return [".relaxed", ".releasing", ".sequentiallyConsistent"]
            case .readModifyWrite: return [".relaxed", ".acquiring", ".releasing", ".acquiringAndReleasing", ".sequentiallyConsistent"]
            }
        }
    }

    /// An `ordering:` argument for `access`, or none (`first`: the call's only argument).
    mutating func ordering(_ access: Access, first: Bool = false) -> String {
        guard choices.chance(40) else { return "" }
        return (first ? "" : ", ") + "ordering: \(choices.pick(access.orderings))"
    }

    /// A compare-exchange's orderings: none, one `ordering:`, or a success ordering
    /// and a failure ordering (a failed exchange only loads).
    mutating func exchangeOrdering() -> String {
        switch choices.below(3) {
        case 0: return ""
        case 1: return ordering(.readModifyWrite)
        default:
            let success = choices.pick(Access.readModifyWrite.orderings)
            return ", successOrdering: \(success), failureOrdering: \(choices.pick(Access.load.orderings))"
        }
    }

    /// Each method of `Atomic`, with and without `ordering:`.
    mutating func atomicStatement() {
        switch choices.below(8) {
        case 0: emit("at.wrappingAdd(1\(ordering(.readModifyWrite)))")
        case 1: emit("at.store(\(intExpression())\(ordering(.store)))")
        case 2: emit("let \(newLocal(.int)) = at.load(\(ordering(.load, first: true)))")
        case 3: emit("at.wrappingSubtract(1\(ordering(.readModifyWrite)))")
        case 4: emit("let \(newLocal(.int)) = at.wrappingAdd(1).newValue")
        case 5 where canNest:
            block("if at.compareExchange(expected: 0, desired: 1\(exchangeOrdering())).exchanged {", count: 1, after: choices.chance(50) ? ["at.store(0)"] : [])
        case 6: emit("if !at.compareExchange(expected: \(choices.below(2)), desired: 2\(exchangeOrdering())) { y += 1 }")
        default: emit("at.wrappingAdd(2)")
        }
    }

    /// A busy-wait on shared state another thread changes (the engine takes it as a wait).
    mutating func spin() {
        var spins: [String] = []
        if toolkit.atomic { spins += ["while at.load() == 0 { }", "while at.load(ordering: .acquiring) < 1 { work(1) }"] }
        if toolkit.turn { spins += ["while turn != 1 { }", "turn = 1"] }
        if toolkit.condition { spins.append("while !ready { }") }
        emit(choices.pick(spins))
    }
}
