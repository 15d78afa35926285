/// An expression of the scenario language, with the source range it came from.
public indirect enum ExpressionKind: Hashable, Sendable {
    case int(Int64)
    case bool(Bool)
    case string(String)
    case `nil`
    case array([Expression])
    /// `["a": 1, "b": 2]`, or `[:]`: keys then values, alternating.
    case dictionary([Expression])
    case name(String)
    case `self`
    case member(Expression, String)
    /// `base?.name`: nil when the base is nil, else its member.
    case optionalMember(Expression, String)
    case `subscript`(Expression, Expression)
    case call(Expression, [Argument], trailing: Closure?)
    case unary(String, Expression)
    case binary(String, Expression, Expression)
    case forceUnwrap(Expression)
    case closure(Closure)
    /// `.name`, a member of a type the context gives (`.now()`, `.timedOut`).
    case implicitMember(String)
    /// `await e`: a call or read that may suspend the task (an actor's method or
    /// state, an async function, a task's value).
    case await(Expression)
    /// `try e`, `try? e` (nil when `e` throws): covers the expression to its right.
    case `try`(Expression, optional: Bool)
}

public struct Expression: Hashable, Sendable {
    public var kind: ExpressionKind
    public var range: SourceRange
    /// Levels of the tree below and including this node (a name or literal is 1;
    /// a closure counts 1, its body is nested statements). The parser keeps it at
    /// most `Parser.maxNesting`, so walking a tree never recurses without bound.
    public let height: Int

    public init(_ kind: ExpressionKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
        switch kind {
        case .int, .bool, .string, .nil, .name, .self, .closure, .implicitMember: height = 1
        case .array(let items), .dictionary(let items): height = 1 + (items.map { $0.height }.max() ?? 0)
        case .member(let e, _), .optionalMember(let e, _), .unary(_, let e), .forceUnwrap(let e), .await(let e), .try(let e, _): height = 1 + e.height
        case .subscript(let a, let b), .binary(_, let a, let b): height = 1 + max(a.height, b.height)
        case .call(let callee, let arguments, _): height = 1 + max(callee.height, arguments.map({ $0.value.height }).max() ?? 0)
        }
    }
}

/// A call argument, optionally labelled (`Operation(name: "A")`).
public struct Argument: Hashable, Sendable {
    public var label: String?
    public var value: Expression

    public init(label: String?, value: Expression) {
        self.label = label
        self.value = value
    }
}

/// A closure literal `{ op in … }`: code that runs later, on some thread.
public struct Closure: Hashable, Sendable {
    public var parameters: [String]
    public var body: [Statement]
    public var range: SourceRange
    /// The names in a capture list marked `weak` (`{ [weak controller] in … }`).
    public var weakCaptures: [String]
    /// `{ @MainActor in … }`: a task's closure isolated to the main actor.
    public var isMainActor = false

    public init(parameters: [String], body: [Statement], range: SourceRange, weakCaptures: [String] = []) {
        self.parameters = parameters
        self.body = body
        self.range = range
        self.weakCaptures = weakCaptures
    }
}

/// A written type: `Int`, `MySingle?`, `[Int]`. Annotations document intent; values
/// are checked where they are used.
public struct TypeAnnotation: Hashable, Sendable {
    public var text: String
    public var range: SourceRange

    public init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}
