import RaceLabLanguage

/// The main actor beyond main's own code: calls into it from elsewhere (a
/// `@MainActor` function, a `@MainActor` class's method or state) and
/// `MainActor.run { }`. Where each runs is `Compiler.isolation(of:in:nonsendingByDefault:)`'s; what the
/// machine refuses at run time, `Machine.refusesOutsideAccess`.
extension Compiler {
    /// A use of the main actor's function, method or state: nothing to say in code on
    /// the main actor; elsewhere awaited (a hop), and refused in code that cannot
    /// suspend, as Swift 6 refuses it.
    mutating func requireMainActor(_ what: String, at range: SourceRange) throws(Failure) {
        guard let context = builder.context, context != .mainActor else { return }
        guard builder.isAsync else {
            var fix = "hand the work to the main thread: DispatchQueue.main.async { … }"
            if case .function = context { fix = "mark the function @MainActor, or make it async and 'await' it" }
            if builders.contains(where: { $0.isDeinit }) { fix = "a deinit runs where the last reference goes and cannot wait: do the work before" }
            throw error(
                "\(what) is the main actor's, and \(context.words) is not on it and cannot suspend (Swift 6: main actor-isolated \(what) in a synchronous nonisolated context); \(fix)",
                at: range)
        }
        try requireAwait(what, at: range)
    }

    /// Why a statement that suspends (`for await`, `async let`) is refused here.
    func cannotSuspend(_ what: String) -> String {
        if let body = builder.synchronousBody {
            return "\(what) in \(body)'s closure, which is synchronous: it runs on the main actor in one go; do it before or after"
        }
        return "\(what) in code that cannot suspend: a thread, a synchronous function or a queue's block is not async"
    }

    /// `await MainActor.run { … }`: a hop to the main actor, the closure's body there
    /// (in place, in this task, in one go: it is synchronous), its value, and back.
    mutating func compileMainActorRun(_ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure) {
        let closure = try onlyClosure(arguments, trailing, range: range, what: "MainActor.run")
        guard closure.parameters.isEmpty else { throw error("MainActor.run's closure takes nothing: MainActor.run { … }", at: closure.range) }
        try requireAwait("MainActor.run", at: range)
        let result = builder.newSlot("result", temp: true)
        emit(constant: .none)
        emit(.storeTemp(result))
        let saved = builder.newSlot("executor", temp: true)
        builder.currentRange = range
        emit(.isolate(.mainActor, save: saved))
        let outside = (builder.isAsync, builder.synchronousBody, builder.context)
        (builder.isAsync, builder.synchronousBody) = (false, "MainActor.run")
        if builder.context != nil { builder.context = .mainActor }
        compileInline(closure, parameter: nil, result: result, throwing: false)
        (builder.isAsync, builder.synchronousBody, builder.context) = outside
        builder.currentRange = range
        emit(.restoreExecutor(saved))
        emit(.loadLocal(result))
    }

    /// `@concurrent` and `nonisolated(nonsending)` say where an async function runs:
    /// on a synchronous one, Swift refuses them.
    mutating func checkAsyncOnlyMark(_ function: FunctionDeclaration, at range: SourceRange) {
        guard !function.isAsync, function.isolation == .concurrent || function.isolation == .nonsending else { return }
        let mark = function.isolation == .concurrent ? "@concurrent" : "nonisolated(nonsending)"
        _ = error("\(mark) says where an async function runs: '\(function.name)' is not async", at: range)
    }
}
