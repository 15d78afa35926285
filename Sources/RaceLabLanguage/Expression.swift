/// An expression of the scenario language, with the source range it came from.
public indirect enum ExpressionKind: Hashable, Sendable {
    case int(Int)
    case bool(Bool)
    case string(String)
    case `nil`
    case array([Expression])
    case name(String)
    case `self`
    case member(Expression, String)
    case `subscript`(Expression, Expression)
    case call(Expression, [Argument], trailing: Closure?)
    case unary(String, Expression)
    case binary(String, Expression, Expression)
    case forceUnwrap(Expression)
    case closure(Closure)
}

public struct Expression: Hashable, Sendable {
    public var kind: ExpressionKind
    public var range: SourceRange

    public init(_ kind: ExpressionKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
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

    public init(parameters: [String], body: [Statement], range: SourceRange) {
        self.parameters = parameters
        self.body = body
        self.range = range
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
