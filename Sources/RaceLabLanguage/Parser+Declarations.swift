extension Parser {
    static let metadataKeys = ["title", "story", "source", "challenge", "summary", "fails", "variant"] + modelKeys + exerciseKeys
    /// The statements that change the model a program runs under (what a run may do)
    /// rather than the program: `scheduling "strict priority"`, a scheduler policy
    /// under which priorities decide who runs, and `wakeups "signalled only"`, which
    /// turns spurious wakeups off, and `memory "manual"`, manual reference counting.
    /// Each is `KEY "value"`, parsed as metadata. An exercise fixes its model, so
    /// `Template.exerciseStatement` refuses these in an editable region.
    public static let modelKeys = ["scheduling", "wakeups", "memory", "mailbox", "pool", "upcoming"]
    /// Metadata of an exercise (see docs/TEACHING.md); `points` also takes a number.
    static let exerciseKeys = ["exercise", "kind", "level", "task", "hint", "points", "goal", "predict", "answer", "credit", "feedback"]

    /// Declarations up to the end of file (or the `}` closing a fix).
    mutating func parseDeclarations(untilBrace: Bool) -> [Declaration] {
        var declarations: [Declaration] = []
        skipNewlines()
        while current.kind != .end && !(untilBrace && check("}")) {
            let before = position
            do throws(Failure) {
                declarations.append(try parseDeclaration(inFix: untilBrace))
                declarations += pendingDeclarations
                pendingDeclarations = []
            } catch {
                synchronize()
                if check("}") && !untilBrace { _ = advance() }
                // Always make progress, whatever the error left behind.
                if position == before { _ = advance() }
            }
            skipNewlines()
        }
        return declarations
    }

    mutating func parseDeclaration(inFix: Bool) throws(Failure) -> Declaration {
        let start = current.range
        var mainThreadOnly = false
        var isolation = VariableIsolation.inferred
        if let marked = try parseFunctionIsolation() {
            var declaration = try parseFunction(start: start)
            if case .function(var function) = declaration.kind {
                function.isolation = marked
                declaration.kind = .function(function)
            }
            return declaration
        }
        if case .attribute(let attribute) = current.kind {
            guard attribute == "mainThreadOnly" || attribute == "MainActor" else {
                throw error("unknown attribute '@\(attribute)'", note: Suggestion.note(for: attribute, in: ["mainThreadOnly", "MainActor", "concurrent"]))
            }
            _ = advance()
            skipNewlines()
            if attribute == "MainActor" {
                if check(.func) {
                    var declaration = try parseFunction(start: start)
                    if case .function(var function) = declaration.kind {
                        function.isolation = .mainActor
                        declaration.kind = .function(function)
                    }
                    return declaration
                }
                if check(.class) {
                    var declaration = try parseClass(mainThreadOnly: false, start: start)
                    if case .class(var c) = declaration.kind {
                        c.isMainActor = true
                        declaration.kind = .class(c)
                    }
                    return declaration
                }
                guard startsVariable else {
                    throw error("'@MainActor' must come before a func, a class or a top-level var, found \(current.quoted)")
                }
                isolation = .mainActor
            } else {
                mainThreadOnly = true
                guard check(.class) else { throw error("'@mainThreadOnly' must come before a class, found \(current.quoted)") }
            }
        } else if current.kind == .identifier("nonisolated"), tokens[position + 1].kind == .symbol("(") {
            // `nonisolated(unsafe) var`: Swift 6 stops checking the variable.
            _ = advance()
            _ = advance()
            guard current.kind == .identifier("unsafe") else { throw error("a top-level variable may be 'nonisolated(unsafe)', found \(current.quoted)") }
            _ = advance()
            try consume(")", "expected ')' after 'nonisolated(unsafe'")
            skipNewlines()
            guard startsVariable else { throw error("'nonisolated(unsafe)' must come before a top-level var, found \(current.quoted)") }
            isolation = .nonisolatedUnsafe
        }
        if current.kind == .identifier("actor"), case .identifier = tokens[position + 1].kind {
            return try parseClass(mainThreadOnly: false, start: start, isActor: true)
        }
        if current.kind == .identifier("task"), case .identifier = tokens[position + 1].kind, tokens[position + 2].kind == .symbol("{") {
            _ = advance()
            let nameToken = try consumeIdentifier("expected a task name after 'task'")
            let body = try parseBlock()
            return Declaration(.task(name: name(of: nameToken), body: body), start.joined(previous.range), nameRange: nameToken.range)
        }
        let storage = parseStorage()
        switch current.kind {
        case .keyword(.class):
            return try parseClass(mainThreadOnly: mainThreadOnly, start: start)
        case .keyword(.let) where tokens[position + 1].kind == .symbol("("):
            let (first, second, value) = try parseStreamPair()
            try endOfStatement()
            pendingDeclarations.append(
                Declaration(
                    .global(isLet: true, name: name(of: second), type: nil, value: Expression(.name(name(of: first)), second.range), storage: .plain),
                    start.joined(value.range), nameRange: second.range))
            return Declaration(
                .global(isLet: true, name: name(of: first), type: nil, value: value, storage: storage), start.joined(value.range), nameRange: first.range)
        case .keyword(.var), .keyword(.let):
            let isLet = advance().kind == .keyword(.let)
            let nameToken = try consumeIdentifier("expected a variable name")
            let type = try parseOptionalType()
            try consume("=", "a shared variable needs an initial value: expected '='")
            let value = try parseExpression()
            try endOfStatement()
            return Declaration(
                .global(isLet: isLet, name: name(of: nameToken), type: type, value: value, storage: storage, isolation: isolation),
                start.joined(value.range), nameRange: nameToken.range)
        case .keyword(.func):
            return try parseFunction(start: start)
        case .keyword(.thread):
            _ = advance()
            let nameToken = try consumeIdentifier("expected a thread name after 'thread'")
            let body = try parseBlock()
            return Declaration(.thread(name: name(of: nameToken), body: body), start.joined(previous.range), nameRange: nameToken.range)
        case .identifier("main") where tokens[position + 1].kind == .symbol("{"):
            let nameToken = advance()
            let body = try parseBlock()
            return Declaration(.thread(name: "main", body: body), start.joined(previous.range), nameRange: nameToken.range)
        case .keyword(.expect), .identifier("always"):
            // `expect` is checked at the end, `always` after every step.
            let isInvariant = advance().kind == .identifier("always")
            let condition = try parseExpression()
            try consume(",", "expected ',' and a message after the \(isInvariant ? "invariant" : "expectation")")
            let message = try consumeString("expected a message string")
            try endOfStatement()
            let kind: DeclarationKind = isInvariant ? .always(condition: condition, message: message) : .expect(condition: condition, message: message)
            return Declaration(kind, start.joined(condition.range))
        case .keyword(.schedule):
            _ = advance()
            let nameToken = try consumeIdentifier("expected a schedule name after 'schedule'")
            let steps = try consumeString("expected the schedule as a string, like \"A B main\"")
            let end = previous.range
            try endOfStatement()
            return Declaration(.schedule(name: name(of: nameToken), steps: steps), start.joined(end), nameRange: nameToken.range)
        case .keyword(.fix):
            if inFix { throw error("a fix cannot contain another fix") }
            _ = advance()
            let nameToken = try consumeIdentifier("expected a fix name after 'fix'")
            try consume("{", "expected '{' to start the fix")
            let declarations = parseDeclarations(untilBrace: true)
            try consume("}", "expected '}' to close the fix")
            return Declaration(.fix(name: name(of: nameToken), declarations: declarations), start.joined(previous.range), nameRange: nameToken.range)
        case .identifier("remove") where inFix:
            _ = advance()
            let whatToken = advance()
            let kinds: [Keyword: String] = [
                .thread: "thread", .func: "function", .var: "variable", .let: "variable",
                .class: "class", .schedule: "schedule",
            ]
            guard case .keyword(let keyword) = whatToken.kind, let what = kinds[keyword] else {
                throw error("expected what to remove: 'thread', 'func', 'var', 'class' or 'schedule', found \(whatToken.quoted)", at: whatToken.range)
            }
            let nameToken = try consumeIdentifier("expected the name of the \(what) to remove")
            try endOfStatement()
            return Declaration(.remove(what: what, name: name(of: nameToken)), start.joined(nameToken.range), nameRange: nameToken.range)
        case .identifier(let key) where Parser.metadataKeys.contains(key):
            _ = advance()
            var value: String
            if key == "points" || key == "pool", case .int(let number) = current.kind {
                _ = advance()
                value = String(number)
            } else if key == "credit" {
                // credit 6 "no update is lost": points, then what earns them.
                guard case .int(let number) = current.kind else { throw error("expected the points after 'credit', found \(current.quoted)") }
                _ = advance()
                value = "\(number) " + (try consumeString("expected the check that earns them, in quotes"))
            } else {
                value = try consumeString("expected a string after '\(key)'")
            }
            let end = previous.range
            try endOfStatement()
            return Declaration(.metadata(key: key, value: value), start.joined(end), nameRange: start)
        case .identifier("remove") where !inFix:
            throw error("'remove' belongs inside a fix: fix NAME { remove thread A }")
        case .identifier(let word):
            let expected =
                Parser.metadataKeys + ["main", "var", "let", "func", "class", "actor", "thread", "task", "expect", "schedule", "fix"]
                + (inFix ? ["remove"] : [])
            throw error("expected a declaration, found '\(word)'", note: Suggestion.note(for: word, in: expected))
        default:
            throw error("expected a declaration, found \(current.quoted)")
        }
    }

    mutating func parseOptionalType() throws(Failure) -> TypeAnnotation? {
        guard match(":") else { return nil }
        let start = current.range
        let text = try parseTypeText("expected a type name")
        return TypeAnnotation(text: text, range: start.joined(previous.range))
    }

    /// A type, as written: `Int`, `[Int]`, `[String: Int]`, `Set<Int>`, `Task<Int, Never>`,
    /// `CheckedContinuation<Int, any Error>`, each perhaps optional (`?`). Only a
    /// set's type changes what a value is (`Compiler.compileTyped`); the others are
    /// Swift's business.
    mutating func parseTypeText(_ expected: String) throws(Failure) -> String {
        try nest()
        defer { nesting -= 1 }
        var text: String
        if match("[") {
            text = "[" + (try parseTypeText("expected a type name"))
            if match(":") { text += ": " + (try parseTypeText("expected the dictionary's value type")) }
            text += "]"
            try consume("]", "expected ']' to close the collection type")
        } else {
            if current.kind == .identifier("any"), case .identifier = tokens[position + 1].kind { _ = advance() }
            text = name(of: try consumeIdentifier(expected))
            if match("<") {
                // A generic type: Set<Int>, Task<Int, Never>.
                var parameters = [try parseTypeText("expected a type name")]
                while match(",") { parameters.append(try parseTypeText("expected a type name")) }
                text += "<" + parameters.joined(separator: ", ") + ">"
                try consume(">", "expected '>' to close the type's parameters")
            }
        }
        if match("?") { text += "?" }
        return text
    }

    mutating func parseClass(mainThreadOnly: Bool, start: SourceRange, isActor: Bool = false) throws(Failure) -> Declaration {
        _ = advance()
        let nameToken = try consumeIdentifier("expected a\(isActor ? "n actor" : " class") name after '\(isActor ? "actor" : "class")'")
        var superclass: Located<String>?
        if !isActor && match(":") {
            let token = try consumeIdentifier("expected the class it inherits from after ':'")
            superclass = Located(name(of: token), at: token.range)
        }
        try consume("{", "expected '{' to start the class body")
        skipNewlines()
        var declaration = ClassDeclaration(name: name(of: nameToken), mainThreadOnly: mainThreadOnly, fields: [], deinitBody: nil)
        declaration.superclass = superclass
        declaration.isActor = isActor
        while !check("}") && current.kind != .end {
            do throws(Failure) {
                try parseClassMember(into: &declaration)
                try endOfStatement()
            } catch {
                synchronize()
            }
            skipNewlines()
        }
        try consume("}", "expected '}' to close the \(isActor ? "actor" : "class")")
        return Declaration(.class(declaration), start.joined(previous.range), nameRange: nameToken.range)
    }

    /// One member of a class: a field, its deinit, its init, or (in an Operation
    /// subclass) `override func main()`, `override func start()` or
    /// `override var isAsynchronous: Bool { true }`.
    mutating func parseClassMember(into declaration: inout ClassDeclaration) throws(Failure) {
        let memberStart = current.range
        if match(.deinit) {
            if declaration.deinitBody != nil { throw error("a class has at most one deinit", at: memberStart) }
            declaration.deinitBody = try parseBlock()
            return
        }
        if current.kind == .identifier("init") {
            _ = advance()
            let parameters = try parseParameters(after: "'init'")
            let body = try parseBlock()
            let function = FunctionDeclaration(name: "init", parameters: parameters, body: body)
            declaration.methods.append(.init(function: function, isOverride: false, range: memberStart.joined(previous.range)))
            return
        }
        let isOverride = current.kind == .identifier("override")
        if isOverride { _ = advance() }
        let marked = isOverride ? nil : try parseFunctionIsolation()
        if match(.func) {
            let nameToken = try consumeIdentifier("expected a method name after 'func'")
            let parameters = try parseParameters(after: "the method name")
            let (isAsync, isThrowing) = parseEffects()
            if match("->") { _ = try parseTypeText("expected a return type after '->'") }
            let body = try parseBlock()
            var function = FunctionDeclaration(name: name(of: nameToken), parameters: parameters, body: body)
            function.isAsync = isAsync
            function.isThrowing = isThrowing
            if let marked { function.isolation = marked }
            declaration.methods.append(.init(function: function, isOverride: isOverride, range: memberStart.joined(previous.range)))
            return
        }
        if isOverride {
            // `override var isAsynchronous: Bool { true }` (or `{ return true }`).
            guard match(.var) else { throw error("expected 'func' or 'var' after 'override', found \(current.quoted)") }
            let property = try consumeIdentifier("expected a property name")
            guard name(of: property) == "isAsynchronous" else {
                throw error("an Operation subclass may override the property isAsynchronous, not '\(name(of: property))'", at: property.range)
            }
            _ = try parseOptionalType()
            try consume("{", "expected '{' and the value: override var isAsynchronous: Bool { true }")
            skipNewlines()
            _ = match(.return)
            let value: Bool
            if match(.true) {
                value = true
            } else if match(.false) {
                value = false
            } else {
                throw error("isAsynchronous is 'true' or 'false' here, found \(current.quoted)")
            }
            skipNewlines()
            try consume("}", "expected '}' after the value")
            if declaration.isAsynchronous != nil { throw error("isAsynchronous is overridden twice", at: memberStart) }
            declaration.isAsynchronous = Located(value, at: memberStart.joined(previous.range))
            return
        }
        guard check(.var) || check(.let) || current.kind == .identifier("atomic") || current.kind == .identifier("weak") else {
            throw error("expected a field ('var name = value'), 'init', 'deinit' or an overriding method in a class, found \(current.quoted)")
        }
        let storage = parseStorage()
        guard check(.var) || check(.let) else { throw error("expected 'var' after \(previous.quoted), found \(current.quoted)") }
        let isLet = advance().kind == .keyword(.let)
        let fieldName = try consumeIdentifier("expected a field name")
        let type = try parseOptionalType()
        if type != nil && !check("=") {
            // No default: the class's init sets it (the compiler checks there is one).
            let value = Expression(.nil, fieldName.range)
            declaration.fields.append(.init(isLet: isLet, name: name(of: fieldName), value: value, range: fieldName.range, storage: storage, hasDefault: false))
            return
        }
        try consume("=", "a field needs a default value: expected '='")
        let value = try parseExpression()
        declaration.fields.append(.init(isLet: isLet, name: name(of: fieldName), value: value, range: fieldName.range, storage: storage))
    }

    /// `(a: Int, _ b: Int)`: the names the body uses.
    mutating func parseParameters(after what: String) throws(Failure) -> [String] {
        try consume("(", "expected '(' after \(what)")
        var parameters: [String] = []
        while !check(")") {
            var parameter = name(of: try consumeIdentifier("expected a parameter name"))
            if parameter == "_", case .identifier(let inner) = current.kind {
                _ = advance()
                parameter = inner
            }
            _ = try parseOptionalType()
            parameters.append(parameter)
            if !match(",") { break }
        }
        try consume(")", "expected ')' after the parameters")
        return parameters
    }

    /// `nonisolated`, `nonisolated(nonsending)` or `@concurrent` (SE-0461) before a
    /// `func`, consumed: the isolation it gives; nil (nothing consumed) when none is
    /// there.
    mutating func parseFunctionIsolation() throws(Failure) -> FunctionDeclaration.Isolation? {
        if current.kind == .attribute("concurrent") {
            _ = advance()
            skipNewlines()
            guard check(.func) else { throw error("'@concurrent' must come before an async func, found \(current.quoted)") }
            return .concurrent
        }
        guard current.kind == .identifier("nonisolated") else { return nil }
        if tokens[position + 1].kind == .keyword(.func) {
            _ = advance()
            return .nonisolated
        }
        guard tokens[position + 1].kind == .symbol("("), tokens[position + 2].kind == .identifier("nonsending") else { return nil }
        _ = advance()
        _ = advance()
        _ = advance()
        try consume(")", "expected ')' after 'nonisolated(nonsending'")
        guard check(.func) else { throw error("'nonisolated(nonsending)' must come before an async func, found \(current.quoted)") }
        return .nonsending
    }

    mutating func parseFunction(start: SourceRange) throws(Failure) -> Declaration {
        _ = advance()
        let nameToken = try consumeIdentifier("expected a function name after 'func'")
        let parameters = try parseParameters(after: "the function name")
        let (isAsync, isThrowing) = parseEffects()
        if match("->") { _ = try parseTypeText("expected a return type after '->'") }
        let body = try parseBlock()
        var function = FunctionDeclaration(name: name(of: nameToken), parameters: parameters, body: body)
        function.isAsync = isAsync
        function.isThrowing = isThrowing
        return Declaration(.function(function), start.joined(previous.range), nameRange: nameToken.range)
    }

    /// `async` and `throws` after a function's parameters, in Swift's order: whether
    /// each is there.
    mutating func parseEffects() -> (isAsync: Bool, isThrowing: Bool) {
        let isAsync = current.kind == .identifier("async")
        if isAsync { _ = advance() }
        let isThrowing = current.kind == .identifier("throws")
        if isThrowing { _ = advance() }
        return (isAsync, isThrowing)
    }
}
