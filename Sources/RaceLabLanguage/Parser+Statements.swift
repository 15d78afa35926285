extension Parser {
    /// Whether a token ends a statement, so that a word before it (`progress`,
    /// `idle`) is a statement of its own rather than a name in an expression.
    public static func endsStatement(_ kind: Token.Kind) -> Bool {
        [.newline, .end, .symbol(";"), .symbol("}")].contains(kind)
    }

    /// `{ statements }`. Errors inside are recovered statement by statement.
    mutating func parseBlock() throws(Failure) -> [Statement] {
        try nest()
        defer { nesting -= 1 }
        try consume("{", "expected '{'")
        let body = parseStatements()
        try consume("}", "expected '}' to close the block")
        return body
    }

    /// Statements up to the closing `}` (not consumed).
    mutating func parseStatements() -> [Statement] {
        var statements: [Statement] = []
        skipNewlines()
        while !check("}") && current.kind != .end {
            do throws(Failure) {
                if check(.let) && tokens[position + 1].kind == .symbol("(") {
                    statements += try parseStreamPairStatements()
                } else {
                    statements.append(try parseStatement())
                }
                try endOfStatement()
            } catch {
                synchronize()
            }
            skipNewlines()
        }
        return statements
    }

    /// `let (s, c) = AsyncStream.makeStream(…)` in code: two local lets. (Read here,
    /// not in `parseStatement`, which recurses once per nested block: the parser's
    /// frames are what bounds `Parser.maxNesting`, and a debug build's are large.)
    mutating func parseStreamPairStatements() throws(Failure) -> [Statement] {
        let start = current.range
        let (first, second, value) = try parseStreamPair()
        let range = start.joined(previous.range)
        return [
            Statement(.variable(isLet: true, name: name(of: first), type: nil, value: value), range),
            Statement(.variable(isLet: true, name: name(of: second), type: nil, value: Expression(.name(name(of: first)), second.range)), range),
        ]
    }

    mutating func parseStatement() throws(Failure) -> Statement {
        let start = current.range
        switch current.kind {
        case .keyword(.var), .keyword(.let):
            let isLet = advance().kind == .keyword(.let)
            let nameToken = try consumeIdentifier("expected a variable name")
            let type = try parseOptionalType()
            var value: Expression?
            if match("=") { value = try parseExpression() }
            if value == nil && isLet { throw error("a 'let' needs a value: expected '='") }
            return Statement(.variable(isLet: isLet, name: name(of: nameToken), type: type, value: value), start.joined(previous.range))
        case .identifier("async") where tokens[position + 1].kind == .keyword(.let):
            position += 2
            let nameToken = try consumeIdentifier("expected a name after 'async let'")
            _ = try parseOptionalType()
            guard match("=") else { throw error("an 'async let' needs a value: expected '='") }
            let value = try parseExpression()
            return Statement(.asyncLet(name: name(of: nameToken), value: value), start.joined(previous.range))
        case .identifier("throw") where startsExpression(tokens[position + 1].kind):
            _ = advance()
            let value = try parseExpression()
            return Statement(.throw(value), start.joined(previous.range))
        case .identifier("do") where tokens[position + 1].kind == .symbol("{"):
            _ = advance()
            let body = try parseBlock()
            var catches: [CatchClause] = []
            while current.kind == .identifier("catch") {
                let clauseStart = advance().range
                var typeName: String?
                if current.kind == .identifier("is") {
                    _ = advance()
                    typeName = name(of: try consumeIdentifier("expected an error's type after 'catch is'"))
                }
                let clauseBody = try parseBlock()
                catches.append(CatchClause(typeName: typeName, body: clauseBody, range: clauseStart.joined(previous.range)))
            }
            return Statement(.do(body: body, catches: catches), start.joined(previous.range))
        case .keyword(.if):
            return try parseIf()
        case .keyword(.while):
            _ = advance()
            let condition = try parseCondition()
            let body = try parseBlock()
            return Statement(.while(condition: condition, body: body), start.joined(previous.range))
        case .keyword(.for):
            return try parseFor()
        case .keyword(.return):
            _ = advance()
            var value: Expression?
            if current.kind != .newline && !check("}") && !check(";") && current.kind != .end {
                value = try parseExpression()
            }
            return Statement(.return(value), start.joined(previous.range))
        case .keyword(.break):
            _ = advance()
            return Statement(.break, start)
        case .keyword(.continue):
            _ = advance()
            return Statement(.continue, start)
        case .keyword(.synchronized):
            _ = advance()
            try consume("(", "expected '(' after 'synchronized'")
            let token = try parseExpression()
            try consume(")", "expected ')' after the token")
            let body = try parseBlock()
            return Statement(.synchronized(token: token, body: body), start.joined(previous.range))
        case .keyword(.spawn):
            _ = advance()
            let nameToken = try consumeIdentifier("expected a thread name after 'spawn'")
            guard check("{") else { throw error("expected '{' to start the thread's code, found \(current.quoted)") }
            // A closure (it may start with a capture list), run by the new thread.
            let closure = try parseClosure()
            return Statement(.spawn(name: name(of: nameToken), body: closure), start.joined(previous.range))
        case .identifier("required") where position + 1 < tokens.count && tokens[position + 1].kind.isString:
            return try parseRequired()
        case .identifier("critical") where position + 1 < tokens.count && (tokens[position + 1].kind.isString || tokens[position + 1].kind == .symbol("{")):
            _ = advance()
            var name: String?
            if case .string(let text) = current.kind {
                _ = advance()
                name = text
            }
            let body = try parseBlock()
            return Statement(.critical(name: name, body: body), start.joined(previous.range))
        case .identifier("progress") where position + 1 < tokens.count && Parser.endsStatement(tokens[position + 1].kind):
            _ = advance()
            return Statement(.progress, start)
        case .identifier("idle") where position + 1 < tokens.count && Parser.endsStatement(tokens[position + 1].kind):
            _ = advance()
            return Statement(.idle, start)
        case .identifier("due") where position + 1 < tokens.count && tokens[position + 1].kind.isString:
            _ = advance()
            let name = try consumeString("expected the work's name in quotes after 'due'")
            var condition: Expression?
            if current.kind == .identifier("when") {
                _ = advance()
                condition = try parseExpression()
            }
            return Statement(.due(name: name, condition: condition), start.joined(previous.range))
        default:
            let target = try parseExpression()
            for op in ["=", "+=", "-=", "*="] where check(op) {
                _ = advance()
                let value = try parseExpression()
                return Statement(.assign(target: target, op: op, value: value), start.joined(value.range))
            }
            return Statement(.expression(target), target.range)
        }
    }

    /// `required "NAME" [on THREAD] [holding LOCK, …] { … }`.
    mutating func parseRequired() throws(Failure) -> Statement {
        let start = advance().range
        let name = try consumeString("expected the work's name in quotes after 'required'")
        var thread: String?
        var holding: [Expression] = []
        if current.kind == .identifier("on") {
            _ = advance()
            if check(.thread) { throw error("write the thread's name after 'on' ('on main', 'on A')") }
            thread = self.name(of: try consumeIdentifier("expected a thread's name after 'on'"))
        }
        if current.kind == .identifier("holding") {
            _ = advance()
            let saved = allowTrailingClosure
            allowTrailingClosure = false
            defer { allowTrailingClosure = saved }
            repeat { holding.append(try parseExpression()) } while match(",")
        }
        let body = try parseBlock()
        return Statement(.required(name: name, thread: thread, holding: holding, body: body), start.joined(previous.range))
    }

    mutating func parseCondition() throws(Failure) -> Expression {
        let saved = allowTrailingClosure
        allowTrailingClosure = false
        defer { allowTrailingClosure = saved }
        return try parseExpression()
    }

    mutating func parseIf() throws(Failure) -> Statement {
        let start = advance().range
        let condition = try parseCondition()
        let then = try parseBlock()
        var otherwise: [Statement]?
        let save = position
        skipNewlines()
        if match(.else) {
            if check(.if) {
                try nest()
                defer { nesting -= 1 }
                otherwise = [try parseIf()]
            } else {
                otherwise = try parseBlock()
            }
        } else {
            position = save
        }
        return Statement(.if(condition: condition, then: then, else: otherwise), start.joined(previous.range))
    }

    mutating func parseFor() throws(Failure) -> Statement {
        let start = advance().range
        var pair: (String, String)?
        var variable = ""
        if match("(") {
            let key = name(of: try consumeIdentifier("expected a name for the key, as in for (key, value) in d"))
            try consume(",", "expected ',' between the key's and the value's names")
            let value = name(of: try consumeIdentifier("expected a name for the value"))
            try consume(")", "expected ')' after the value's name")
            pair = (key, value)
        } else if current.kind == .identifier("await"), case .identifier = tokens[position + 1].kind {
            // `for await x in stream { … }`
            _ = advance()
            let variable = name(of: try consumeIdentifier("expected a loop variable after 'for await'"))
            guard match(.in) else { throw error("expected 'in' after the loop variable, found \(current.quoted)") }
            let saved = allowTrailingClosure
            allowTrailingClosure = false
            let sequence = try parseNilCoalescing()
            allowTrailingClosure = saved
            return Statement(.forAwait(variable: variable, sequence: sequence, body: try parseBlock()), start.joined(previous.range))
        } else {
            variable = name(of: try consumeIdentifier("expected a loop variable after 'for'"))
        }
        guard match(.in) else { throw error("expected 'in' after the loop variable, found \(current.quoted)") }
        if let (key, value) = pair {
            let saved = allowTrailingClosure
            allowTrailingClosure = false
            let sequence = try parseNilCoalescing()
            allowTrailingClosure = saved
            return Statement(.forEachPair(key: key, value: value, sequence: sequence, body: try parseBlock()), start.joined(previous.range))
        }
        let saved = allowTrailingClosure
        allowTrailingClosure = false
        let first = try parseNilCoalescing()
        var kind: StatementKind
        if check("..<") || check("...") {
            let inclusive = advance().kind == .symbol("...")
            let last = try parseNilCoalescing()
            allowTrailingClosure = saved
            kind = .forRange(variable: variable, from: first, to: last, inclusive: inclusive, body: try parseBlock())
        } else {
            allowTrailingClosure = saved
            kind = .forEach(variable: variable, sequence: first, body: try parseBlock())
        }
        return Statement(kind, start.joined(previous.range))
    }
}
