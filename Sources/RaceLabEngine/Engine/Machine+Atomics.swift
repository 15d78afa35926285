/// `Atomic` (the Synchronization module's, for integers): each method is one step
/// whose access carries its memory ordering (`MemoryOrdering`), which the race
/// detector reads; every run still interleaves whole steps.
extension Machine {
    /// `load`, `store`, `wrappingAdd`, `wrappingSubtract` and
    /// `compareExchange(expected:desired:)` on an atomic, with the orderings the call
    /// was given. Returns false for any other method.
    mutating func executeAtomicMethod(_ name: String, on id: ObjectID, _ arguments: [Value], orderings: AtomicOrderings) -> Bool {
        let objectName = world.heap[id].name
        let ordering = orderings.success
        switch (name, arguments.count) {
        case ("load", 0):
            let value = world.heap[id].fields[0]
            frame.slots.removeLast()
            push(value)
            advance()
            emit("loads \(objectName) atomically\(Self.said(ordering)): \(describe(value))", atomicAccess(id, .read, ordering))
        case ("store", 1):
            guard case .int = arguments[0] else {
                fail(.type("\(objectName).store(_:) needs an Int"))
                return true
            }
            setAtomic(id, arguments[0])
            returnFromMethod(
                argc: 1, "stores \(describe(arguments[0])) into \(objectName) atomically\(Self.said(ordering))", [atomicAccess(id, .write, ordering)])
        case ("wrappingAdd", 1), ("wrappingSubtract", 1):
            guard case .int(let n) = arguments[0], case .int(let old) = world.heap[id].fields[0] else {
                fail(.type("\(objectName).\(name)(_:) needs an Int"))
                return true
            }
            let new = name == "wrappingAdd" ? old &+ n : old &- n
            setAtomic(id, .int(new))
            frame.slots.removeLast(2)
            push(.int(new))
            advance()
            let verb = name == "wrappingAdd" ? "adds \(n) to" : "subtracts \(n) from"
            emit(
                "\(verb) \(objectName) atomically\(Self.said(ordering)): \(old) → \(new)",
                atomicAccess(id, .write, ordering, readModifyWrite: true))
        case ("compareExchange(expected:desired:)", 2):
            guard case .int(let expected) = arguments[0], case .int = arguments[1], case .int(let old) = world.heap[id].fields[0] else {
                fail(.type("\(objectName).compareExchange(expected:desired:) needs Ints"))
                return true
            }
            frame.slots.removeLast(3)
            push(.bool(old == expected))
            advance()
            if old == expected {
                setAtomic(id, arguments[1])
                emit(
                    "compares \(objectName) with \(expected)\(Self.said(ordering)): equal, so it becomes \(describe(arguments[1])) (exchanged: true)",
                    atomicAccess(id, .write, ordering, readModifyWrite: true))
            } else {
                // A failed compare-exchange only reads, with the failure ordering.
                emit(
                    "compares \(objectName) with \(expected)\(Self.said(orderings.failure)): it is \(old), so it stays (exchanged: false)",
                    atomicAccess(id, .read, orderings.failure))
            }
        default:
            return false
        }
        return true
    }

    /// How the trace says an ordering: nothing for the sequentially consistent
    /// default, " (relaxed)" for the others.
    static func said(_ ordering: MemoryOrdering) -> String {
        ordering == .sequentiallyConsistent ? "" : " (\(ordering.name))"
    }

    /// An access to an `Atomic`'s value: never a data race; it synchronizes as its
    /// ordering says.
    func atomicAccess(_ id: ObjectID, _ kind: Access.Kind, _ ordering: MemoryOrdering, readModifyWrite: Bool = false) -> Access {
        Access(.field(id, 0), kind, ordering: ordering, readModifyWrite: readModifyWrite)
    }

    mutating func setAtomic(_ id: ObjectID, _ value: Value) {
        world.heap[id].fields[0] = value
        world.heap[id].fieldVersions[0] += 1
    }
}
