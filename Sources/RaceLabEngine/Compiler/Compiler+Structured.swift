import RaceLabLanguage

/// Structured concurrency's words (SE-0304, SE-0317): `withTaskGroup` and its group's
/// `addTask`, `next()`, `cancelAll()` and `waitForAll()`; `async let`; and what
/// leaving a block must do before it goes (`emitLeaving`).
extension Compiler {
    /// Leaving the blocks open down to `depth` (a `return`, `break`, `continue` or an
    /// error): the `async let` children awaited, the critical sections and monitors
    /// left, the cancellation handlers taken down, and the task groups cancelled and
    /// awaited (SE-0304: a throwing group's body that throws cancels its children).
    mutating func emitLeaving(to depth: CodeBuilder.Depth) {
        endAsyncLets(downTo: depth.asyncLets)
        for token in builder.monitors[depth.monitors...].reversed() {
            emit(.loadLocal(token))
            emit(.monitorExit)
        }
        for section in builder.criticals[depth.criticals...].reversed() { emit(.criticalExit(section)) }
        for _ in depth.cancellationHandlers..<builder.cancellationHandlers { emit(.task(.popCancellationHandler)) }
        for group in builder.groups[depth.groups...].reversed() {
            emit(.loadLocal(group))
            emit(.task(.cancelAll))
            emit(.pop)
            emit(.loadLocal(group))
            emit(.task(.drainGroup(close: true)))
        }
    }

    /// The `async let`s past the first `count` in scope end, last first (SE-0317: a
    /// child still running is cancelled and awaited). At a block's end they go out
    /// of scope; before a jump out they stay, for the code after the jump's target
    /// does not see them.
    mutating func endAsyncLets(downTo count: Int) {
        let ending = builder.asyncLets[count...]
        for slot in ending.reversed() {
            emit(.loadLocal(slot))
            emit(.task(.endChild))
        }
    }

    /// `async let name = value`: `value` runs in a child task on the global executor,
    /// as an awaited expression; `name` holds its handle until the block ends.
    mutating func compileAsyncLet(_ name: String, _ value: Expression, range: SourceRange) throws(Failure) {
        guard builder.isAsync else {
            throw error(cannotSuspend("'async let'"), at: range)
        }
        let body = Closure(parameters: [], body: [Statement(.return(Expression(.await(value), value.range)), value.range)], range: value.range)
        try compileClosure(body, name: name, allowedParameters: 0, isAsync: true, context: .task(name), canThrow: true)
        builder.currentRange = range
        emit(.task(.startChild(name: program.name(name))))
        let slot = builder.declare(name, isLet: true)
        builder.scopes[builder.scopes.count - 1][name]?.isAsyncLet = true
        emit(.storeLocal(slot))
        builder.asyncLets.append(slot)
    }

    /// A read of an `async let`: its child's value, awaited.
    mutating func compileAsyncLetRead(_ name: String, _ local: CodeBuilder.Local, range: SourceRange) throws(Failure) {
        if local.isCapture {
            throw error("'async let \(name)' cannot be captured by a closure: read it first (let value = await \(name)) and use that", at: range)
        }
        try requireAwait("reading 'async let \(name)'", at: range)
        emit(.loadLocal(local.slot))
        builder.currentRange = range
        emit(.task(.value))
        try emitRethrowCheck(at: range)
    }

    /// Whether a method of that name is the script's own (a class's), not a task
    /// group's.
    func isScriptMethod(_ name: String) -> Bool {
        program.classes.contains { $0.methods[name] != nil }
    }

    /// `await withTaskGroup(of: Int.self) { group in … }`: a new group for the body,
    /// compiled in place; at its end the group waits for every child (SE-0304: "a
    /// group waits for all of its child tasks to complete before it returns").
    mutating func compileTaskGroup(_ arguments: [Argument], _ trailing: Closure?, range: SourceRange, throwing: Bool) throws(Failure) {
        let what = throwing ? "withThrowingTaskGroup" : "withTaskGroup"
        let usage = "write \(what)(of: Int.self) { group in … }"
        guard let closure = trailing, arguments.allSatisfy({ $0.label == "of" || $0.label == "returning" }), closure.parameters.count == 1 else {
            throw error(usage, at: range)
        }
        try requireAwait(what, at: range)
        if throwing, !builder.trying { throw error("\(what) can throw: write 'try await \(what)(…)'", at: range) }
        builder.currentRange = range
        emit(.task(.makeGroup))
        let group = builder.newSlot(closure.parameters[0], temp: true)
        emit(.storeTemp(group))
        let result = builder.newSlot("result", temp: true)
        emit(constant: .none)
        emit(.storeTemp(result))
        builder.groups.append(group)
        if throwing { throwingGroups.insert(group) }
        compileInline(closure, parameter: group, result: result, group: true)
        throwingGroups.remove(group)
        builder.groups.removeLast()
        builder.currentRange = SourceRange(closure.range.end, closure.range.end)
        emit(.loadLocal(group))
        emit(.task(.drainGroup(close: true)))
        emit(.loadLocal(result))
    }

    /// A task group's methods: `addTask { }` (or `addTask(name: "fetch") { }`),
    /// `await next()`, `cancelAll()`, `await waitForAll()`. False when the call is
    /// none of these (a method of the script's of that name).
    mutating func compileGroupCall(_ base: Expression, _ member: String, _ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure)
        -> Bool
    {
        guard ["addTask", "next", "cancelAll", "waitForAll"].contains(member), !isScriptMethod(member) else { return false }
        try compileExpression(base)
        switch member {
        case "addTask":
            var name: Int?
            var rest = arguments
            if let first = rest.first, first.label == "name" {
                guard case .string(let text) = first.value.kind, !text.isEmpty else {
                    throw error("a child's name is a string literal: group.addTask(name: \"fetch\") { … }", at: first.value.range)
                }
                name = program.name(text)
                rest.removeFirst()
            }
            let priority = try taskPriority(&rest, "group.addTask")
            let closure = try onlyClosure(rest, trailing, range: range, what: "addTask")
            let childName = name.map { program.names[$0] } ?? "child"
            // A throwing group's children may throw; another's may not (Swift's types).
            var throwing = true
            if case .name(let groupName) = base.kind, let local = resolveLocal(groupName, level: builders.count - 1) {
                throwing = throwingGroups.contains(local.slot)
            }
            try compileClosure(closure, name: childName, allowedParameters: 0, isAsync: true, context: .task(childName), canThrow: throwing)
            builder.currentRange = range
            emit(.task(.addChild(name: name, priority: priority)))
        case "next":
            try expectArguments(arguments, 0...0, "next", range: range)
            try requireAwait("a task group's next()", at: range)
            builder.currentRange = range
            emit(.task(.groupNext))
            try emitRethrowCheck(at: range)
        case "cancelAll":
            try expectArguments(arguments, 0...0, "cancelAll", range: range)
            builder.currentRange = range
            emit(.task(.cancelAll))
        default:
            try expectArguments(arguments, 0...0, "waitForAll", range: range)
            try requireAwait("a task group's waitForAll()", at: range)
            builder.currentRange = range
            emit(.task(.drainGroup(close: false)))
            emit(constant: .none)
        }
        return true
    }
}
