import RaceLabLanguage

extension Compiler {
    /// Finds a local, capturing it from enclosing code when a closure uses it.
    mutating func resolveLocal(_ name: String, level: Int) -> CodeBuilder.Local? {
        if let local = builders[level].lookup(name) { return local }
        guard level > 0, builders[level].isClosure, let outer = resolveLocal(name, level: level - 1) else { return nil }
        let slot = builders[level].newSlot(name)
        builders[level].captures.append((outer.slot, slot))
        // A closure inside a `[weak x]` closure that uses x captures the weak
        // reference: reading it there is a step of its own too.
        if builders[level - 1].code.weakSlots.contains(outer.slot) { builders[level].code.weakSlots.append(slot) }
        let local = CodeBuilder.Local(slot: slot, isLet: true, isCapture: true, isAsyncLet: outer.isAsyncLet, isGroup: outer.isGroup)
        builders[level].scopes[0][name] = local
        return local
    }

    mutating func unknownName(_ name: String, at range: SourceRange) -> Failure {
        var candidates = builders.flatMap({ $0.visibleNames }) + program.globals.map({ $0.name })
        candidates += functionIndex.keys.sorted() + program.classes.map({ $0.name }) + Compiler.builtinFunctions
        return error("unknown name '\(name)'", at: range, note: Suggestion.note(for: name, in: candidates))
    }

    /// The place an expression names, if it is a variable or a field; a field's object
    /// is compiled onto the stack. Emits nothing when it returns nil.
    /// The place an array expression names. `changing`: the place is written (a
    /// mutating method, a subscript assignment), so a constant or a captured value
    /// is a diagnostic; reading one (`a[i]`, `a.count`, `for x in a`) is fine.
    mutating func placeForMutation(_ expression: Expression, changing: Bool = true) throws(Failure) -> Place? {
        try locate(expression, changing: changing)?.place
    }

    /// `placeForMutation`, with the instruction that loaded a field's object (see
    /// `compileObject`).
    mutating func locate(_ expression: Expression, changing: Bool) throws(Failure) -> (place: Place, objectLoad: Int?)? {
        switch expression.kind {
        case .name(let name):
            if let local = resolveLocal(name, level: builders.count - 1) {
                if changing && local.isCapture {
                    throw error(
                        "cannot change '\(name)': closures capture values, not variables; use a shared variable or an object's field",
                        at: expression.range)
                }
                if changing && local.isLet { throw error("cannot change '\(name)': it is a 'let' constant (declare it with 'var')", at: expression.range) }
                return (.local(local.slot), nil)
            }
            if let member = implicitMember(name, at: expression.range) { return try locate(member, changing: changing) }
            if let global = visibleGlobal(name) {
                if changing && program.globals[global].isLet {
                    throw error("cannot change '\(name)': it is a 'let' constant (declare it with 'var')", at: expression.range)
                }
                return (.global(global), nil)
            }
            if name == "main" || functionIndex[name] != nil || program.classIndex(named: name) != nil { return nil }
            throw unknownName(name, at: expression.range)
        case .member(let base, let field) where !Compiler.reservedFieldNames.contains(field):
            try checkProperty(field, at: expression.range)
            let owners = program.classes.filter { $0.fieldNames.contains(field) }
            // An init sets its own object's fields, `let` ones too.
            let initializing = builder.isInitializer && base.kind == .self
            if changing, !initializing, !owners.isEmpty, owners.allSatisfy({ $0.fieldIsLet[$0.fieldNames.firstIndex(of: field)!] }) {
                throw error(
                    "cannot change '\(field)': it is a 'let' field of \(owners.map({ $0.name }).joined(separator: ", "))", at: expression.range)
            }
            if changing { try refuseActorChange(base, field, owners: owners, at: expression.range) }
            let load = try compileObject(base)
            return (.field(name: program.name(field)), load)
        default:
            return nil
        }
    }

    /// Compiles the object of a member access (`x` in `x.f`, `x!.f`, `x?.f`) and
    /// returns the index of the instruction that loaded the reference, before any
    /// `!`: where the object came from, for `CodeBuilder.holdUntilHere`.
    mutating func compileObject(_ base: Expression) throws(Failure) -> Int {
        // Iterative: `x!!!` peels without recursing.
        var unwraps: [Expression] = []
        var inner = base
        while case .forceUnwrap(let wrapped) = inner.kind {
            unwraps.append(inner)
            inner = wrapped
        }
        try compileExpression(inner)
        let load = lastEmitted
        let saved = builder.currentRange
        for unwrap in unwraps.reversed() {
            builder.currentRange = unwrap.range
            emit(.unwrap)
        }
        builder.currentRange = saved
        return load
    }

    /// A property no class declares and no built-in type has can never be read or
    /// written: a diagnostic now ("did you mean"), not a crash when the step runs.
    mutating func checkProperty(_ name: String, at range: SourceRange) throws(Failure) {
        let known =
            program.classes.flatMap({ $0.fieldNames }) + Access.builtinProperties + Compiler.writableBuiltinProperties
            + Compiler.reservedFieldNames
        guard !known.contains(name) else { return }
        throw error(
            "unknown property '\(name)': no class declares it, and no built-in type has it", at: range,
            note: Suggestion.note(for: name, in: known))
    }

    func visibleGlobal(_ name: String) -> Int? {
        guard let index = globalIndex[name] else { return nil }
        if let limit = setupVisibleGlobals, index >= limit { return nil }
        return index
    }

    mutating func compileExpression(_ expression: Expression) throws(Failure) {
        let saved = builder.currentRange
        builder.currentRange = expression.range
        defer { builder.currentRange = saved }
        switch expression.kind {
        case .int(let n): emit(constant: .int(n))
        case .bool(let b): emit(constant: .bool(b))
        case .string(let s): emit(constant: .string(s))
        case .nil: emit(constant: .none)
        case .array(let items):
            if let value = constantValue(expression) {
                emit(constant: value)
            } else {
                for item in items { try compileExpression(item) }
                emit(.makeArray(items.count))
            }
        case .dictionary(let elements):
            for element in elements { try compileExpression(element) }
            builder.currentRange = expression.range
            emit(.makeDictionary(elements.count / 2))
        case .name(let name):
            if let local = resolveLocal(name, level: builders.count - 1), local.isAsyncLet {
                try compileAsyncLetRead(name, local, range: expression.range)
            } else if let local = resolveLocal(name, level: builders.count - 1) {
                if local.isGroup && local.isCapture {
                    throw error(
                        "a task group cannot be captured by a closure (Swift: escaping closure captures non-escaping parameter '\(name)'): only its body uses it",
                        at: expression.range)
                }
                emit(.loadLocal(local.slot))
            } else if let member = implicitMember(name, at: expression.range) {
                try compileExpression(member)
            } else if let global = visibleGlobal(name) {
                emit(.load(.global(global)))
            } else if functionIndex[name] != nil {
                throw error("'\(name)' is a function: call it with '\(name)(…)'", at: expression.range)
            } else if program.classIndex(named: name) != nil {
                throw error("'\(name)' is a class: create one with '\(name)()'", at: expression.range)
            } else if name == "main" {
                throw error("'main' is the main thread: use 'main.async { … }' or 'main.sync { … }'", at: expression.range)
            } else {
                throw unknownName(name, at: expression.range)
            }
        case .self:
            guard let local = resolveLocal("self", level: builders.count - 1) else {
                throw error("'self' is only available in a class's deinit, init or methods", at: expression.range)
            }
            emit(.loadLocal(local.slot))
        case .member(let base, let member) where Compiler.isAtomicResult(base, member):
            // Swift's atomic operations return tuples; here each returns the part
            // that matters, which may be named as in Swift.
            try compileExpression(base)
        case .member(let base, let member) where try compileConcurrencyMember(base, member, range: expression.range):
            break
        case .try(let inner, let optional):
            try compileTry(inner, optional: optional, range: expression.range)
        case .await(let inner):
            try compileAwait(inner, range: expression.range)
        case .member(let base, let member):
            if let property = ArrayProperty(rawValue: member) {
                try compileArrayRead(base) { .arrayProperty($0, property) }
            } else {
                try checkProperty(member, at: expression.range)
                let load = try compileObject(base)
                let name = program.name(member)
                holdUntilHere(load)
                emit(.load(.field(name: name)))
            }
        case .subscript(let base, let index):
            try compileArrayRead(base, index: index) { .readElement($0) }
        case .call(let callee, let arguments, let trailing):
            try compileCall(callee, arguments, trailing, range: expression.range)
        case .unary(let op, let operand):
            try compileExpression(operand)
            emit(.unary(try operatorNamed(op, at: expression.range)))
        case .binary("&&", let left, let right):
            try compileExpression(left)
            let toFalse = emit(.jumpIfFalse(-1))
            try compileExpression(right)
            let toEnd = emit(.jump(-1))
            patch(toFalse)
            emit(constant: .bool(false))
            patch(toEnd)
        case .binary("||", let left, let right):
            try compileExpression(left)
            let toRight = emit(.jumpIfFalse(-1))
            emit(constant: .bool(true))
            let toEnd = emit(.jump(-1))
            patch(toRight)
            try compileExpression(right)
            patch(toEnd)
        case .binary("??", let left, let right):
            try compileExpression(left)
            emit(.duplicate)
            emit(constant: .none)
            emit(.binary(.equal))
            let toEnd = emit(.jumpIfFalse(-1))
            emit(.pop)
            try compileExpression(right)
            patch(toEnd)
        case .binary(let op, let left, let right):
            try compileExpression(left)
            try compileExpression(right)
            emit(.binary(try operatorNamed(op, at: expression.range)))
        case .implicitMember(let name):
            // The results of `DispatchSemaphore.wait(timeout:)`, and the timeout that
            // waits forever; compared as the names they are.
            if let priority = Compiler.queuePriorities.firstIndex(of: name) {
                // An operation's queue priority, as Foundation numbers them.
                emit(constant: .int(priority * 4 - 8))
                return
            }
            if let qos = Compiler.qualitiesOfService.firstIndex(of: name) {
                // A quality of service, lowest first.
                emit(constant: .int(qos))
                return
            }
            guard ["success", "timedOut", "distantFuture"].contains(name) else {
                throw error(
                    "'.\(name)' is not known here: timeouts are .now() and .distantFuture, wait results .success and .timedOut, queue priorities .veryLow to .veryHigh, qualities of service .background to .userInteractive",
                    at: expression.range,
                    note: Suggestion.note(
                        for: name, in: ["success", "timedOut", "distantFuture", "now"] + Compiler.queuePriorities + Compiler.qualitiesOfService))
            }
            emit(constant: .string(name))
        case .optionalMember(let base, let member):
            // nil stays nil; an object gives its member.
            try checkProperty(member, at: expression.range)
            if try compileIsolatedRead(base, member, optional: true, range: expression.range) { return }
            let load = try compileObject(base)
            emit(.duplicate)
            emit(constant: .none)
            emit(.binary(try operatorNamed("==", at: expression.range)))
            let toMember = emit(.jumpIfFalse(-1))
            emit(.pop)
            emit(constant: .none)
            let toEnd = emit(.jump(-1))
            patch(toMember)
            holdUntilHere(load)
            emit(.load(.field(name: program.name(member))))
            patch(toEnd)
        case .forceUnwrap(let inner):
            try compileExpression(inner)
            emit(.unwrap)
        case .closure:
            throw error("a closure can only be passed to spawn, main.async, main.sync, Operation or addOperation", at: expression.range)
        }
    }

    /// `base.count`, `base[i]`: one shared read when base is shared storage.
    mutating func compileArrayRead(_ base: Expression, index: Expression? = nil, _ make: (Place) -> Instruction) throws(Failure) {
        let located = try locate(base, changing: false)
        var place = located?.place
        if place == nil {
            try compileExpression(base)
            let temp = builder.newSlot("value", temp: true)
            emit(.storeTemp(temp))
            place = .local(temp)
        }
        if let index { try compileExpression(index) }
        if let load = located?.objectLoad { holdUntilHere(load) }
        emit(make(place!))
    }

    /// Compiles a closure literal into its own code and emits `makeClosure`.
    /// - Parameter context: where the closure runs, as Swift 6 sees it: by default, on
    ///   a thread of its own (a `spawn`, a queue's or an operation's block).
    mutating func compileClosure(
        _ closure: Closure, name: String, allowedParameters: Int, isAsync: Bool = false, context: Swift6Check.Context? = nil, canThrow: Bool = false
    ) throws(Failure) {
        if closure.isMainActor && !isAsync {
            throw error("'@MainActor in' marks a task's closure: Task { @MainActor in … }", at: closure.range)
        }
        if closure.parameters.count > allowedParameters {
            let what = allowedParameters == 0 ? "takes no parameters" : "takes at most \(allowedParameters) parameter (the operation itself)"
            throw error("this closure \(what)", at: closure.range)
        }
        var inner = CodeBuilder(name: name, isClosure: true)
        inner.isAsync = isAsync
        inner.canThrow = canThrow
        inner.context = builder.context == nil ? nil : context ?? .thread(name)
        for parameter in closure.parameters { _ = inner.declare(parameter, isLet: true) }
        inner.code.parameterCount = closure.parameters.count
        builders.append(inner)
        for name in closure.weakCaptures {
            // Captured now, used or not: the capture list says so.
            guard let local = resolveLocal(name, level: builders.count - 1), local.isCapture else {
                builders.removeLast()
                throw error("[weak \(name)] captures a local variable of the enclosing code, and '\(name)' is not one", at: closure.range)
            }
            builder.code.weakSlots.append(local.slot)
        }
        compileStatements(closure.body)
        builder.currentRange = SourceRange(closure.range.end, closure.range.end)
        emit(constant: .none)
        emit(.ret)
        var done = builders.removeLast()
        done.code.captureSlots = done.captures.map({ $0.inner })
        let code = add(done.code)
        let captures = program.slotList(done.captures.map({ $0.outer }))
        emit(.makeClosure(code: code, captures: captures))
    }
}

extension Compiler {
    static let queuePriorities = ["veryLow", "low", "normal", "high", "veryHigh"]
    static let qualitiesOfService = ["background", "utility", "default", "userInitiated", "userInteractive"]

    /// `c.wrappingAdd(1).newValue`, `c.compareExchange(expected: 0, desired: 1).exchanged`.
    static func isAtomicResult(_ base: Expression, _ member: String) -> Bool {
        guard case .call(let callee, _, _) = base.kind, case .member(_, let method) = callee.kind else { return false }
        switch (method, member) {
        case ("wrappingAdd", "newValue"), ("wrappingSubtract", "newValue"), ("compareExchange", "exchanged"): return true
        default: return false
        }
    }
}
