import RaceLabLanguage

/// The code being emitted for one function, thread body, closure or deinit, with
/// its lexical scopes, loops and the monitors entered so far.
struct CodeBuilder {
    struct Local {
        var slot: Int
        var isLet: Bool
        var isCapture: Bool
        /// An `async let`: the slot holds its child's handle; reading it awaits.
        var isAsyncLet = false
        /// A task group's body parameter: no closure may capture it.
        var isGroup = false
    }

    /// What is open at a point of the code, that a `return`, `break`, `continue` or
    /// error from inside must leave (`Compiler.emitLeaving`): how many monitors,
    /// critical sections, `autoreleasepool { }` blocks, `async let`s, task groups and
    /// cancellation handlers.
    struct Depth {
        var monitors = 0
        var criticals = 0
        var pools = 0
        var asyncLets = 0
        var groups = 0
        var cancellationHandlers = 0
    }

    struct Loop {
        var breaks: [Int] = []
        var continues: [Int] = []
        /// What was open where the loop starts.
        var depth: Depth
    }

    /// A closure body compiled in place: where its returns jump from, the slot its
    /// returned value goes to (nil: it returns nothing), and what was open where it
    /// began.
    struct InlineBody {
        var returns: [Int] = []
        var result: Int?
        var depth: Depth
    }

    var code: Code
    var scopes: [[String: Local]] = [[:]]
    var loops: [Loop] = []
    /// Temporaries holding the tokens of the `synchronized` blocks we are inside.
    var monitors: [Int] = []
    /// The `critical` sections we are inside, by index.
    var criticals: [Int] = []
    /// How many `autoreleasepool { }` blocks we are inside.
    var pools = 0
    /// The slots of the `async let`s in scope, outermost first.
    var asyncLets: [Int] = []
    /// The slots of the task groups whose bodies we are inside, outermost first.
    var groups: [Int] = []
    /// How many `withTaskCancellationHandler` operations we are inside.
    var cancellationHandlers = 0
    var depth: Depth {
        Depth(
            monitors: monitors.count, criticals: criticals.count, pools: pools, asyncLets: asyncLets.count, groups: groups.count,
            cancellationHandlers: cancellationHandlers)
    }
    /// For closures: (slot in the enclosing code, slot here) for each captured local.
    var captures: [(outer: Int, inner: Int)] = []
    let isClosure: Bool
    let isDeinit: Bool
    /// In a method (an `init`, `main()` or `start()`): the class, whose fields (and, in
    /// an Operation subclass, the operation's properties) a bare name may be.
    var selfClass: Int?
    /// In a deinit: the class (a bare name is not its field there, but `self.f()` is
    /// its method).
    var deinitClass: Int?
    /// In an `init`: it may set the object's `let` fields.
    var isInitializer: Bool { code.isInitializer }
    var currentRange: SourceRange?
    /// Async code (a task's, an async function's, main's): it may `await`.
    var isAsync = false
    /// Inside an `await` expression: its calls may suspend.
    var awaiting = false
    /// Inside a synchronous closure compiled in place in async code (`MainActor.run`'s),
    /// which `isAsync` is false for: its name, to say why it cannot await.
    var synchronousBody: String?
    /// The slot keeping the caller's executor, in code that runs on one of its own
    /// (`Compiler.emitPrologue`): every return goes back to it first.
    var executorSlot: Int?
    /// The `expect` and `always` checks: they read everything, an actor's state too.
    var isCheck = false
    /// Where Swift 6 would say the code runs, for its static check (`Swift6Check`);
    /// nil where it does not matter (checks, setup).
    var context: Swift6Check.Context?
    /// Closure bodies compiled in place (`Compiler.compileInline`), innermost last: a
    /// `return` in one jumps to its end.
    var inlineBodies: [InlineBody] = []
    /// Whether an error may leave this code (a `throws` function, a task's closure,
    /// main's code): a `try` outside any `do` sends it out.
    var canThrow = false
    /// Inside a `try` expression: a call that may throw is checked after it.
    var trying = false
    /// Where errors thrown here go, innermost last: a `do`'s catches, a `try?`.
    var handlers: [Handler] = []

    /// A place errors go (`Compiler.emitPropagate`): what is open where it begins (a
    /// throw leaves the rest), the slots keeping the stack's height and the error, and
    /// the jumps into it.
    struct Handler {
        var depth: Depth
        var height: Int
        var error: Int
        var entries: [Int] = []
    }

    init(name: String, isClosure: Bool = false, isDeinit: Bool = false) {
        code = Code(name: name)
        self.isClosure = isClosure
        self.isDeinit = isDeinit
    }

    var here: Int { code.instructions.count }

    @discardableResult
    mutating func emit(_ instruction: Instruction) -> Int {
        code.instructions.append(instruction)
        code.ranges.append(currentRange)
        return code.instructions.count - 1
    }

    /// Marks the next instruction as the use of the object that instruction `load`
    /// loaded (see `Code.heldUntil`).
    mutating func holdUntilHere(_ load: Int) {
        code.heldUntil[load] = here
    }

    mutating func patch(_ index: Int, to target: Int) {
        switch code.instructions[index] {
        case .jump: code.instructions[index] = .jump(target)
        case .jumpIfFalse: code.instructions[index] = .jumpIfFalse(target)
        case .catchThrown: code.instructions[index] = .catchThrown(target)
        case .iterate(let place, let state, let element, _, let pair):
            code.instructions[index] = .iterate(place, state: state, element: element, exit: target, pair: pair)
        default: preconditionFailure("patching a non-jump")
        }
    }

    mutating func newSlot(_ name: String, temp: Bool = false) -> Int {
        code.localNames.append(name)
        code.localIsTemp.append(temp)
        code.localCount += 1
        return code.localCount - 1
    }

    mutating func declare(_ name: String, isLet: Bool) -> Int {
        let slot = newSlot(name)
        scopes[scopes.count - 1][name] = Local(slot: slot, isLet: isLet, isCapture: false)
        return slot
    }

    func lookup(_ name: String) -> Local? {
        for scope in scopes.reversed() {
            if let local = scope[name] { return local }
        }
        return nil
    }

    /// Every local name visible here, sorted, for suggestions.
    var visibleNames: [String] {
        Array(Set(scopes.flatMap({ $0.keys }))).sorted()
    }
}
