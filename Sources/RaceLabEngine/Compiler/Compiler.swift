import RaceLabLanguage

/// Resolves names and lowers a script's declarations (with a fix already applied) to
/// a `Program` of stack-machine code. Every error is collected; compilation goes on
/// after one, so a run reports them all.
public struct Compiler {
    struct Failure: Error {}

    var program: Program
    var diagnostics: [Diagnostic] = []
    var builders: [CodeBuilder] = []
    var globalIndex: [String: Int] = [:]
    var functionIndex: [String: (code: Int, parameters: [String])] = [:]
    /// The functions declared `async`: a call to one is awaited.
    var asyncFunctions: Set<String> = []
    /// Functions declared `throws`, and the names of actors' methods declared so: a
    /// call is marked `try`, and checked after it (`emitThrowCheck`).
    var throwingFunctions: Set<String> = []
    var throwingMethods: Set<String> = []
    /// The slots of throwing task groups' parameters in the code being compiled (a
    /// slot is a group's only there: another code's slots are other slots).
    var throwingGroups: Set<Int> = []
    /// The names of actors' fields (`let` ones apart: anyone reads those) and methods:
    /// from outside an actor, each is awaited.
    var actorFieldNames: Set<String> = []
    var actorLetFieldNames: Set<String> = []
    var actorMethodNames: Set<String> = []
    /// The main actor's functions, and the fields (`let` ones apart: anyone reads
    /// those) and methods of `@MainActor` classes (each method: whether it is async):
    /// from code off the main actor, each is awaited (`requireMainActor`).
    var mainActorFunctions: Set<String> = []
    var mainActorFieldNames: Set<String> = []
    var mainActorMethods: [String: Bool] = [:]
    /// `@MainActor` classes' `nonisolated` methods (each: is it async?), called as functions.
    var nonisolatedMethods: [String: Bool] = [:]
    /// Each method's parameter count, by its code's name (`Island.store`).
    var methodParameterCounts: [String: Int] = [:]
    /// By code name, the async methods of actors and `@MainActor` classes, and the
    /// `@MainActor` classes' methods that run on the main actor.
    var asyncMethodCodes: Set<String> = []
    var mainActorMethodCodes: Set<String> = []
    /// What Swift 6 would reject, gathered as code is compiled.
    var swift6 = Swift6Check()
    /// Globals visible while compiling setup: only those declared above.
    var setupVisibleGlobals: Int?
    /// Lines whose first statement records that it ran (see `compile(_:file:probes:)`),
    /// and those already given their probe.
    var probes: Set<Int> = []
    var probed: Set<Int> = []

    static let builtinFunctions = [
        "work", "print", "assert", "created", "alive", "sum", "isMainThread", "Lock", "OperationQueue", "Operation", "autoreleasepool",
    ]
    static let reservedFieldNames = ["count", "isEmpty", "first", "last", "keys", "values"]
    /// An operation's properties, which a bare name in an Operation subclass's
    /// method means (`isCancelled`), and its methods (`finish()`).
    static let operationProperties = ["isCancelled", "isFinished", "isExecuting", "isReady", "name", "queuePriority", "qualityOfService"]
    static let operationMethods = ["finish", "cancel"]
    /// Built-in properties that can only be set (`Machine.setBuiltinProperty`).
    static let writableBuiltinProperties = ["completionBlock"]

    init(file: SourceFile) {
        program = Program(file: file)
    }

    /// The index of the requirement named `name`, added (at `range`) if new.
    mutating func requirement(named name: String, at range: SourceRange) -> Int {
        if let index = program.requirements.firstIndex(where: { $0.name == name }) { return index }
        program.requirements.append(.init(name: name, thread: nil, holding: [], range: range))
        return program.requirements.count - 1
    }

    /// The source text of a range on one line (an expression, as written), or "…".
    func text(of range: SourceRange) -> String {
        guard range.start.line == range.end.line else { return "…" }
        let scalars = Array(program.file.line(range.start.line).unicodeScalars)
        let from = max(0, min(scalars.count, range.start.column - 1))
        let to = max(from, min(scalars.count, range.end.column - 1))
        return String(String.UnicodeScalarView(scalars[from..<to]))
    }

    /// Compiles declarations into a program.
    /// - Throws: `ScriptError` listing every problem found.
    ///
    /// `probes`: lines whose first statement must run in every complete run. Each
    /// becomes required work with no name a script can write, checked at the end as
    /// a `required` block is ("the locked code at line 30 never ran"): the grader's
    /// way to tell that a submission skipped locked code (an early `return`).
    public static func compile(_ declarations: [Declaration], file: SourceFile, probes: Set<Int> = []) throws(ScriptError) -> Program {
        var compiler = Compiler(file: file)
        compiler.probes = probes
        compiler.compileAll(declarations)
        if !compiler.diagnostics.isEmpty { throw ScriptError(file: file, diagnostics: compiler.diagnostics) }
        compiler.program.marksProgress = compiler.program.codes.contains { $0.instructions.contains(.progress) }
        compiler.program.weakOrderings = weakOrderings(of: compiler.program)
        compiler.program.usesMainActor = usesMainActor(compiler.program)
        compiler.program.swift6Rejections = compiler.swift6.rejections(compiler.program)
        compiler.program.usesConcurrency =
            compiler.program.threads.contains(where: { $0.isTask })
            || compiler.program.codes.contains { code in
                code.instructions.contains { instruction in
                    switch instruction {
                    case .isolate, .task: return true
                    default: return false
                    }
                }
            }
        return compiler.program
    }

    /// The engine's operator for a symbol the parser accepted.
    mutating func operatorNamed(_ symbol: String, at range: SourceRange) throws(Failure) -> Operator {
        guard let op = Operator(rawValue: symbol) else { throw error("unknown operator '\(symbol)'", at: range) }
        return op
    }

    mutating func error(_ message: String, at range: SourceRange, note: String? = nil) -> Failure {
        diagnostics.append(Diagnostic(message, at: range, note: note))
        return Failure()
    }

    mutating func compileAll(_ declarations: [Declaration]) {
        declareNames(declarations)
        for declaration in declarations {
            switch declaration.kind {
            case .metadata("scheduling", "strict priority"): program.strictPriority = true
            case .metadata("scheduling", _):
                _ = error("scheduling is \"strict priority\" (or leave it out: any interleaving)", at: declaration.range)
            case .metadata("memory", "manual"): program.manualMemory = true
            case .metadata("memory", "automatic"): program.manualMemory = false
            case .metadata("memory", _):
                _ = error("memory is \"manual\" or \"automatic\" (ARC, as Swift, which leaving it out means too)", at: declaration.range)
            case .metadata("pool", let value):
                guard let width = Int(value), (1...64).contains(width) else {
                    _ = error("pool is a number of threads, 1 to 64: pool 1 (or leave it out: as many as it takes)", at: declaration.range)
                    continue
                }
                program.poolWidth = width
            case .metadata("upcoming", "NonisolatedNonsendingByDefault"): program.nonsendingByDefault = true
            case .metadata("upcoming", _):
                _ = error(
                    "upcoming is \"NonisolatedNonsendingByDefault\" (SE-0461: a nonisolated async function runs on its caller's actor), or leave it out (SE-0338: it leaves)",
                    at: declaration.range)
            case .metadata("mailbox", "any"): program.mailboxAnyOrder = true
            case .metadata("mailbox", "enqueue order"): program.mailboxAnyOrder = false
            case .metadata("mailbox", _):
                _ = error(
                    "mailbox is \"any\" (an actor runs its waiting jobs in any order, as SE-0306 allows) or \"enqueue order\" (the runtime's, and leaving it out)",
                    at: declaration.range)
            case .metadata("wakeups", "signalled only"): program.spuriousWakeups = false
            case .metadata("wakeups", _):
                _ = error(
                    "wakeups is \"signalled only\" (or leave it out: a wait may also return with no signal, any number of times)",
                    at: declaration.range)
            default: continue
            }
        }
        // Code 0 is setup; bodies are compiled after every name is known.
        var setup = CodeBuilder(name: "setup")
        builders = [setup]
        var globalNumber = 0
        for declaration in declarations {
            guard case .global(_, _, let type, let value, _, _) = declaration.kind else { continue }
            setupVisibleGlobals = globalNumber
            builders[0].currentRange = declaration.range
            do throws(Failure) {
                try compileTyped(value, type)
                builders[0].emit(.store(.global(globalNumber)))
            } catch {}
            globalNumber += 1
        }
        setupVisibleGlobals = nil
        builders[0].emit(.constant(program.constant(.none)))
        builders[0].emit(.ret)
        setup = builders.removeLast()
        program.setupCode = add(setup.code)

        var sawMain = false
        for declaration in declarations {
            switch declaration.kind {
            case .function(let f):
                // A name declared twice was reported; its second declaration has no slot.
                guard let slot = functionIndex[f.name]?.code else { continue }
                let isolation = Compiler.isolation(of: f, in: nil, nonsendingByDefault: program.nonsendingByDefault)
                program.codes[slot] = compileBody(
                    name: f.name, parameters: f.parameters, body: f.body, range: declaration.range,
                    isAsync: f.isAsync, canThrow: f.isThrowing, isolation: isolation, context: isolation == .mainActor ? .mainActor : .function(f.name))
            case .task(let name, let body):
                let code = add(
                    compileBody(name: name, parameters: [], body: body, range: declaration.range, isAsync: true, canThrow: true, context: .task(name)))
                program.threads.append(.init(name: name, code: code, isTask: true))
            case .thread(let name, let body):
                // Main's code is async (as a script's top-level code): it may await.
                let code = add(
                    compileBody(
                        name: name, parameters: [], body: body, range: declaration.range, isAsync: name == "main", canThrow: name == "main",
                        context: name == "main" ? .mainActor : .thread(name)))
                if name == "main" {
                    sawMain = true
                    program.mainCode = code
                } else {
                    program.threads.append(.init(name: name, code: code))
                }
            case .class(let c):
                // A class whose name was taken (reported) has no entry to hold its deinit.
                guard let index = program.classIndex(named: c.name) else { continue }
                if let body = c.deinitBody {
                    var builder = CodeBuilder(name: "\(c.name).deinit", isDeinit: true)
                    // A `@MainActor` class's deinit runs where the last release is, off
                    // the main actor as Swift's (nonisolated) deinit.
                    if c.isMainActor { builder.context = .function("\(c.name).deinit") }
                    builder.deinitClass = index
                    _ = builder.declare("self", isLet: true)
                    builder.code.parameterCount = 1
                    let code = compile(builder, body: body, range: declaration.range)
                    program.classes[index].deinitCode = add(code)
                }
                compileMethods(c, index)
            default:
                break
            }
        }
        if !sawMain {
            program.mainCode = add(compileBody(name: "main", parameters: [], body: [], range: nil))
        }
        compileChecks(declarations)
        compileInvariants(declarations)
        for index in program.codes.indices { program.codes[index].classify() }
    }

    mutating func add(_ code: Code) -> Int {
        program.codes.append(code)
        return program.codes.count - 1
    }

    /// Registers globals, classes, functions and threads, reporting duplicates.
    mutating func declareNames(_ declarations: [Declaration]) {
        var seen: [String: String] = [:]
        var threadNames: Set<String> = []
        for declaration in declarations {
            if case .thread(let name, _) = declaration.kind {
                if !threadNames.insert(name).inserted {
                    _ = error("thread '\(name)' is declared twice", at: declaration.nameRange)
                }
                continue
            }
            guard let (name, what) = declaration.replacementKey, what != "schedule", what != "metadata" else { continue }
            if let previous = seen[name] {
                _ = error("'\(name)' is already declared as a \(previous)", at: declaration.nameRange)
                continue
            }
            if Compiler.builtinFunctions.contains(name) || name == "main" {
                _ = error("'\(name)' is a built-in name and cannot be redeclared", at: declaration.nameRange)
                continue
            }
            seen[name] = what
            switch declaration.kind {
            case .global(let isLet, let name, _, let value, let storage, let isolation):
                globalIndex[name] = program.globals.count
                if storage == .weak && isLet { _ = error("a weak reference changes when its object goes away: write 'weak var'", at: declaration.range) }
                var global = Program.Global(name: name, isLet: isLet, isAtomic: storage == .atomic, isWeak: storage == .weak)
                global.isUnchecked = isolation == .nonisolatedUnsafe
                if case .call(let callee, _, _) = value.kind, callee.kind == .name("Atomic") { global.holdsAtomic = true }
                // An actor and a `@MainActor` class are Sendable; other classes are not.
                if case .call(let callee, _, _) = value.kind, case .name(let type) = callee.kind,
                    declarations.contains(where: {
                        if case .class(let c) = $0.kind { return c.name == type && !c.isActor && !c.isMainActor } else { return false }
                    })
                {
                    global.holdsInstanceOf = type
                }
                program.globals.append(global)
            case .function(let f):
                functionIndex[f.name] = (add(Code(name: f.name)), f.parameters)
                if f.isAsync { asyncFunctions.insert(f.name) }
                if f.isolation == .mainActor { mainActorFunctions.insert(f.name) }
                checkAsyncOnlyMark(f, at: declaration.range)
                if f.isThrowing { throwingFunctions.insert(f.name) }
            case .class(let c):
                var defaults: [Value] = []
                for field in c.fields {
                    if field.storage == .weak && field.isLet {
                        _ = error("a weak reference changes when its object goes away: write 'weak var'", at: field.range)
                    }
                    if Compiler.reservedFieldNames.contains(field.name) {
                        _ = error("'\(field.name)' is reserved for arrays and dictionaries and cannot name a field", at: field.range)
                    }
                    if !field.hasDefault {
                        // `let numbers: [Int]`: nil until the init sets it.
                        defaults.append(.none)
                        if !c.methods.contains(where: { $0.function.name == "init" }) {
                            _ = error("field '\(field.name)' needs a default value ('= …'), or an init that sets it", at: field.range)
                        }
                    } else if let value = constantValue(field.value) {
                        defaults.append(value)
                    } else {
                        defaults.append(.none)
                        _ = error("a field's default must be a literal; pass other values when creating: \(c.name)(\(field.name): …)", at: field.value.range)
                    }
                }
                var info = Program.ClassInfo(
                    name: c.name, fieldNames: c.fields.map({ $0.name }), fieldIsLet: c.fields.map({ $0.isLet }),
                    fieldIsAtomic: c.fields.map { $0.storage == .atomic },
                    fieldIsWeak: c.fields.map { $0.storage == .weak },
                    fieldDefaults: defaults, mainThreadOnly: c.mainThreadOnly, deinitCode: nil)
                info.isActor = c.isActor
                info.isMainActor = c.isMainActor
                declareIsolatedNames(c)
                declareMethods(c, into: &info)
                program.classes.append(info)
            default:
                break
            }
        }
    }

    func constantValue(_ expression: Expression) -> Value? {
        switch expression.kind {
        case .int(let n): return .int(n)
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .nil: return Value.none
        case .unary("-", let inner):
            if case .int(let n) = inner.kind { return .int(-n) }
            return nil
        case .array(let items):
            let values = items.compactMap(constantValue)
            return values.count == items.count ? .array(ArrayValue(values)) : nil
        case .dictionary(let items) where items.isEmpty: return .dictionary(ArrayValue([]))
        default: return nil
        }
    }

    mutating func compileBody(
        name: String, parameters: [String], body: [Statement], range: SourceRange?, isAsync: Bool = false, canThrow: Bool = false,
        isolation: Isolation? = nil, context: Swift6Check.Context? = nil
    ) -> Code {
        var builder = CodeBuilder(name: name)
        builder.context = context
        for parameter in parameters { _ = builder.declare(parameter, isLet: true) }
        builder.code.parameterCount = parameters.count
        builder.isAsync = isAsync
        builder.canThrow = canThrow
        return compile(builder, body: body, range: range, isolation: isolation)
    }

    /// - Parameter isolation: where the code runs, when on an executor of its own
    ///   (its first instruction goes there; see `emitPrologue`).
    mutating func compile(_ builder: CodeBuilder, body: [Statement], range: SourceRange?, isolation: Isolation? = nil) -> Code {
        builders.append(builder)
        builders[builders.count - 1].currentRange = range.map { SourceRange($0.start, $0.start) }
        emitPrologue(isolation)
        compileStatements(body)
        builders[builders.count - 1].currentRange = range.map { SourceRange($0.end, $0.end) }
        // An init hands back the object it made (the creator's expression).
        if builder.isInitializer { emit(.loadLocal(0)) } else { emit(constant: .none) }
        emitEpilogue()
        emit(.ret)
        return builders.removeLast().code
    }

    // MARK: - Emitting

    /// The code being emitted now. Read and changed in place (no copy of the builder,
    /// which in a debug build would take stack space in every frame that names it, and
    /// the compiler recurses once per nesting level).
    var builder: CodeBuilder {
        _read { yield builders[builders.count - 1] }
        _modify { yield &builders[builders.count - 1] }
    }

    @discardableResult
    mutating func emit(_ instruction: Instruction) -> Int {
        if let context = builder.context, let global = Swift6Check.global(touchedBy: instruction) { swift6.note(global, context, builder.currentRange) }
        return builders[builders.count - 1].emit(instruction)
    }

    /// Emits a push of `value`, kept in the program's constants.
    @discardableResult
    mutating func emit(constant value: Value) -> Int {
        let index = program.constant(value)
        return emit(.constant(index))
    }

    /// The index of the instruction emitted last.
    var lastEmitted: Int { builders[builders.count - 1].here - 1 }

    /// Marks the next instruction as the use of the object that instruction `load`
    /// loaded (see `Code.heldUntil`). Through `builders`, not `builder`, which would
    /// copy the builder: `compileStatement` recurses once per nesting level, and its
    /// frame must stay small.
    mutating func holdUntilHere(_ load: Int) {
        builders[builders.count - 1].holdUntilHere(load)
    }

    mutating func patch(_ index: Int) {
        let target = builder.here
        builders[builders.count - 1].patch(index, to: target)
    }
}
