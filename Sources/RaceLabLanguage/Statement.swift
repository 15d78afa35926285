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
    /// `for await x in stream { … }`: an `AsyncStream`'s elements, until it finishes.
    case forAwait(variable: String, sequence: Expression, body: [Statement])
    /// `for (key, value) in dictionary { … }`.
    case forEachPair(key: String, value: String, sequence: Expression, body: [Statement])
    /// `async let x = e`: `e` runs in a child task; reading `x` awaits it (SE-0317).
    case asyncLet(name: String, value: Expression)
    case `return`(Expression?)
    /// `throw e`: the error goes to the innermost `do`'s catch, or out of the function.
    case `throw`(Expression)
    /// `do { … } catch is CancellationError { … } catch { … }`: `error` names the error
    /// in a catch's body.
    case `do`(body: [Statement], catches: [CatchClause])
    case `break`
    case `continue`
    /// `synchronized(token) { … }`: a re-entrant mutex identified by an object.
    case synchronized(token: Expression, body: [Statement])
    /// `spawn name { … }`: start a new thread now.
    case spawn(name: String, body: Closure)
    /// `required "A commits its result" on main holding lock { … }`: work that every
    /// complete run must do, on that thread (if named), holding those locks (if any).
    case required(name: String, thread: String?, holding: [Expression], body: [Statement])
    /// `due "A shows its total" when condition`: the `required` work of that name is
    /// due once more (when the condition holds here). Work with a `due` must run
    /// exactly as often as it fell due; work without, at least once.
    case due(name: String, condition: Expression?)
    /// `critical { … }` or `critical "name" { … }`: a critical section; at most one
    /// thread may be inside the sections of one name at a time.
    case critical(name: String?, body: [Statement])
    /// `progress`: the program got somewhere. A search for livelock looks for runs
    /// that go on forever without passing one (without any, for runs that never end).
    case progress
    /// `idle`: a thread blocked in the next statement is resting, not stuck: it may
    /// wait there for ever when nothing else is left to run (SPIN's `end` label).
    case idle
}

/// `catch { … }`, or `catch is TypeName { … }` for errors of one type only.
public struct CatchClause: Hashable, Sendable {
    public var typeName: String?
    public var body: [Statement]
    public var range: SourceRange

    public init(typeName: String?, body: [Statement], range: SourceRange) {
        self.typeName = typeName
        self.body = body
        self.range = range
    }
}

public struct Statement: Hashable, Sendable {
    public var kind: StatementKind
    public var range: SourceRange

    public init(_ kind: StatementKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
