import RaceLabLanguage

/// Swift concurrency's words: `await`, `Task { }` and its API, actors' methods and
/// state from outside, and where an async function runs (its first instruction,
/// `isolate`). The rules are Swift's: code that is not async cannot await, and a call
/// that may suspend is marked `await`.
extension Compiler {
    /// The executor a function declared so runs on: an async function outside any
    /// actor leaves its caller's actor (SE-0338), or, under SE-0461's upcoming
    /// `NonisolatedNonsendingByDefault` (`nonsendingByDefault`), stays on it; a
    /// `nonisolated(nonsending)` one stays and a `@concurrent` one leaves either way.
    /// A `@MainActor` one runs on the main actor, an actor's method on its actor (slot
    /// 0, self), a `@MainActor` class's method on the main actor, a `nonisolated` one
    /// as a function outside them. Nil: it runs where its caller does (a synchronous
    /// function, a nonsending one).
    static func isolation(of function: FunctionDeclaration, in owner: ClassDeclaration?, nonsendingByDefault: Bool) -> Isolation? {
        let offActors: Isolation? = function.isAsync && !nonsendingByDefault ? .generic : nil
        switch function.isolation {
        case .mainActor: return .mainActor
        case .nonsending: return nil
        case .concurrent: return .generic
        case .nonisolated: return offActors
        case .inferred:
            if owner?.isActor == true { return .slot(0) }
            if owner?.isMainActor == true { return .mainActor }
            return offActors
        }
    }

    /// The prologue of code that runs on an executor of its own: `isolate`, with a
    /// slot for the executor to go back to (which every `return` restores).
    mutating func emitPrologue(_ isolation: Isolation?) {
        guard let isolation else { return }
        let slot = builder.newSlot("executor", temp: true)
        emit(.isolate(isolation, save: slot))
        builder.executorSlot = slot
    }

    /// Before a `ret` of code with a prologue: back to the caller's executor.
    mutating func emitEpilogue() {
        if let slot = builder.executorSlot { emit(.restoreExecutor(slot)) }
    }

    /// `await e`: only in async code; the calls and reads inside may suspend.
    mutating func compileAwait(_ inner: Expression, range: SourceRange) throws(Failure) {
        if let body = builder.synchronousBody {
            throw error("'await' in \(body)'s closure, which is synchronous: it runs on the main actor in one go; await before it or after it", at: range)
        }
        guard builder.isAsync else {
            throw error(
                "'await' in code that cannot suspend: a thread, a synchronous function or a queue's block is not async; start a Task { } or mark the function 'async'",
                at: range)
        }
        let saved = builder.awaiting
        builder.awaiting = true
        defer { builder.awaiting = saved }
        try compileExpression(inner)
    }

    /// A change of an actor's field from outside the actor (`island.food = 3`), when
    /// only actors have a field of that name: Swift refuses it ("actor-isolated
    /// property can not be mutated from outside the actor").
    /// Off the main actor, so is a `@MainActor` class's.
    mutating func refuseActorChange(_ base: Expression, _ field: String, owners: [Program.ClassInfo], at range: SourceRange) throws(Failure) {
        guard base.kind != .self, !builder.isCheck, !owners.isEmpty else { return }
        if owners.allSatisfy({ $0.isActor }) {
            throw error(
                "cannot change '\(field)' from outside \(owners.map({ $0.name }).joined(separator: ", ")): an actor's state changes only in its own methods; call one with 'await'",
                at: range)
        }
        if owners.allSatisfy({ $0.isMainActor }), let context = builder.context, context != .mainActor {
            throw error(
                "cannot change '\(field)' from \(context.words): \(owners.map({ $0.name }).joined(separator: ", ")) is @MainActor, so its state changes only on the main actor; call one of its methods with 'await', or use 'await MainActor.run { … }'",
                at: range)
        }
    }

    /// An error unless the expression is inside `await`, as Swift requires.
    mutating func requireAwait(_ what: String, at range: SourceRange) throws(Failure) {
        guard builder.awaiting else {
            if let body = builder.synchronousBody {
                throw error(
                    "\(what) may suspend, and \(body)'s closure is synchronous: it runs on the main actor in one go; await before it or after it", at: range)
            }
            throw error("\(what) may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')", at: range)
        }
    }

    /// Whether `Task` names Swift's type here (no variable or class of the script's).
    mutating func isTaskType(_ expression: Expression) -> Bool {
        guard case .name("Task") = expression.kind else { return false }
        return resolveLocal("Task", level: builders.count - 1) == nil && globalIndex["Task"] == nil && program.classIndex(named: "Task") == nil
    }

    /// `Task { }`, `Task(name: "tap") { }`, `Task.detached { }`, `await Task.yield()`:
    /// false when the call is none of these.
    mutating func compileTaskCall(_ callee: Expression, _ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure) -> Bool {
        var detached = false
        switch callee.kind {
        case .name("withCheckedContinuation") where resolveLocal("withCheckedContinuation", level: builders.count - 1) == nil:
            try compileContinuation(arguments, trailing, range: range, throwing: false)
            return true
        case .name("withCheckedThrowingContinuation") where resolveLocal("withCheckedThrowingContinuation", level: builders.count - 1) == nil:
            try compileContinuation(arguments, trailing, range: range, throwing: true)
            return true
        case .name("withTaskCancellationHandler") where resolveLocal("withTaskCancellationHandler", level: builders.count - 1) == nil:
            try compileCancellationHandler(arguments, trailing, range: range)
            return true
        case .name(let name)
        where ["withTaskGroup", "withThrowingTaskGroup"].contains(name) && resolveLocal(name, level: builders.count - 1) == nil
            && functionIndex[name] == nil:
            try compileTaskGroup(arguments, trailing, range: range, throwing: name == "withThrowingTaskGroup")
            return true
        case .member(let base, "run") where base.kind == .name("MainActor") && globalIndex["MainActor"] == nil:
            try compileMainActorRun(arguments, trailing, range: range)
            return true
        case .member(let base, "makeStream") where base.kind == .name("AsyncStream") && globalIndex["AsyncStream"] == nil:
            try compileMakeStream(arguments, range: range)
            return true
        case .name where isTaskType(callee): break
        case .member(let base, let member) where isTaskType(base):
            switch member {
            case "detached": detached = true
            case "yield":
                try expectArguments(arguments, 0...0, "Task.yield", range: range)
                try requireAwait("Task.yield()", at: range)
                builder.currentRange = range
                emit(.task(.yield))
                return true
            case "checkCancellation":
                try expectArguments(arguments, 0...0, "Task.checkCancellation", range: range)
                builder.currentRange = range
                emit(.task(.checkCancellation))
                try emitThrowCheck("Task.checkCancellation()", at: range)
                return true
            case "sleep":
                try compileSleep(arguments, range: range)
                return true
            default:
                let members = ["detached", "yield", "isCancelled", "checkCancellation", "sleep"]
                throw error(
                    "Task has 'detached { }', 'yield()', 'isCancelled', 'checkCancellation()' and 'sleep(for:)' here, not '\(member)'", at: callee.range,
                    note: Suggestion.note(for: member, in: members))
            }
        case .member(let base, let member) where !isTaskType(base):
            return try compileGroupCall(base, member, arguments, trailing, range: range)
        default: return false
        }
        var name: Int?
        var rest = arguments
        if let first = rest.first, first.label == "name" {
            guard case .string(let text) = first.value.kind, !text.isEmpty else {
                throw error("a task's name is a string literal: Task(name: \"tap\") { … }", at: first.value.range)
            }
            name = program.name(text)
            rest.removeFirst()
        }
        let what = detached ? "Task.detached" : "Task"
        // A detached task inherits nothing: medium unless given.
        let priority = try taskPriority(&rest, what) ?? (detached ? JobPriority.medium : nil)
        let closure = try onlyClosure(rest, trailing, range: range, what: what)
        let isolation: Isolation = closure.isMainActor ? .mainActor : detached ? .generic : .inherited
        let taskName = name.map { program.names[$0] } ?? "task"
        let context: Swift6Check.Context? =
            switch isolation {
            case .mainActor: .mainActor
            case .inherited: builder.context
            default: .task(taskName)
            }
        try compileClosure(closure, name: taskName, allowedParameters: 0, isAsync: true, context: context, canThrow: true)
        builder.currentRange = range
        emit(.task(.start(isolation, name: name, priority: priority)))
        return true
    }

    /// `priority: .high`, the argument after a task's name: taken out of `arguments`.
    mutating func taskPriority(_ arguments: inout [Argument], _ what: String) throws(Failure) -> JobPriority? {
        guard let first = arguments.first, first.label == "priority" else { return nil }
        if arguments.count > 1, arguments[1].label == "name" {
            throw error("the name comes before the priority, as in Swift: \(what)(name: \"tap\", priority: .high) { … }", at: arguments[1].value.range)
        }
        let names = JobPriority.names.map({ $0.name })
        guard case .implicitMember(let word) = first.value.kind, let priority = JobPriority.named(word) else {
            var note: String?
            if case .implicitMember(let word) = first.value.kind { note = Suggestion.note(for: word, in: names) }
            throw error(
                "a task's priority is one of Swift's: \(what)(priority: .high) { … }, or \(names.dropLast().map { "." + $0 }.joined(separator: ", ")) or .\(names.last!)",
                at: first.value.range, note: note)
        }
        arguments.removeFirst()
        program.usesTaskPriorities = true
        return priority
    }

    /// A member read that Swift concurrency answers: `Task.isCancelled`, a task's
    /// `value` (awaited), an actor's state read from outside it (awaited: a hop there
    /// and back). False when the member is none of these.
    mutating func compileConcurrencyMember(_ base: Expression, _ member: String, range: SourceRange) throws(Failure) -> Bool {
        if isTaskType(base) {
            guard member == "isCancelled" else {
                throw error(
                    "Task has 'isCancelled' here, not '\(member)'", at: range,
                    note: Suggestion.note(for: member, in: ["isCancelled"]))
            }
            // Synchronous code may ask too (Swift's static property): it reads the
            // running task's flag, or false outside any task.
            builder.currentRange = range
            emit(.task(.isCancelled))
            return true
        }
        if case .self = base.kind { return false }
        let fieldsNamedValue = program.classes.contains { $0.fieldNames.contains("value") }
        if member == "value", !fieldsNamedValue || builder.awaiting, !builder.isCheck {
            try requireAwait("a task's value", at: range)
            try compileExpression(base)
            builder.currentRange = range
            guard fieldsNamedValue else {
                emit(.task(.value))
                try emitRethrowCheck(at: range)
                return true
            }
            // A task's value, or a field of that name (an actor's: a hop there and
            // back, as below): the object decides (`Machine.taskOperation`).
            let object = builder.newSlot("object", temp: true)
            emit(.storeTemp(object))
            let saved = builder.newSlot("executor", temp: true)
            emit(.isolate(.slot(object), save: saved))
            emit(.loadLocal(object))
            emit(.task(.value))
            emit(.restoreExecutor(saved))
            return true
        }
        return try compileIsolatedRead(base, member, optional: false, range: range)
    }

    /// An actor's state read from outside it, or a `@MainActor` class's off the main
    /// actor: a hop there and back (`optional`: `await w?.total`, nil when `w` is).
    /// False when the member is not such state.
    mutating func compileIsolatedRead(_ base: Expression, _ member: String, optional: Bool, range: SourceRange) throws(Failure) -> Bool {
        let offMainActor = builder.context != nil && builder.context != .mainActor
        let isActorField = actorFieldNames.contains(member)
        guard isActorField || (offMainActor && mainActorFieldNames.contains(member)), !builder.isCheck else { return false }
        // A name some class's field has too may be the class's: a plain read, which
        // on an actor (from outside it, or a `@MainActor` class's off the main
        // actor) the machine refuses.
        let shared =
            isActorField
            ? actorLetFieldNames.contains(member) || program.classes.contains(where: { !$0.isActor && $0.fieldNames.contains(member) })
            : program.classes.contains(where: { !$0.isMainActor && $0.fieldNames.contains(member) })
        if shared {
            guard builder.awaiting else { return false }
        }
        if isActorField {
            try requireAwait("reading an actor's '\(member)' from outside it", at: range)
        } else {
            try requireMainActor("property '\(member)'", at: range)
        }
        try compileExpression(base)
        let actor = builder.newSlot("actor", temp: true)
        emit(.storeTemp(actor))
        var toNil: Int?
        if optional {
            emit(.loadLocal(actor))
            emit(constant: .none)
            emit(.binary(try operatorNamed("!=", at: range)))
            toNil = emit(.jumpIfFalse(-1))
        }
        let saved = builder.newSlot("executor", temp: true)
        builder.currentRange = range
        emit(.isolate(.slot(actor), save: saved))
        emit(.loadLocal(actor))
        emit(.load(.field(name: program.name(member))))
        emit(.restoreExecutor(saved))
        if let toNil {
            let toEnd = emit(.jump(-1))
            patch(toNil)
            emit(constant: .none)
            patch(toEnd)
        }
        return true
    }

    /// A closure's body compiled in place, as code of this one (it runs at once, in
    /// this task): its parameter, if it has one, a borrowed local (`parameter`); a
    /// `return` a jump to its end, its value into `result` (nil: it returns nothing).
    /// `throwing`: an error may leave the body (a task group's, an operation's); else
    /// (a continuation's body) one must be caught inside it.
    mutating func compileInline(_ closure: Closure, parameter: Int?, result: Int?, throwing: Bool = true, group: Bool = false) {
        builder.scopes.append([:])
        if let parameter, let name = closure.parameters.first {
            builder.scopes[builder.scopes.count - 1][name] = CodeBuilder.Local(slot: parameter, isLet: true, isCapture: false, isGroup: group)
        }
        let errors = (builder.canThrow, builder.handlers)
        if !throwing { (builder.canThrow, builder.handlers) = (false, []) }
        defer { if !throwing { (builder.canThrow, builder.handlers) = errors } }
        // A loop outside cannot be left from inside a closure.
        let loops = builder.loops
        builder.loops = []
        // The body's own calls need their own `await`s.
        let awaiting = builder.awaiting
        builder.awaiting = false
        builder.inlineBodies.append(.init(result: result, depth: builder.depth))
        compileStatements(closure.body)
        let body = builder.inlineBodies.removeLast()
        for jump in body.returns { patch(jump) }
        builder.loops = loops
        builder.awaiting = awaiting
        builder.scopes.removeLast()
    }

    /// `return` in a closure compiled in place: to the end of its body.
    mutating func compileInlineReturn(_ value: Expression?, range: SourceRange) throws(Failure) {
        let body = builder.inlineBodies[builder.inlineBodies.count - 1]
        if let value {
            guard let result = body.result else { throw error("this closure returns nothing: write 'return' alone", at: value.range) }
            try compileExpression(value)
            emit(.storeTemp(result))
        }
        builder.currentRange = range
        emitLeaving(to: body.depth)
        let jump = emit(.jump(-1))
        builder.inlineBodies[builder.inlineBodies.count - 1].returns.append(jump)
    }

    /// `withCheckedContinuation { continuation in … }` (awaited): the body runs at once,
    /// in this task, with a new continuation; then the task suspends until someone
    /// resumes it (SE-0300), and its value is what it was resumed with.
    mutating func compileContinuation(_ arguments: [Argument], _ trailing: Closure?, range: SourceRange, throwing: Bool) throws(Failure) {
        let what = throwing ? "withCheckedThrowingContinuation" : "withCheckedContinuation"
        let closure = try onlyClosure(arguments, trailing, range: range, what: what)
        guard closure.parameters.count == 1 else {
            throw error("\(what)'s closure takes the continuation: \(what) { continuation in … }", at: closure.range)
        }
        try requireAwait(what, at: range)
        builder.currentRange = range
        emit(.task(.makeContinuation(function: program.name(builder.code.name))))
        let slot = builder.newSlot(closure.parameters[0], temp: true)
        emit(.storeTemp(slot))
        compileInline(closure, parameter: slot, result: nil, throwing: false)
        builder.currentRange = range
        emit(.loadLocal(slot))
        emit(.task(.awaitContinuation))
        if throwing { try emitThrowCheck(what, at: range) }
    }

    /// `withTaskCancellationHandler(operation: { … }, onCancel: { … })` (awaited): the
    /// handler is registered on the running task while the operation runs (in place);
    /// cancelling the task runs it in the canceller's step, or at once if the task is
    /// cancelled already (SE-0304).
    mutating func compileCancellationHandler(_ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure) {
        let usage = "write withTaskCancellationHandler(operation: { … }, onCancel: { … })"
        var operation: Closure?, handler: Closure?
        for argument in arguments {
            guard case .closure(let closure) = argument.value.kind else { throw error(usage, at: argument.value.range) }
            switch argument.label {
            case "operation": operation = closure
            case "onCancel": handler = closure
            default: throw error(usage, at: argument.value.range)
            }
        }
        if let trailing, handler == nil { handler = trailing }
        guard let operation, let handler, operation.parameters.isEmpty, handler.parameters.isEmpty else { throw error(usage, at: range) }
        try requireAwait("withTaskCancellationHandler", at: range)
        guard builder.isAsync else { throw error(usage, at: range) }
        try compileClosure(handler, name: "onCancel", allowedParameters: 0, context: .handler("onCancel"))
        builder.currentRange = range
        emit(.task(.pushCancellationHandler))
        let result = builder.newSlot("result", temp: true)
        emit(constant: .none)
        emit(.storeTemp(result))
        builder.cancellationHandlers += 1
        compileInline(operation, parameter: nil, result: result)
        builder.cancellationHandlers -= 1
        builder.currentRange = range
        emit(.task(.popCancellationHandler))
        emit(.loadLocal(result))
    }

    /// See `Program.usesMainActor`.
    static func usesMainActor(_ program: Program) -> Bool {
        if program.classes.contains(where: { $0.isMainActor }) { return true }
        for (index, code) in program.codes.enumerated() {
            for instruction in code.instructions {
                switch instruction {
                case .isolate(.mainActor, _), .task(.start(.mainActor, _, _)): return true
                case .task(.start(.inherited, _, _)), .isolate, .task(.value), .task(.yield): if index == program.mainCode { return true }
                default: continue
                }
            }
        }
        return false
    }
}
