/// Expressions: integers and conditions over what is declared and in scope (or, for
/// `expect` and `always`, over the shared state alone), at most two operators deep.
extension ProgramGenerator {
    /// An integer expression.
    /// - Parameter shared: only shared state (a check on the whole program), no locals.
    mutating func intExpression(depth: Int = 0, shared: Bool = false) -> String {
        if depth < 2 && choices.chance(25) {
            let left = intExpression(depth: depth + 1, shared: shared)
            let operation = choices.pick(["+", "-", "*", "%"])
            let right = operation == "%" ? "\(2 + choices.below(2))" : intExpression(depth: depth + 1, shared: shared)
            return "\(left) \(operation) \(right)"
        }
        var atoms = ["\(choices.below(4))", "x", "y"]
        if toolkit.constant { atoms.append("k") }
        if toolkit.atomicVar { atoms.append("n") }
        if toolkit.turn { atoms.append("turn") }
        if toolkit.array { atoms += ["xs.count", "xs.first ?? 0", "sum(xs)"] }
        if toolkit.dictionary { atoms += ["d[\"a\"] ?? 0", "d.count", "d.keys.count", "d.values.count"] }
        if toolkit.set { atoms.append("s.count") }
        if toolkit.box { atoms += ["box?.v ?? 0", "created(Box)", "alive(Box)"] }
        if toolkit.weakGlobal { atoms.append("wbox?.v ?? 0") }
        if toolkit.boxHits { atoms.append("box?.hits ?? 0") }
        if toolkit.atomic { atoms += ["at.load()", "at.load(ordering: .relaxed)"] }
        if toolkit.actors && shared { atoms.append("acc.v") }
        if toolkit.actors && !shared && inAsync { atoms.append("(await acc.v)") }
        if !shared {
            atoms += locals(.int).map(\.name)
            atoms += locals(.weak).map { "\($0.name)?.v ?? 0" }
            if toolkit.functions && !inFunction { atoms.append("twice(y)") }
        }
        let atom = choices.pick(atoms)
        return depth == 0 && choices.chance(5) ? "-\(atom)" : atom
    }

    /// A condition.
    /// - Parameter shared: only shared state (a check on the whole program), no locals.
    mutating func boolExpression(depth: Int = 0, shared: Bool = false) -> String {
        if depth < 2 && choices.chance(20) {
            let left = boolExpression(depth: depth + 1, shared: shared)
            let right = boolExpression(depth: depth + 1, shared: shared)
            return choices.chance(50) ? "\(left) && \(right)" : "(\(left) || \(right))"
        }
        switch choices.below(depth < 2 ? 4 : 3) {
        case 0, 1:
            let left = intExpression(depth: 1, shared: shared)
            return "\(left) \(choices.pick(["==", "!=", "<", "<=", ">", ">="])) \(intExpression(depth: 1, shared: shared))"
        case 2:
            var atoms = ["true", "false"]
            if toolkit.array { atoms.append("xs.isEmpty") }
            if toolkit.dictionary { atoms += ["d.isEmpty", "d[\"a\"] == nil"] }
            if toolkit.set { atoms += ["s.contains(1)", "s.isEmpty", "s == Set([1, 2])"] }
            if toolkit.box { atoms += ["box == nil", "box != nil"] }
            if toolkit.weakGlobal { atoms += ["wbox != nil", "box === wbox"] }
            if toolkit.condition { atoms.append("ready") }
            if toolkit.actors && !shared && inAsync { atoms.append("Task.isCancelled") }
            if !shared {
                atoms.append("isMainThread()")
                atoms += locals(.weak).map { "\($0.name) != nil" }
                atoms += locals(.object).map { "\($0.name) === box" }
            }
            return choices.pick(atoms)
        default:
            return "!(\(boolExpression(depth: depth + 1, shared: shared)))"
        }
    }

    /// The condition of an `expect` or `always` check: shared state only.
    mutating func checkCondition() -> String {
        boolExpression(shared: true)
    }
}
