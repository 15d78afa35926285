/// Writes a small RaceLab program from a fuzzer's bytes (`FuzzChoices`): the grammar
/// of docs/LANGUAGE.md, so that constructs the shipped scenarios rarely use (a weak
/// capture compared with nil, a barrier sent with a group, an operation observed as
/// it finishes) are tried as often as common ones. Every program it writes compiles;
/// most end, and are small enough (two or three threads, a few statements each) that
/// every search of them finishes in milliseconds.
///
/// It first chooses what the program declares (`Toolkit`: a lock of some kind, a
/// semaphore, a condition, a queue, …), then writes the threads from a menu of
/// statements that use only what is declared (`ProgramGenerator+Statements`,
/// `+Synchronization`, `+Dispatch`, `+Expressions`), then the checks. Loops are
/// bounded, except the `while true` of a server, which waits for work each round.
///
/// ```swift
/// let text = ProgramGenerator.program(from: input)
/// ```
struct ProgramGenerator {
    /// What the program declares; a statement is written only when what it uses is here.
    struct Toolkit {
        /// `Lock`, `NSLock`, `NSRecursiveLock` or `OSAllocatedUnfairLock`: the lock `m`.
        var lock: String?
        var semaphore = false
        /// `NSCondition()` as `c`, with `var ready = false`.
        var condition = false
        /// `serial`, `concurrent` or `global`: the queue `q`.
        var queue: String?
        var group = false
        var operations = false
        var atomic = false
        var atomicVar = false
        var array = false
        var dictionary = false
        var set = false
        /// `class Box`, a `var box: Box?` and, with `weakGlobal`, a `weak var wbox: Box?`.
        var box = false
        var weakGlobal = false
        var boxPeer = false
        var boxHits = false
        /// `memory "manual"`: Box objects retained, released and autoreleased by hand
        /// (only without weak references, which manual memory does not have).
        var manualMemory = false
        var functions = false
        var constant = false
        /// `var turn = 0`, for threads that take turns in a `while true` loop.
        var turn = false
        /// Swift concurrency: `actor Acc`, `let acc = Acc()`, an async function, tasks.
        var actors = false
    }

    /// A local of the code being written, and what it holds.
    struct Local {
        enum Kind { case int, object, weak, operation }
        var name: String
        var kind: Kind
        var mutable: Bool
        /// The closure nesting it was declared at: only code at that level assigns it.
        var level: Int
    }

    var choices: FuzzChoices
    var toolkit = Toolkit()
    /// The lines written so far.
    private(set) var lines: [String] = []
    var indent = 0
    /// Statements left to write in the whole program.
    var budget = 0
    var scopes: [[Local]] = [[]]
    /// How many closures (or function bodies) enclose the code being written.
    var level = 0
    /// Loops enclosing the code being written, within the current closure.
    var loops = 0
    /// Blocks enclosing the code being written (a bound on nesting).
    var depth = 0
    var inCritical = false
    var inFunction = false
    /// Whether the code being written may `await` (main, a task, a `Task { }`).
    var inAsync = false
    /// The top-level `task`s written (a fix replaces one as a task, never removes one).
    var tasks: Set<String> = []
    /// The thread being written, as the program names it.
    var thread = ""
    /// Fresh names: `t1`, `w2`, `o3`, …
    var serial = 0

    init(bytes: some Sequence<UInt8>) {
        choices = FuzzChoices(bytes)
    }

    /// The program `bytes` choose.
    static func program(from bytes: some Sequence<UInt8>) -> String {
        var generator = ProgramGenerator(bytes: bytes)
        return generator.program()
    }

    /// The whole program's text.
    mutating func program() -> String {
        budget = 3 + choices.below(8)
        chooseToolkit()
        writeModel()
        writeDeclarations()
        let threadCount = choices.chance(25) ? 3 : 2
        let mainIndex = choices.chance(40) ? choices.below(threadCount) : -1
        var names: [String] = []
        for index in 0..<threadCount {
            let name = index == mainIndex ? "main" : "T\(index + 1)"
            names.append(name)
            writeThread(name, statements: 1 + choices.below(2))
        }
        writeChecks()
        if choices.chance(8) { writeFix(names) }
        if choices.chance(5) { emit("schedule story \"\(names.map { $0 + "*2" }.joined(separator: " "))\"") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The declarations each program may have, a few of them chosen by the bytes.
    private mutating func chooseToolkit() {
        for _ in 0..<(1 + choices.below(5)) {
            switch choices.below(15) {
            case 13: toolkit.actors = true
            case 0: toolkit.array = true
            case 1: toolkit.lock = choices.pick(["Lock", "NSLock", "NSRecursiveLock", "OSAllocatedUnfairLock"])
            case 2: toolkit.semaphore = true
            case 3: toolkit.box = true
            case 4: toolkit.condition = true
            case 5: toolkit.queue = choices.pick(["serial", "concurrent", "global"])
            case 6: toolkit.group = true
            case 7: toolkit.operations = true
            case 8: toolkit.atomic = true
            case 9: toolkit.atomicVar = true
            case 10: toolkit.dictionary = true
            case 11: toolkit.set = true
            case 12: toolkit.functions = true
            default: toolkit.turn = true
            }
        }
        if toolkit.box {
            toolkit.weakGlobal = choices.chance(50)
            toolkit.boxPeer = choices.chance(30)
            toolkit.boxHits = choices.chance(30)
            toolkit.manualMemory = !toolkit.weakGlobal && !toolkit.boxPeer && choices.chance(70)
        }
        toolkit.constant = choices.chance(20)
    }

    /// The statements that change the model rather than the program.
    private mutating func writeModel() {
        if choices.chance(5) { emit("title \"generated\"") }
        if toolkit.condition && choices.chance(50) { emit("wakeups \"signalled only\"") }
        if choices.chance(4) { emit("scheduling \"strict priority\"") }
        if toolkit.manualMemory { emit("memory \"manual\"") }
        if toolkit.actors && choices.chance(30) { emit("mailbox \"any\"") }
    }

    private mutating func writeDeclarations() {
        if toolkit.box {
            let deinitBody = choices.pick(["x += 1", "print(\"deinit\")", "y = 1", ""])
            emit((choices.chance(10) ? "@mainThreadOnly " : "") + "class Box {")
            emit("    var v = 0")
            if toolkit.boxHits { emit("    atomic var hits = 0") }
            if toolkit.boxPeer { emit("    weak var peer: Box? = nil") }
            if !deinitBody.isEmpty { emit("    deinit { \(deinitBody) }") }
            emit("}")
        }
        emit("var x = 0")
        emit("var y = 0")
        if toolkit.constant { emit("let k = 2") }
        if toolkit.atomicVar { emit("atomic var n = 0") }
        if toolkit.array { emit(choices.chance(30) ? "var xs: [Int] = []" : "var xs = [1]") }
        if toolkit.dictionary { emit(choices.chance(40) ? "var d: [String: Int] = [:]" : "var d = [\"a\": 1]") }
        if toolkit.set { emit(choices.pick(["var s: Set<Int> = [1]", "var s = Set([1, 2])", "var s: Set<Int> = Set()"])) }
        if toolkit.box {
            emit(choices.chance(70) ? "var box: Box? = Box()" : "var box: Box? = nil")
            if toolkit.weakGlobal { emit("weak var wbox: Box? = nil") }
        }
        if toolkit.turn { emit("var turn = 0") }
        if let lock = toolkit.lock { emit("let m = \(lock)()") }
        if toolkit.semaphore { emit("let sem = DispatchSemaphore(value: \(choices.below(2)))") }
        if toolkit.condition {
            emit("let c = NSCondition()")
            emit("var ready = false")
        }
        switch toolkit.queue {
        case "serial": emit("let q = DispatchQueue(label: \"q\")")
        case "concurrent": emit("let q = DispatchQueue(label: \"q\", attributes: .concurrent)")
        case "global": emit("let q = DispatchQueue.global()")
        default: break
        }
        if toolkit.group { emit("let g = DispatchGroup()") }
        if toolkit.operations {
            emit(choices.chance(50) ? "let oq = OperationQueue()" : "let oq = OperationQueue(maxConcurrentOperationCount: 1)")
            writeOperationSubclass()
        }
        if toolkit.atomic { emit("let at = Atomic(0)") }
        if toolkit.functions { writeFunctions() }
        if toolkit.actors { writeActor() }
    }

    /// `Job`, an Operation subclass made with its init (`Job(amount: 2)`): its main()
    /// checks isCancelled and adds to x; or, asynchronous, its start() sends the work
    /// to a global queue, which calls finish().
    private mutating func writeOperationSubclass() {
        emit("class Job: Operation {")
        emit("    let amount: Int")
        emit("    var done = 0")
        emit("    init(amount: Int) {")
        emit("        self.amount = amount")
        emit("    }")
        if choices.chance(30) {
            emit("    override var isAsynchronous: Bool { true }")
            emit("    override func start() {")
            emit("        DispatchQueue.global().async {")
            emit("            done = amount")
            emit(choices.chance(80) ? "            finish()" : "            x += 1")
            emit("        }")
            emit("    }")
        } else {
            emit("    override func main() {")
            emit("        if isCancelled { return }")
            emit("        done = amount")
            emit("        x += amount")
            emit("    }")
        }
        emit("}")
    }

    /// `twice(n)`, which returns, and `bump()`, which changes shared state.
    private mutating func writeFunctions() {
        emit("func twice(n) -> Int {")
        emit(choices.chance(50) ? "    if n > 2 { return n }" : "    let m2 = n * 2")
        emit("    return n * 2")
        emit("}")
        emit("func bump() {")
        inFunction = true
        nested(count: 1 + choices.below(2), closure: true, after: choices.chance(30) ? ["if x > 1 { return }"] : [])
        inFunction = false
        emit("}")
    }

    private mutating func writeThread(_ name: String, statements count: Int) {
        thread = name
        let task = name != "main" && toolkit.actors && choices.chance(60)
        let header = name == "main" && choices.chance(70) ? "main {" : task ? "task \(name) {" : "thread \(name) {"
        emit(header)
        inAsync = header == "main {" || task
        if task { tasks.insert(name) }
        indent += 1
        scopes.append([])
        body(count)
        if choices.chance(25) { writeForever() }
        scopes.removeLast()
        indent -= 1
        emit("}")
    }

    /// `expect` and `always` checks over the shared state.
    private mutating func writeChecks() {
        for index in 0..<choices.below(3) { emit("expect \(checkCondition()), \"check \(index + 1)\"") }
        if choices.chance(25) { emit("always \(checkCondition()), \"invariant\"") }
    }

    /// A fix that replaces one thread (and perhaps drops another).
    private mutating func writeFix(_ names: [String]) {
        let replaced = choices.pick(names)
        emit("fix alt {")
        indent += 1
        emit(choices.pick(["summary \"another way\"", "variant \"another broken way\"", "fails \"meant to fail\""]))
        thread = replaced
        budget = max(budget, 1)
        inAsync = replaced == "main" || tasks.contains(replaced)
        block(replaced == "main" ? "main {" : tasks.contains(replaced) ? "task \(replaced) {" : "thread \(replaced) {", count: 1 + choices.below(2))
        if let other = names.first(where: { $0 != replaced && $0 != "main" && !tasks.contains($0) }), choices.chance(30) { emit("remove thread \(other)") }
        indent -= 1
        emit("}")
    }

    // MARK: Writing

    mutating func emit(_ line: String) {
        lines.append(String(repeating: "    ", count: indent) + line)
    }

    /// Writes one of `options`; `NEW` in it is a new local of `kind`, declared only
    /// when that option is the one written.
    mutating func emit(oneOf options: [String], new kind: Local.Kind = .int) {
        let line = choices.pick(options)
        emit(line.contains("NEW") ? line.replacing("NEW", with: newLocal(kind)) : line)
    }

    mutating func fresh(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)\(serial)"
    }

    mutating func declare(_ name: String, _ kind: Local.Kind, mutable: Bool = false) {
        scopes[scopes.count - 1].append(Local(name: name, kind: kind, mutable: mutable, level: level))
    }

    /// The locals in scope holding `kind`, innermost last.
    func locals(_ kind: Local.Kind) -> [Local] {
        scopes.flatMap { $0 }.filter { $0.kind == kind }
    }

    /// Writes a block: `header`, its inside (`nested`), then its closing brace.
    mutating func block(
        _ header: String, count: Int, closure: Bool = false, async: Bool = false, loop: Bool = false, locals: [Local] = [], before: [String] = [],
        after: [String] = []
    ) {
        emit(header)
        nested(count: count, closure: closure, async: async, loop: loop, locals: locals, before: before, after: after)
        emit("}")
    }

    /// The inside of a block, one level in: `before`, up to `count` generated statements
    /// and `after`. `closure` says the block runs later, on some thread (its own
    /// locals, no enclosing loop); `loop`, that it may `break`.
    /// `async`: a closure that is a task's (it may await).
    mutating func nested(
        count: Int, closure: Bool = false, async: Bool = false, loop: Bool = false, locals: [Local] = [], before: [String] = [], after: [String] = []
    ) {
        let saved = (loops: loops, level: level, depth: depth)
        let wasAsync = inAsync
        if closure {
            level += 1
            loops = 0
            inAsync = async
        }
        if loop { loops += 1 }
        depth += 1
        indent += 1
        scopes.append(locals.map { Local(name: $0.name, kind: $0.kind, mutable: $0.mutable, level: level) })
        for line in before { emit(line) }
        body(count)
        for line in after { emit(line) }
        scopes.removeLast()
        indent -= 1
        (loops, level, depth) = saved
        inAsync = wasAsync
    }

    /// Up to `count` statements, as the budget allows (at least one line: a block is never empty).
    mutating func body(_ count: Int) {
        let start = lines.count
        for _ in 0..<count where budget > 0 {
            budget -= 1
            statement()
        }
        if lines.count == start { emit(choices.chance(50) ? "x += 1" : "work(1)") }
    }
}
