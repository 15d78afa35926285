/// A statement of the scenario language.
public indirect enum StatementKind: Hashable, Sendable {
    /// `let x = e` / `var x: T = e` inside code.
    case variable(isLet: Bool, name: String, type: TypeAnnotation?, value: Expression?)
    /// `target = e`, `target += e`, `target -= e`, `target *= e`.
    case assign(target: Expression, op: String, value: Expression)
    case expression(Expression)
    case `if`(condition: Expression, then: [Statement], else: [Statement]?)
    case `while`(condition: Expression, body: [Statement])
    /// `for i in a..<b` (or `a...b`).
    case forRange(variable: String, from: Expression, to: Expression, inclusive: Bool, body: [Statement])
    /// `for x in array`.
    case forEach(variable: String, sequence: Expression, body: [Statement])
    case `return`(Expression?)
    case `break`
    case `continue`
    /// `synchronized(token) { … }`: a re-entrant mutex identified by an object.
    case synchronized(token: Expression, body: [Statement])
    /// `spawn name { … }`: start a new thread now.
    case spawn(name: String, body: Closure)
}

public struct Statement: Hashable, Sendable {
    public var kind: StatementKind
    public var range: SourceRange

    public init(_ kind: StatementKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
