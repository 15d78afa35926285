import RaceLabLanguage

/// Errors, as Swift throws them: `throws`, `try`, `try?`, `throw`, `do`/`catch`.
///
/// An error travels as Swift's runtime sends it, beside the return value: a function
/// that throws leaves with `rethrow`, and its caller's `catchThrown`, right after the
/// call, takes the error and sends it on (`emitPropagate`): to the innermost handler
/// of its own code (a `do`'s catches, a `try?`), leaving what is open between (the
/// same as a `break` leaves: `emitLeaving`), or out of its code in turn. So every
/// path an error takes is code the compiler wrote, and the machine needs no unwinder.
extension Compiler {
    /// Whether a `try` or `throw` may be written here: the code may throw, or a `do`
    /// or `try?` around it catches.
    var errorsHandled: Bool { builder.canThrow || !builder.handlers.isEmpty }

    /// The words Swift says when nothing handles an error thrown here.
    func unhandled(_ what: String) -> String {
        if let body = builder.synchronousBody {
            // Swift's MainActor.run rethrows; RaceLab's closure is compiled in place,
            // on the main actor, and an error may not leave it.
            let fix = "catch it inside the closure with do { … } catch { … } (here an error may not leave \(body)'s closure)"
            return "\(what) in \(body)'s closure is not handled: \(fix)"
        }
        return "\(what) here is not handled: catch it with do { … } catch { … }, or mark the function 'throws' (a task's closure and main's code may throw)"
    }

    /// Sends the error on top of the stack where it goes: to the innermost handler of
    /// this code, leaving what is open inside it, or out of the code (back to the
    /// caller's executor first).
    mutating func emitPropagate(at range: SourceRange) throws(Failure) {
        if let handler = builder.handlers.last {
            if builder.pools != handler.depth.pools { throw leavingPool("an error", at: range) }
            emit(.storeTemp(handler.error))
            emitLeaving(to: handler.depth)
            let jump = emit(.jump(-1))
            builder.handlers[builder.handlers.count - 1].entries.append(jump)
            return
        }
        guard builder.canThrow else { throw error(unhandled("an error thrown"), at: range) }
        if builder.pools > 0 { throw leavingPool("an error", at: range) }
        emitLeaving(to: CodeBuilder.Depth())
        emitEpilogue()
        emit(.rethrow)
    }

    /// After a call that may throw: an error it threw is sent on. Only inside `try`
    /// (where Swift requires it); `what` names the call for the error when it is not.
    mutating func emitThrowCheck(_ what: String, at range: SourceRange) throws(Failure) {
        guard builder.trying else {
            throw error("\(what) can throw: write 'try' before it (Swift: call can throw but is not marked with 'try')", at: range)
        }
        try emitRethrowCheck(at: range)
    }

    /// After what may rethrow a task's error (`await t.value`, a group's `next()`, a
    /// continuation resumed with `throwing:`): checked inside `try`; outside it, an
    /// error there is a runtime error (`Machine.deliverError`).
    mutating func emitRethrowCheck(at range: SourceRange) throws(Failure) {
        guard builder.trying else { return }
        let check = emit(.catchThrown(-1))
        try emitPropagate(at: range)
        patch(check)
    }

    /// `try e` and `try? e`: `e`'s calls that throw are checked; with `?`, an error
    /// gives nil instead.
    mutating func compileTry(_ inner: Expression, optional: Bool, range: SourceRange) throws(Failure) {
        guard optional || errorsHandled else { throw error(unhandled("an error that 'try' passes on"), at: range) }
        let saved = builder.trying
        builder.trying = true
        defer { builder.trying = saved }
        guard optional else {
            try compileExpression(inner)
            return
        }
        let handler = beginHandler()
        try compileExpression(inner)
        let entries = builder.handlers.removeLast().entries
        let end = emit(.jump(-1))
        for entry in entries { patch(entry) }
        emit(.truncate(handler.height))
        // The error goes: nothing holds it now.
        emit(.loadLocal(handler.error))
        emit(.pop)
        emit(constant: .none)
        patch(end)
    }

    /// A new handler, innermost: where errors thrown until it ends go.
    mutating func beginHandler() -> CodeBuilder.Handler {
        let height = builder.newSlot("height", temp: true)
        let error = builder.newSlot("error", temp: true)
        emit(.markHeight(height))
        let handler = CodeBuilder.Handler(depth: builder.depth, height: height, error: error)
        builder.handlers.append(handler)
        return handler
    }

    /// `throw e`.
    mutating func compileThrow(_ value: Expression, range: SourceRange) throws(Failure) {
        guard errorsHandled else { throw error(unhandled("an error thrown"), at: range) }
        try compileExpression(value)
        builder.currentRange = range
        try emitPropagate(at: range)
    }

    /// `do { … } catch is T { … } catch { … }`: each catch in turn, `error` naming the
    /// error; with no plain `catch`, an error no clause takes goes on.
    mutating func compileDo(_ body: [Statement], _ catches: [CatchClause], range: SourceRange) throws(Failure) {
        let handler = beginHandler()
        compileStatements(body)
        let entries = builder.handlers.removeLast().entries
        var ends = [emit(.jump(-1))]
        for entry in entries { patch(entry) }
        builder.currentRange = catches.first?.range ?? range
        emit(.truncate(handler.height))
        var exhaustive = false
        for clause in catches {
            builder.currentRange = clause.range
            var skip: Int?
            if let type = clause.typeName {
                emit(.loadLocal(handler.error))
                emit(.isError(program.name(type)))
                skip = emit(.jumpIfFalse(-1))
            } else {
                exhaustive = true
            }
            builder.scopes.append(["error": CodeBuilder.Local(slot: handler.error, isLet: true, isCapture: false)])
            compileStatements(clause.body)
            builder.scopes.removeLast()
            // The error goes, unless the catch kept it somewhere.
            emit(.loadLocal(handler.error))
            emit(.pop)
            ends.append(emit(.jump(-1)))
            if let skip { patch(skip) }
            if exhaustive { break }
        }
        if !exhaustive {
            // No clause took it: it goes on, as Swift's non-exhaustive catches do.
            builder.currentRange = range
            guard errorsHandled else { throw error(unhandled("an error no catch takes"), at: range) }
            emit(.loadLocal(handler.error))
            try emitPropagate(at: range)
        }
        for end in ends { patch(end) }
    }

    /// `try await Task.sleep(for: .seconds(1))` (or `.milliseconds(n)`), or
    /// `Task.sleep(nanoseconds: n)`: the duration in milliseconds, the virtual clock's
    /// unit.
    mutating func compileSleep(_ arguments: [Argument], range: SourceRange) throws(Failure) {
        let usage = "write Task.sleep(for: .seconds(1)), .milliseconds(n), or Task.sleep(nanoseconds: n)"
        guard arguments.count == 1 else { throw error(usage, at: range) }
        let argument = arguments[0]
        switch (argument.label, argument.value.kind) {
        case ("for", .call(let unit, let values, nil)) where values.count == 1 && values[0].label == nil:
            guard case .implicitMember(let name) = unit.kind, name == "seconds" || name == "milliseconds" else { throw error(usage, at: argument.value.range) }
            try compileExpression(values[0].value)
            if name == "seconds" {
                emit(constant: .int(1000))
                emit(.binary(.times))
            }
        case ("nanoseconds", _):
            try compileExpression(argument.value)
            emit(constant: .int(1_000_000))
            emit(.binary(.divide))
        default:
            throw error(usage, at: argument.value.range)
        }
        try requireAwait("Task.sleep", at: range)
        builder.currentRange = range
        emit(.task(.sleep))
        try emitThrowCheck("Task.sleep", at: range)
    }
}
