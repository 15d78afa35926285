import RaceLabLanguage

extension Compiler {
    /// Compiles a block in a scope of its own.
    /// - Returns: where the code of each statement ends.
    @discardableResult
    mutating func compileStatements(_ statements: [Statement]) -> [Int] {
        builder.scopes.append([:])
        let asyncLets = builder.asyncLets.count
        var ends: [Int] = []
        for (index, statement) in statements.enumerated() {
            let line = statement.range.start.line
            if probes.contains(line), probed.insert(line).inserted {
                // Never found by name: a `required` block a student names alike is another.
                program.requirements.append(.init(name: "the locked code at line \(line)", thread: nil, holding: [], range: statement.range))
                program.requirements[program.requirements.count - 1].hasBlock = true
                program.requirements[program.requirements.count - 1].probeLine = line
                builder.currentRange = statement.range
                emit(.requirement(program.requirements.count - 1, holding: 0))
            }
            let start = builder.here
            do throws(Failure) {
                try compileStatement(statement)
            } catch {}
            ends.append(builder.here)
            // `idle`: a thread blocked in the statement after it may rest for ever.
            if index > 0, case .idle = statements[index - 1].kind { builders[builders.count - 1].code.idlePoints.append(start..<builder.here) }
        }
        if builder.asyncLets.count > asyncLets {
            // The scope's end: its `async let` children are awaited (and cancelled
            // if still running), last first.
            builder.currentRange = statements.last.map { SourceRange($0.range.end, $0.range.end) }
            endAsyncLets(downTo: asyncLets)
            builder.asyncLets.removeSubrange(asyncLets...)
        }
        builder.scopes.removeLast()
        return ends
    }

    mutating func compileStatement(_ statement: Statement) throws(Failure) {
        builder.currentRange = statement.range
        switch statement.kind {
        case .variable(let isLet, let name, let type, let value):
            try compileVariable(isLet: isLet, name: name, type: type, value: value, range: statement.range)
        case .assign(let target, let op, let value):
            try compileAssignment(target: target, op: op, value: value, range: statement.range)
        case .expression(let expression):
            if case .closure = expression.kind {
                throw error("a closure on its own does nothing; pass it to spawn, main.async, an Operation or addOperation", at: expression.range)
            }
            try compileExpression(expression)
            emit(.pop)
        case .if(let condition, let then, let otherwise):
            try compileExpression(condition)
            let toElse = emit(.jumpIfFalse(-1))
            compileStatements(then)
            if let otherwise {
                let toEnd = emit(.jump(-1))
                patch(toElse)
                compileStatements(otherwise)
                patch(toEnd)
            } else {
                patch(toElse)
            }
        case .while(let condition, let body):
            try compileWhile(condition, body)
        case .forRange(let variable, let from, let to, let inclusive, let body):
            builder.scopes.append([:])
            try compileExpression(from)
            let counter = builder.declare(variable, isLet: true)
            emit(.storeLocal(counter))
            try compileExpression(to)
            let limit = builder.newSlot("limit", temp: true)
            emit(.storeTemp(limit))
            let top = builder.here
            emit(.loadLocal(counter))
            emit(.loadLocal(limit))
            emit(.binary(inclusive ? .lessOrEqual : .less))
            let exit = emit(.jumpIfFalse(-1))
            builder.loops.append(.init(depth: builder.depth))
            compileStatements(body)
            let next = builder.here
            // A closed range stops at its last value before counting past it, so
            // `for i in 1...Int.max` does not overflow after its last iteration.
            var lastExit: Int?
            if inclusive {
                emit(.loadLocal(counter))
                emit(.loadLocal(limit))
                emit(.binary(.less))
                lastExit = emit(.jumpIfFalse(-1))
            }
            emit(.loadLocal(counter))
            emit(constant: .int(1))
            emit(.binary(.plus))
            emit(.storeLocal(counter))
            emit(.jump(top))
            patch(exit)
            if let lastExit { patch(lastExit) }
            for index in builder.loops.last!.continues { builders[builders.count - 1].patch(index, to: next) }
            builder.loops[builder.loops.count - 1].continues = []
            finishLoop()
            builder.scopes.removeLast()
        case .forAwait(let variable, let sequence, let body):
            try compileForAwait(variable: variable, sequence: sequence, body: body, range: statement.range)
        case .forEach(let variable, let sequence, let body):
            try compileForEach(variable: variable, sequence: sequence, body: body)
        case .forEachPair(let key, let value, let sequence, let body):
            try compileForEach(variable: key, value: value, sequence: sequence, body: body)
        case .asyncLet(let name, let value):
            try compileAsyncLet(name, value, range: statement.range)
        case .throw(let value):
            try compileThrow(value, range: statement.range)
        case .do(let body, let catches):
            try compileDo(body, catches, range: statement.range)
        case .return(let value) where !builder.inlineBodies.isEmpty:
            try compileInlineReturn(value, range: statement.range)
        case .return(let value):
            if builder.isDeinit, value != nil { throw error("deinit cannot return a value", at: statement.range) }
            if let selfClass = builder.selfClass, !program.classes[selfClass].isActor, !program.classes[selfClass].isMainActor, value != nil {
                throw error("\(builder.code.name) cannot return a value", at: statement.range)
            }
            if builder.pools > 0 { throw leavingPool("return", at: statement.range) }
            if builder.isInitializer {
                emit(.loadLocal(0))
            } else if let value {
                try compileExpression(value)
            } else {
                emit(constant: .none)
            }
            builder.currentRange = statement.range
            emitLeaving(to: CodeBuilder.Depth())
            emitEpilogue()
            emit(.ret)
        case .break, .continue:
            guard let loop = builder.loops.last else {
                throw error("'\(statement.kind == .break ? "break" : "continue")' outside a loop", at: statement.range)
            }
            if loop.depth.pools != builder.pools { throw leavingPool(statement.kind == .break ? "break" : "continue", at: statement.range) }
            emitLeaving(to: loop.depth)
            let jump = emit(.jump(-1))
            if statement.kind == .break {
                builder.loops[builder.loops.count - 1].breaks.append(jump)
            } else {
                builder.loops[builder.loops.count - 1].continues.append(jump)
            }
        case .synchronized(let token, let body):
            try compileExpression(token)
            builder.currentRange = statement.range
            let slot = builder.newSlot("token", temp: true)
            emit(.storeTemp(slot))
            emit(.loadLocal(slot))
            emit(.monitorEnter)
            builder.monitors.append(slot)
            compileStatements(body)
            builder.monitors.removeLast()
            builder.currentRange = SourceRange(statement.range.end, statement.range.end)
            emit(.loadLocal(slot))
            emit(.monitorExit)
        case .required(let name, let thread, let holding, let body):
            let index = requirement(named: name, at: statement.range)
            if program.requirements[index].hasBlock {
                throw error("the work \"\(name)\" is required twice; give each 'required' block a name of its own", at: statement.range)
            }
            program.requirements[index].hasBlock = true
            program.requirements[index].thread = thread
            program.requirements[index].holding = holding.map { text(of: $0.range) }
            program.requirements[index].range = statement.range
            for lock in holding { try compileExpression(lock) }
            builder.currentRange = statement.range
            emit(.requirement(index, holding: holding.count))
            compileStatements(body)
        case .critical(let name, let body):
            let label = name ?? "critical"
            if builder.criticals.contains(where: { program.criticalSections[$0] == label }) {
                throw error("a critical section '\(label)' inside itself: a thread is already in it here", at: statement.range)
            }
            if !program.criticalSections.contains(label) { program.criticalSections.append(label) }
            let section = program.criticalSections.firstIndex(of: label)!
            emit(.criticalEnter(section))
            builder.criticals.append(section)
            compileStatements(body)
            builder.criticals.removeLast()
            builder.currentRange = SourceRange(statement.range.end, statement.range.end)
            emit(.criticalExit(section))
        case .progress:
            builder.currentRange = statement.range
            emit(.progress)
        case .idle:
            // Marks the next statement (see `compileStatements`); it emits nothing.
            break
        case .due(let name, let condition):
            let index = requirement(named: name, at: statement.range)
            program.requirements[index].hasDue = true
            var skip: Int?
            if let condition {
                try compileExpression(condition)
                skip = emit(.jumpIfFalse(-1))
            }
            builder.currentRange = statement.range
            emit(.due(index))
            if let skip { patch(skip) }
        case .spawn(let name, let body):
            if name == "main" { throw error("'main' is the main thread; spawn a thread with another name", at: statement.range) }
            try compileClosure(body, name: name, allowedParameters: 0)
            builder.currentRange = statement.range
            let index = program.name(name)
            emit(.spawn(name: index))
        }
    }

    /// `let x = value` or `var x: T`, in code: a local of the thread.
    mutating func compileVariable(isLet: Bool, name: String, type: TypeAnnotation?, value: Expression?, range: SourceRange) throws(Failure) {
        if let value { try compileTyped(value, type) } else { emit(constant: .none) }
        builder.currentRange = range
        let slot = builder.declare(name, isLet: isLet)
        // `let x = weakRef`: the thread's own variable takes the object in the step
        // that read it (see `Code.heldUntil`).
        if value != nil { holdUntilHere(lastEmitted) }
        emit(.storeLocal(slot))
    }

    /// A jump out of an `autoreleasepool { }` block, which would skip its drain.
    mutating func leavingPool(_ word: String, at range: SourceRange) -> Failure {
        error("'\(word)' would leave the autoreleasepool block without draining it: let the block end instead", at: range)
    }

    mutating func compileAssignment(target: Expression, op: String, value: Expression, range: SourceRange) throws(Failure) {
        let binary = op == "=" ? nil : try operatorNamed(String(op.dropLast()), at: range)
        switch target.kind {
        case .name(let name):
            if let local = resolveLocal(name, level: builders.count - 1) {
                if local.isCapture {
                    throw error(
                        "cannot assign to '\(name)': closures capture values, not variables; use a shared variable or an object's field", at: target.range)
                }
                if local.isLet { throw error("cannot assign to '\(name)': it is a 'let' constant", at: target.range) }
                if binary != nil { emit(.loadLocal(local.slot)) }
                try compileValue(value, forField: nil)
                if let binary { emit(.binary(binary)) } else { holdUntilHere(lastEmitted) }
                builder.currentRange = range
                emit(.storeLocal(local.slot))
            } else if let member = implicitMember(name, at: target.range) {
                try compileAssignment(target: member, op: op, value: value, range: range)
            } else if let global = globalIndex[name] {
                if program.globals[global].isLet { throw error("cannot assign to '\(name)': it is a 'let' constant", at: target.range) }
                if binary != nil {
                    builder.currentRange = target.range
                    emit(.load(.global(global)))
                }
                try compileValue(value, forField: nil)
                if let binary { emit(.binary(binary)) }
                builder.currentRange = range
                emit(.store(.global(global)))
            } else {
                throw unknownName(name, at: target.range)
            }
        case .member(let base, "qualityOfService") where Compiler.isCurrentThread(base):
            // The running thread's own priority: no other thread sees it change.
            guard binary == nil else { throw error("write Thread.current.qualityOfService = .userInteractive", at: range) }
            try compileExpression(value)
            builder.currentRange = range
            emit(.builtin(.setQualityOfService, argc: 1, className: nil))
            emit(.pop)
        case .member(let base, "onTermination") where !program.classes.contains(where: { $0.fieldNames.contains("onTermination") }):
            // A stream's termination handler (`Machine.setOnTermination`).
            guard binary == nil, case .closure(let closure) = value.kind, closure.parameters.count <= 1 else {
                throw error("write continuation.onTermination = { termination in … }", at: range)
            }
            try compileExpression(base)
            try compileClosure(closure, name: "onTermination", allowedParameters: 1, context: .handler("onTermination"))
            builder.currentRange = range
            emit(.method(name: program.name("onTermination"), argc: 1, orderings: 0))
            emit(.pop)
        case .member(let base, let field):
            if Compiler.reservedFieldNames.contains(field) {
                throw error("cannot assign to '\(field)'", at: target.range)
            }
            try checkProperty(field, at: target.range)
            let owners = program.classes.filter { $0.fieldNames.contains(field) }
            // An init sets its own object's fields, `let` ones too.
            let initializing = builder.isInitializer && base.kind == .self
            if !initializing, !owners.isEmpty, owners.allSatisfy({ $0.fieldIsLet[$0.fieldNames.firstIndex(of: field)!] }) {
                throw error("cannot assign to '\(field)': it is a 'let' field of \(owners.map({ $0.name }).joined(separator: ", "))", at: target.range)
            }
            try refuseActorChange(base, field, owners: owners, at: target.range)
            // The object is held until its first use: the read of `x!.n += 1`, the
            // write of `x!.n = v` (see `Code.heldUntil`).
            let load = try compileObject(base)
            if binary != nil {
                emit(.duplicate)
                builder.currentRange = target.range
                let name = program.name(field)
                holdUntilHere(load)
                emit(.load(.field(name: name)))
            }
            try compileValue(value, forField: field)
            if let binary { emit(.binary(binary)) }
            builder.currentRange = range
            let name = program.name(field)
            if binary == nil { holdUntilHere(load) }
            emit(.store(.field(name: name)))
        case .subscript(let base, let index):
            guard let place = try placeForMutation(base) else {
                throw error("only a variable or a field can be assigned through a subscript", at: base.range)
            }
            var objectTemp: Int?
            if case .field = place {
                objectTemp = builder.newSlot("object", temp: true)
                emit(.storeTemp(objectTemp!))
            }
            try compileExpression(index)
            let indexTemp = builder.newSlot("index", temp: true)
            emit(.storeTemp(indexTemp))
            if let objectTemp { emit(.loadLocal(objectTemp)) }
            emit(.loadLocal(indexTemp))
            if binary != nil {
                if let objectTemp { emit(.loadLocal(objectTemp)) }
                emit(.loadLocal(indexTemp))
                builder.currentRange = target.range
                emit(.readElement(place))
            }
            try compileExpression(value)
            if let binary { emit(.binary(binary)) }
            builder.currentRange = range
            emit(.writeElement(place))
        default:
            throw error("cannot assign to this expression", at: target.range)
        }
    }

    /// A value being stored: closures are allowed only as an operation's completion block.
    /// A declaration's initial value: an array literal declared a `Set<…>` is a set, as
    /// Swift's type context makes it.
    mutating func compileTyped(_ value: Expression, _ type: TypeAnnotation?) throws(Failure) {
        try compileExpression(value)
        if let type, type.text.hasPrefix("Set<"), case .array = value.kind {
            builder.currentRange = value.range
            emit(.builtin(.makeSet, argc: 1, className: nil))
        }
    }

    mutating func compileValue(_ value: Expression, forField field: String?) throws(Failure) {
        if case .closure(let closure) = value.kind {
            guard field == "completionBlock" else {
                throw error("a closure can only be stored in an operation's completionBlock", at: value.range)
            }
            try compileClosure(closure, name: "completion", allowedParameters: 0)
            return
        }
        try compileExpression(value)
    }
}

extension Compiler {
    /// `Thread.current`, unless a variable is named Thread.
    static func isCurrentThread(_ expression: Expression) -> Bool {
        guard case .member(let inner, "current") = expression.kind, case .name("Thread") = inner.kind else { return false }
        return true
    }
}
