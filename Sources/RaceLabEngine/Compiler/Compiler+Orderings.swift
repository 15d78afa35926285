import RaceLabLanguage

/// The memory orderings of atomic method calls, as Swift's Synchronization module
/// spells them: `load(ordering:)` takes a load ordering, `store(_:ordering:)` a store
/// ordering, `wrappingAdd`/`wrappingSubtract` an update ordering, and
/// `compareExchange(expected:desired:)` either `ordering:` (the ordering of a failed
/// exchange derived from it, as Swift derives it) or `successOrdering:` and
/// `failureOrdering:` together.
extension Compiler {
    static let atomicMethods = ["load", "store", "wrappingAdd", "wrappingSubtract", "compareExchange"]
    static let orderingLabels = ["ordering", "successOrdering", "failureOrdering"]

    /// The orderings a load may take (Swift's `AtomicLoadOrdering`): a load cannot release.
    static let loadOrderings: [MemoryOrdering] = [.relaxed, .acquiring, .sequentiallyConsistent]
    /// The orderings a store may take (`AtomicStoreOrdering`): a store cannot acquire.
    static let storeOrderings: [MemoryOrdering] = [.relaxed, .releasing, .sequentiallyConsistent]

    /// Takes the ordering arguments of an atomic method call out of `arguments`, checks
    /// them, and returns their code for `Instruction.method` (0 when none is written:
    /// sequentially consistent).
    mutating func takeOrderings(_ method: String, _ arguments: inout [Argument], range: SourceRange) throws(Failure) -> Int {
        guard Compiler.atomicMethods.contains(method) else { return 0 }
        var given: [String: MemoryOrdering] = [:]
        for argument in arguments where Compiler.orderingLabels.contains(argument.label ?? "") {
            guard case .implicitMember(let name) = argument.value.kind, let ordering = MemoryOrdering(name: name) else {
                throw error(
                    "an ordering is " + Compiler.list(MemoryOrdering.allCases, "or"),
                    at: argument.value.range)
            }
            given[argument.label!] = ordering
        }
        arguments.removeAll { Compiler.orderingLabels.contains($0.label ?? "") }
        if given.isEmpty { return 0 }
        let single = given["ordering"]
        let success = given["successOrdering"], failure = given["failureOrdering"]
        func allowed(_ orderings: [MemoryOrdering], _ ordering: MemoryOrdering, _ message: String) throws(Failure) {
            if !orderings.contains(ordering) { throw error(message + Compiler.list(orderings, "or"), at: range) }
        }
        switch method {
        case "compareExchange":
            if let single, success == nil, failure == nil {
                return AtomicOrderings(success: single, failure: single.failureOrdering).code
            }
            guard single == nil, let success, let failure else {
                throw error("write compareExchange(expected: e, desired: d, ordering: o), or successOrdering: s, failureOrdering: f", at: range)
            }
            try allowed(Compiler.loadOrderings, failure, "a failed compare-exchange only loads: its failureOrdering is ")
            return AtomicOrderings(success: success, failure: failure).code
        default:
            guard let single, success == nil, failure == nil else {
                throw error("'\(method)' takes one ordering, labelled 'ordering'", at: range)
            }
            switch method {
            case "load": try allowed(Compiler.loadOrderings, single, "a load cannot release: its ordering is ")
            case "store": try allowed(Compiler.storeOrderings, single, "a store cannot acquire: its ordering is ")
            default: break
            }
            return AtomicOrderings(success: single, failure: .sequentiallyConsistent).code
        }
    }

    /// `.relaxed, .acquiring or .sequentiallyConsistent`.
    static func list(_ orderings: [MemoryOrdering], _ last: String) -> String {
        let names = orderings.map { "." + $0.name }
        return names.dropLast().joined(separator: ", ") + " \(last) " + names.last!
    }

    /// The orderings weaker than sequentially consistent that some atomic method call
    /// in `program` is given, each once, in `MemoryOrdering` order.
    static func weakOrderings(of program: Program) -> [MemoryOrdering] {
        var used = Set<MemoryOrdering>()
        for code in program.codes {
            for case .method(_, _, let number) in code.instructions where number != 0 {
                let orderings = AtomicOrderings(code: number)
                used.formUnion([orderings.success, orderings.failure])
            }
        }
        return MemoryOrdering.allCases.filter { $0 != .sequentiallyConsistent && used.contains($0) }
    }
}
