/// What begins a variable's declaration: `atomic` and `weak` storage, and the
/// stream pair `let (stream, continuation) = AsyncStream.makeStream(…)`.
extension Parser {
    /// Whether a variable's declaration starts here: `var`, `let`, or either after
    /// `atomic` or `weak`.
    var startsVariable: Bool {
        check(.var) || check(.let) || storageWord != nil
    }

    /// `let (stream, continuation) = AsyncStream.makeStream(…)`, at the top or in code:
    /// two names for the one stream (the second is its continuation).
    mutating func parseStreamPair() throws(Failure) -> (first: Token, second: Token, value: Expression) {
        _ = advance()
        _ = advance()
        let first = try consumeIdentifier("expected a name, as in let (stream, continuation) = AsyncStream.makeStream(of: Int.self)")
        try consume(",", "expected ',' between the two names")
        let second = try consumeIdentifier("expected the continuation's name")
        try consume(")", "expected ')' after the two names")
        try consume("=", "expected '=' and AsyncStream.makeStream(…)")
        let value = try parseExpression()
        guard case .call(let callee, _, _) = value.kind, case .member(let base, "makeStream") = callee.kind, base.kind == .name("AsyncStream") else {
            throw error("only AsyncStream.makeStream(…) gives two values here", at: value.range)
        }
        return (first, second, value)
    }

    /// `atomic` or `weak` before `var` or `let`.
    fileprivate var storageWord: String? {
        guard case .identifier(let word) = current.kind, word == "atomic" || word == "weak",
            [.keyword(.var), .keyword(.let)].contains(tokens[position + 1].kind)
        else { return nil }
        return word
    }

    /// `atomic` before `var` or `let`: consumed, with the storage it names. Anything
    /// else is left for the caller (`atomic` alone is then an unexpected word).
    mutating func parseStorage() -> Storage {
        guard let word = storageWord else { return .plain }
        _ = advance()
        return word == "atomic" ? .atomic : .weak
    }
}
