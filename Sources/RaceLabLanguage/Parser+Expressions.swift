extension Parser {
    /// Lowest to highest precedence: `||`, `&&`, comparison, `??`, `+ -`, `* / %`,
    /// prefix `! -`, postfix (call, member, subscript, `!`).
    mutating func parseExpression() throws(Failure) -> Expression {
        try nest()
        defer { nesting -= 1 }
        return try parseBinary(level: 0)
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">=", "===", "!=="],
    ]

    private mutating func parseBinary(level: Int) throws(Failure) -> Expression {
        if level == Parser.levels.count { return try parseNilCoalescing() }
        var left = try parseBinary(level: level + 1)
        while case .symbol(let op) = current.kind, Parser.levels[level].contains(op) {
            let place = advance().range
            skipNewlines()
            let right = try parseBinary(level: level + 1)
            if level == 2, case .binary(let inner, _, _) = left.kind, Parser.levels[2].contains(inner) {
                throw error("comparisons cannot be chained; use '&&'", at: right.range)
            }
            left = try node(.binary(op, left, right), left.range.joined(right.range), at: place)
        }
        return left
    }

    mutating func parseNilCoalescing() throws(Failure) -> Expression {
        let left = try parseArithmetic(multiplicative: false)
        guard check("??") else { return left }
        let place = advance().range
        skipNewlines()
        try nest()
        defer { nesting -= 1 }
        let right = try parseNilCoalescing()
        return try node(.binary("??", left, right), left.range.joined(right.range), at: place)
    }

    private mutating func parseArithmetic(multiplicative: Bool) throws(Failure) -> Expression {
        let ops = multiplicative ? ["*", "/", "%"] : ["+", "-"]
        var left = multiplicative ? try parseUnary() : try parseArithmetic(multiplicative: true)
        while case .symbol(let op) = current.kind, ops.contains(op) {
            let place = advance().range
            skipNewlines()
            let right = multiplicative ? try parseUnary() : try parseArithmetic(multiplicative: true)
            left = try node(.binary(op, left, right), left.range.joined(right.range), at: place)
        }
        return left
    }

    private mutating func parseUnary() throws(Failure) -> Expression {
        // `await` is a word of its own only before an expression (`await` alone may
        // still name a variable). As in Swift, it covers the whole expression to its
        // right: `await a + b` awaits both.
        if current.kind == .identifier("await"), startsExpression(tokens[position + 1].kind) {
            let start = advance().range
            let operand = try parseExpression()
            return try node(.await(operand), start.joined(operand.range))
        }
        if current.kind == .identifier("try"), let expression = try parseTry() { return expression }
        if check("!") || check("-") {
            let op = advance()
            try nest()
            defer { nesting -= 1 }
            let operand = try parseUnary()
            guard case .symbol(let symbol) = op.kind else { return operand }
            return try node(.unary(symbol, operand), op.range.joined(operand.range))
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(Failure) -> Expression {
        var expression = try parsePrimary()
        while true {
            if check("(") && previous.range.end == current.range.start {
                _ = advance()
                let arguments = try parseArguments()
                let trailing = try parseTrailingClosure()
                expression = try node(.call(expression, arguments, trailing: trailing), expression.range.joined(previous.range), at: previous.range)
            } else if check("{") && allowTrailingClosure && isCallee(expression) {
                let trailing = try parseTrailingClosure()
                expression = try node(.call(expression, [], trailing: trailing), expression.range.joined(previous.range), at: previous.range)
            } else if match(".") {
                let member = try consumeMemberName()
                expression = try node(.member(expression, member), expression.range.joined(previous.range), at: previous.range)
            } else if check("[") && previous.range.end == current.range.start {
                _ = advance()
                let index = try parseExpression()
                try consume("]", "expected ']' after the index")
                expression = try node(.subscript(expression, index), expression.range.joined(previous.range), at: previous.range)
            } else if check("?") && previous.range.end == current.range.start && tokens[position + 1].kind == .symbol(".") {
                position += 2
                let member = try consumeMemberName()
                expression = try node(.optionalMember(expression, member), expression.range.joined(previous.range), at: previous.range)
            } else if check("!") && previous.range.end == current.range.start {
                _ = advance()
                expression = try node(.forceUnwrap(expression), expression.range.joined(previous.range), at: previous.range)
            } else {
                return expression
            }
        }
    }

    /// Whether a token can begin an expression (after `await`).
    /// `try`, `try?`: as `await`, a word of its own only before an expression. Its
    /// own function, so that `parseUnary`'s frame stays small for deep nesting.
    @inline(never)
    private mutating func parseTry() throws(Failure) -> Expression? {
        let next = tokens[position + 1]
        let optional = next.kind == .symbol("?") && next.range.start == current.range.end
        guard optional || startsExpression(next.kind) else { return nil }
        let start = advance().range
        if optional { _ = advance() }
        let operand = try parseExpression()
        return try node(.try(operand, optional: optional), start.joined(operand.range))
    }

    func startsExpression(_ kind: Token.Kind) -> Bool {
        switch kind {
        case .identifier, .int, .string: return true
        case .keyword(let k): return [.self, .true, .false, .nil].contains(k)
        case .symbol(let s): return s == "(" || s == "[" || s == "!" || s == "-"
        default: return false
        }
    }

    private func isCallee(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .name, .member: return true
        default: return false
        }
    }

    private mutating func consumeMemberName() throws(Failure) -> String {
        switch current.kind {
        case .identifier(let s):
            _ = advance()
            return s
        case .keyword(let k):
            _ = advance()
            return k.rawValue
        default:
            throw error("expected a member name after '.', found \(current.quoted)")
        }
    }

    private mutating func parseArguments() throws(Failure) -> [Argument] {
        var arguments: [Argument] = []
        skipNewlines()
        while !check(")") {
            var label: String?
            if case .identifier(let word) = current.kind, tokens[position + 1].kind == .symbol(":") {
                label = word
                _ = advance()
                _ = advance()
            } else if current.kind == .keyword(.for), tokens[position + 1].kind == .symbol(":") {
                // A keyword may be a label, as Swift's `Task.sleep(for:)`.
                label = "for"
                _ = advance()
                _ = advance()
            }
            arguments.append(Argument(label: label, value: try parseExpression()))
            skipNewlines()
            if !match(",") { break }
            skipNewlines()
        }
        try consume(")", "expected ')' after the arguments")
        return arguments
    }

    private mutating func parseTrailingClosure() throws(Failure) -> Closure? {
        guard check("{") && allowTrailingClosure else { return nil }
        return try parseClosure()
    }

    /// `{ a, b in statements }` or `{ statements }`.
    mutating func parseClosure() throws(Failure) -> Closure {
        try nest()
        defer { nesting -= 1 }
        let start = try consume("{", "expected '{'").range
        var parameters: [String] = []
        // A capture list: `[weak a, b]` (a plain name captures its value, as every
        // capture does here).
        var weakCaptures: [String] = []
        let listed = isCaptureList()
        if listed {
            _ = advance()
            repeat {
                let isWeak = current.kind == .identifier("weak")
                if isWeak { _ = advance() }
                let name = try consumeIdentifier("expected a name to capture, as in [weak controller]")
                if isWeak { weakCaptures.append(self.name(of: name)) }
            } while match(",")
            try consume("]", "expected ']' to close the capture list")
        }
        // `{ @MainActor in … }`: a task's closure isolated to the main actor.
        var isMainActor = false
        if case .attribute(let attribute) = current.kind {
            guard attribute == "MainActor" else {
                throw error("a closure may be marked '@MainActor', not '@\(attribute)'", note: Suggestion.note(for: attribute, in: ["MainActor"]))
            }
            _ = advance()
            isMainActor = true
        }
        var probe = position
        var names: [String] = []
        while case .identifier(let word) = tokens[probe].kind {
            names.append(word)
            probe += 1
            if tokens[probe].kind == .symbol(",") { probe += 1 } else { break }
        }
        if isParenthesizedParameterList() {
            // `{ (continuation: CheckedContinuation<Int, Never>) in … }`: the types are
            // Swift's business.
            _ = advance()
            repeat {
                parameters.append(name(of: try consumeIdentifier("expected a parameter name")))
                _ = try parseOptionalType()
            } while match(",")
            try consume(")", "expected ')' after the closure's parameters")
            guard check(.in) else { throw error("expected 'in' after the closure's parameters, found \(current.quoted)") }
            _ = advance()
        } else if !names.isEmpty && tokens[probe].kind == .keyword(.in) {
            parameters = names
            position = probe + 1
        } else if listed || isMainActor {
            guard check(.in) else { throw error("expected 'in' after \(isMainActor ? "'@MainActor'" : "the capture list"), found \(current.quoted)") }
            _ = advance()
        }
        let saved = allowTrailingClosure
        allowTrailingClosure = true
        let body = parseStatements()
        allowTrailingClosure = saved
        try consume("}", "expected '}' to close the closure")
        var closure = Closure(parameters: parameters, body: body, range: start.joined(previous.range), weakCaptures: weakCaptures)
        closure.isMainActor = isMainActor
        return closure
    }

    /// Whether a closure's body starts with its parameters in parentheses, perhaps
    /// typed (`(group) in`, `(k: Int, v: Int) in`), not an expression in parentheses.
    func isParenthesizedParameterList() -> Bool {
        guard check("("), case .identifier = tokens[position + 1].kind else { return false }
        var probe = position + 1
        var depth = 0
        while probe < tokens.count {
            switch tokens[probe].kind {
            case .symbol("("), .symbol("["), .symbol("<"): depth += 1
            case .symbol("]"), .symbol(">"): depth -= 1
            case .symbol(")"):
                if depth == 0 { return probe + 1 < tokens.count && tokens[probe + 1].kind == .keyword(.in) }
                depth -= 1
            case .newline, .end, .symbol("{"), .symbol("}"): return false
            default: break
            }
            probe += 1
        }
        return false
    }

    /// Whether a closure's body starts with a capture list: `[weak a, b] in`, not an
    /// array literal.
    func isCaptureList() -> Bool {
        guard check("[") else { return false }
        var probe = position + 1
        while true {
            if tokens[probe].kind == .identifier("weak") { probe += 1 }
            guard case .identifier = tokens[probe].kind else { return false }
            probe += 1
            if tokens[probe].kind == .symbol(",") {
                probe += 1
                continue
            }
            return tokens[probe].kind == .symbol("]") && (tokens[probe + 1].kind == .keyword(.in) || isNameThenIn(probe + 1))
        }
    }

    private func isNameThenIn(_ index: Int) -> Bool {
        var probe = index
        while case .identifier = tokens[probe].kind {
            probe += 1
            if tokens[probe].kind == .symbol(",") { probe += 1 } else { break }
        }
        return probe > index && tokens[probe].kind == .keyword(.in)
    }

    private mutating func parsePrimary() throws(Failure) -> Expression {
        let token = current
        switch token.kind {
        case .int(let n):
            _ = advance()
            return Expression(.int(n), token.range)
        case .string(let s):
            _ = advance()
            return Expression(.string(s), token.range)
        case .keyword(.true), .keyword(.false):
            _ = advance()
            return Expression(.bool(token.kind == .keyword(.true)), token.range)
        case .keyword(.nil):
            _ = advance()
            return Expression(.nil, token.range)
        case .keyword(.self):
            _ = advance()
            return Expression(.self, token.range)
        case .identifier(let name):
            _ = advance()
            return Expression(.name(name), token.range)
        case .symbol("."):
            _ = advance()
            guard case .identifier(let name) = current.kind else { throw error("expected a member name after '.', found \(current.quoted)") }
            _ = advance()
            return Expression(.implicitMember(name), token.range.joined(previous.range))
        case .symbol("("):
            _ = advance()
            skipNewlines()
            let saved = allowTrailingClosure
            allowTrailingClosure = true
            let inner = try parseExpression()
            allowTrailingClosure = saved
            skipNewlines()
            try consume(")", "expected ')'")
            return Expression(inner.kind, token.range.joined(previous.range))
        case .symbol("["):
            _ = advance()
            var elements: [Expression] = []
            skipNewlines()
            if match(":") {
                try consume("]", "expected ']' after '[:' (an empty dictionary)")
                return try node(.dictionary([]), token.range.joined(previous.range))
            }
            var keyed: Bool?
            while !check("]") {
                elements.append(try parseExpression())
                skipNewlines()
                // The first element says whether this is a dictionary (key: value).
                let pair = match(":")
                if keyed == nil { keyed = pair }
                if pair != keyed {
                    throw error(keyed! ? "expected ':' and a value after the key" : "unexpected ':' in an array literal")
                }
                if pair {
                    skipNewlines()
                    elements.append(try parseExpression())
                    skipNewlines()
                }
                if !match(",") { break }
                skipNewlines()
            }
            try consume("]", keyed == true ? "expected ']' to close the dictionary" : "expected ']' to close the array")
            return try node(keyed == true ? .dictionary(elements) : .array(elements), token.range.joined(previous.range))
        case .symbol("{"):
            let closure = try parseClosure()
            return Expression(.closure(closure), closure.range)
        default:
            throw error("expected an expression, found \(token.quoted)")
        }
    }
}
