/// A recursive-descent parser for scenario scripts.
///
/// Errors are collected, not thrown to the caller: after each one the parser
/// `synchronize()`s to the next statement or declaration, so one run reports every
/// error in the file.
///
///     let script = try Parser.parse(SourceFile(name: "a.race", text: source))
public struct Parser {
    struct Failure: Error {}

    var tokens: [Token]
    var position = 0
    var diagnostics: [Diagnostic] = []
    /// Conditions of `if`, `while` and `for` may not end in a trailing closure.
    var allowTrailingClosure = true
    /// Declarations one declaration adds after itself (the continuation's name of
    /// `let (stream, continuation) = …`).
    var pendingDeclarations: [Declaration] = []
    /// How deep the parser is in nested constructs now (see `maxNesting`).
    var nesting = 0

    /// The deepest a script may nest: blocks, closures, parentheses, brackets, call
    /// arguments, prefix operators, `else if` links and `??` each count one level, and
    /// so does each operator of a chain like `1 + 2 + 3` (its tree is that deep). The
    /// parser, the compiler and every walk over the syntax tree recurse once per level,
    /// so this bounds their stack; a script that passes it gets a diagnostic at the
    /// construct that does, never a crash.
    public static let maxNesting = 256

    public let file: SourceFile

    public init(_ file: SourceFile) {
        self.file = file
        var lexer = Lexer(file)
        tokens = lexer.tokenize()
        diagnostics = lexer.diagnostics
    }

    /// Parses a whole script.
    /// - Throws: `ScriptError` with every diagnostic, when there is at least one.
    public static func parse(_ file: SourceFile) throws(ScriptError) -> Script {
        var parser = Parser(file)
        let declarations = parser.parseDeclarations(untilBrace: false)
        if !parser.diagnostics.isEmpty {
            throw ScriptError(file: file, diagnostics: parser.diagnostics)
        }
        return Script(file: file, declarations: declarations)
    }

    // MARK: - Tokens

    var current: Token { tokens[position] }
    var previous: Token { tokens[max(0, position - 1)] }

    mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    func check(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }
    func check(_ keyword: Keyword) -> Bool { current.kind == .keyword(keyword) }

    mutating func match(_ symbol: String) -> Bool {
        guard check(symbol) else { return false }
        _ = advance()
        return true
    }

    mutating func match(_ keyword: Keyword) -> Bool {
        guard check(keyword) else { return false }
        _ = advance()
        return true
    }

    /// Consumes the expected symbol or reports `message` at the current token.
    @discardableResult
    mutating func consume(_ symbol: String, _ message: String) throws(Failure) -> Token {
        if check(symbol) { return advance() }
        throw error("\(message), found \(current.quoted)")
    }

    mutating func consumeIdentifier(_ message: String) throws(Failure) -> Token {
        if case .identifier = current.kind { return advance() }
        throw error("\(message), found \(current.quoted)")
    }

    mutating func consumeString(_ message: String) throws(Failure) -> String {
        if case .string(let s) = current.kind {
            _ = advance()
            return s
        }
        throw error("\(message), found \(current.quoted)")
    }

    func name(of token: Token) -> String {
        if case .identifier(let s) = token.kind { return s }
        return ""
    }

    mutating func skipNewlines() {
        while current.kind == .newline || check(";") { _ = advance() }
    }

    /// Enters one more level of nesting, or reports that the script nests too deeply.
    /// Pair with `nesting -= 1` (in a `defer`).
    mutating func nest() throws(Failure) {
        nesting += 1
        if nesting > Parser.maxNesting {
            nesting -= 1
            throw tooDeep(at: current.range)
        }
    }

    /// The diagnostic for a construct that nests past `maxNesting`.
    mutating func tooDeep(at range: SourceRange) -> Failure {
        error(
            "this nests more than \(Parser.maxNesting) levels deep (blocks, parentheses, closures and chained operators all count); split it into smaller parts",
            at: range)
    }

    /// An expression node, checked against `maxNesting` (chains like `a + b + …` or
    /// `a.b.c…` are built in loops, so their height is checked here).
    /// - Parameter at: where to report it (an operator), when not at the whole range.
    mutating func node(_ kind: ExpressionKind, _ range: SourceRange, at place: SourceRange? = nil) throws(Failure) -> Expression {
        let expression = Expression(kind, range)
        if expression.height > Parser.maxNesting { throw tooDeep(at: place ?? range) }
        return expression
    }

    /// Records a diagnostic at the current token and returns the error to throw.
    mutating func error(_ message: String, at range: SourceRange? = nil, note: String? = nil) -> Failure {
        diagnostics.append(Diagnostic(message, at: range ?? current.range, note: note))
        return Failure()
    }

    /// A statement or declaration must end at a newline, `;`, `}` or the end of file.
    mutating func endOfStatement() throws(Failure) {
        if current.kind == .newline || check(";") || check("}") || current.kind == .end {
            skipNewlines()
            return
        }
        throw error("expected end of statement, found \(current.quoted)")
    }

    /// Skips to the start of the next line at this nesting depth (or the `}` that closes it).
    mutating func synchronize() {
        var depth = 0
        while current.kind != .end {
            if check("{") || check("(") || check("[") { depth += 1 }
            if check("}") || check(")") || check("]") {
                // A stray ')' or ']' is skipped; a '}' at this depth closes the block.
                if depth == 0 && check("}") { return }
                depth = max(0, depth - 1)
            }
            if current.kind == .newline && depth == 0 {
                skipNewlines()
                return
            }
            _ = advance()
        }
    }
}
