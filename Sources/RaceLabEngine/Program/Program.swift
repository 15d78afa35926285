import RaceLabLanguage

/// A compiled scenario (the broken version or one fix): everything the engine needs.
public struct Program: Sendable {
    public struct Global: Sendable {
        public var name: String
        public var isLet: Bool
        /// `atomic var`: its reads and writes synchronize and are never data races.
        public var isAtomic = false
        /// `weak var`: it holds its object without keeping it alive.
        public var isWeak = false
        /// `let counter = Atomic(0)`: a constant, but what it holds changes, so an
        /// outcome shows it.
        public var holdsAtomic = false
        /// For a `let` made by a class of the script's that is not an actor: the
        /// class (its instance is not `Sendable`: `Swift6Check`).
        public var holdsInstanceOf: String?
        /// `nonisolated(unsafe) var`: Swift 6 does not check it (`Swift6Check`).
        public var isUnchecked = false

        /// Whether an outcome shows it: variables, and constants holding an `Atomic`.
        public var isShown: Bool { !isLet || holdsAtomic }
    }

    public struct ClassInfo: Sendable {
        public var name: String
        public var fieldNames: [String]
        public var fieldIsLet: [Bool]
        /// `atomic var` fields (see `Global.isAtomic`).
        public var fieldIsAtomic: [Bool]
        /// `weak var` fields (see `Global.isWeak`).
        public var fieldIsWeak: [Bool]
        public var fieldDefaults: [Value]
        public var mainThreadOnly: Bool
        /// The deinit body, run by whichever thread releases the last reference.
        public var deinitCode: Int?
        /// The `init` (its parameters after `self`), which creating one runs.
        public var initializer: (code: Int, parameters: [String])?
        /// Its methods by name (`main`, `start`), each called with `self` first.
        public var methods: [String: Int] = [:]
        /// For an Operation subclass (`class Name: Operation`): what a queue runs.
        /// `actor Name { }`: its instances are actors, its methods run on them.
        public var isActor = false
        /// `@MainActor class Name { }`: its fields are the main actor's (touched off it,
        /// a runtime error: `Machine.refusesOutsideAccess`), its methods run there.
        public var isMainActor = false
        public var operation: OperationClass?
    }

    /// An Operation subclass: an instance is an operation with the class's fields.
    public struct OperationClass: Sendable {
        /// Its `main()`, or its `start()` where it overrides that: called with the
        /// operation as `self`.
        public var code: Int
        /// `override var isAsynchronous: Bool { true }`: it is finished only when it
        /// says so (`finish()`), not when its code returns.
        public var isAsynchronous: Bool
    }

    public struct ThreadInfo: Sendable {
        public var name: String
        public var code: Int
        /// `task NAME { }`: a task on the global concurrent executor, with a handle.
        public var isTask = false
    }

    public struct Expectation: Sendable {
        public var message: String
        public var range: SourceRange
        /// For the check that a `required` block's work was done: its index in `requirements`.
        public var requirement: Int?
    }

    /// A `required "NAME" on THREAD holding LOCK, … { … }` block: work that every
    /// complete run must do, where the exercise says.
    public struct Requirement: Sendable {
        public var name: String
        public var thread: String?
        /// The source text of each lock it must hold, in order.
        public var holding: [String]
        /// The `required` block (or, until it is compiled, the first `due` naming it).
        public var range: SourceRange
        /// Whether a `due` statement names it: then it must run exactly as often as it fell due.
        public var hasDue = false
        var hasBlock = false
        /// For a probe the grader placed (`Compiler.compile(_:file:probes:)`), not a
        /// block the script wrote: the line of locked code that must run.
        public var probeLine: Int?
    }

    /// Whether `expectation` checks a probe the grader placed, not a script's own work.
    public func isProbe(_ expectation: Expectation) -> Bool {
        expectation.requirement.map { requirements[$0].probeLine != nil } ?? false
    }

    public var file: SourceFile
    public var codes: [Code] = []
    public var globals: [Global] = []
    public var classes: [ClassInfo] = []
    /// Runs on the main thread before anything else, atomically: global initial values.
    public var setupCode = 0
    public var mainCode = 0
    /// Threads started at the beginning, in declaration order (main is not listed).
    public var threads: [ThreadInfo] = []
    public var checksCode = 0
    public var expectations: [Expectation] = []
    public var requirements: [Requirement] = []
    /// `always` invariants, checked after every step by `invariantsCode` (nil: none).
    public var invariants: [Expectation] = []
    public var invariantsCode: Int?
    /// The names of the `critical` sections, by index ("critical" for unnamed ones).
    public var criticalSections: [String] = []

    /// "the critical section", or "critical section 'name'".
    public func sectionName(_ index: Int) -> String {
        let name = criticalSections[index]
        return name == "critical" ? "the critical section" : "critical section '\(name)'"
    }

    /// Whether some code says where it makes progress (`progress` statements): then
    /// only they count as progress; without any, a completed round of a thread's
    /// outermost `while true` loop does (`Instruction.round`). Set once compiled.
    public internal(set) var marksProgress = false
    /// The memory orderings weaker than sequentially consistent that the program's
    /// atomic calls are given (`MemoryOrdering`), each once: races then follow the
    /// happens-before they make, but outcomes are still explored as if sequentially
    /// consistent, which every report says (`Exploration.orderingNote`). Set once compiled.
    public internal(set) var weakOrderings: [MemoryOrdering] = []

    /// A strict-priority uniprocessor (`scheduling "strict priority"`, or
    /// `--strategy priority`): only the runnable threads of the highest priority may
    /// take the next step (`Engine.isSchedulable`). Whether one can then depends on the
    /// others' priorities, which DPOR's reduction and sleep sets must not assume.
    public var strictPriority = false
    /// `mailbox "any"`: an actor left by a job goes to any task waiting in its
    /// mailbox, as SE-0306 promises no order; by default, to the first (the
    /// runtime's order among tasks of one priority). See `Machine+Concurrency`.
    public var mailboxAnyOrder = false
    /// `upcoming "NonisolatedNonsendingByDefault"` (SE-0461): a nonisolated async
    /// function runs on its caller's actor instead of leaving it (SE-0338), unless it
    /// is `@concurrent` (`Compiler.isolation(of:in:nonsendingByDefault:)`).
    public var nonsendingByDefault = false
    /// `pool N`: the cooperative pool's threads. A task running a job off the main
    /// actor holds one (blocked in a wait too); nil: as many as it takes (the
    /// default: the real pool has one a core, and RaceLab's has no limit).
    public var poolWidth: Int?
    /// Whether some code uses Swift concurrency (a task, an actor, an async
    /// function): then main's code is a job on the main actor. Set once compiled.
    public internal(set) var usesConcurrency = false
    /// Whether some code may run on the main actor besides main's own (a `@MainActor`
    /// function or task, a task that inherits main's executor) or main's code
    /// suspends: only then is the main actor a thing main holds and leaves. Set once
    /// compiled.
    public internal(set) var usesMainActor = false
    /// Whether some task is made with a priority (`Task(priority: .high)`): only then
    /// can tasks' priorities differ, order an actor's mailbox or escalate, and only
    /// then does enqueuing read the task's priority (one more access for DPOR).
    public internal(set) var usesTaskPriorities = false
    /// What the Swift 6 compiler would reject in it, one sentence each (`Swift6Check`).
    public internal(set) var swift6Rejections: [String] = []
    /// Manual reference counting (`memory "manual"`), as Objective-C before ARC: an
    /// object is made with a count of 1, and only `retain()`, `release()` and
    /// `autorelease()` (drained by `autoreleasepool { }`) change it; a release to
    /// zero deallocates at once, and a later use is a crash that says who freed it.
    public var manualMemory = false
    /// Whether a condition wait may return with no signal, any number of times, as
    /// POSIX, Foundation and Java allow (a choice the explorer takes while another
    /// thread can run). A scenario turns it off with `wakeups "signalled only"` (C#'s
    /// `Monitor`, or a lesson kept on one point); a student's editable region cannot.
    /// A loop that rechecks around `wait()` may then go round for ever: such programs
    /// get the stateful search (`SearchPlan`).
    public var spuriousWakeups = true
    /// Whether some code makes an `NSCondition`: its waits may wake spuriously, but
    /// only while another thread can run (see `Engine.runnableMask`), so whether a
    /// thread can run depends on the others, which DPOR's reduction and sleep sets
    /// must not assume.
    public var usesConditions: Bool {
        codes.contains { $0.instructions.contains(.builtin(.condition, argc: 0, className: nil)) }
    }
    /// The tables instructions point into: constant values, names (of fields, methods
    /// and spawned threads), and lists of slots (closure captures, initialised fields).
    public private(set) var constants: [Value] = []
    public private(set) var names: [String] = []
    public private(set) var slotLists: [[Int]] = []
    /// Where each entry of the three tables stands, so interning is O(1) (lookups
    /// only: nothing iterates these, so their order never reaches output).
    private var constantIndex: [Value: Int] = [:]
    private var nameIndex: [String: Int] = [:]
    private var slotListIndex: [[Int]: Int] = [:]

    /// The index of `value` in `constants`, added if new.
    mutating func constant(_ value: Value) -> Int { Program.intern(value, in: &constants, index: &constantIndex) }

    /// The index of `name` in `names`, added if new.
    mutating func name(_ name: String) -> Int { Program.intern(name, in: &names, index: &nameIndex) }

    /// The index of `slots` in `slotLists`, added if new.
    mutating func slotList(_ slots: [Int]) -> Int { Program.intern(slots, in: &slotLists, index: &slotListIndex) }

    /// - Complexity: O(1) on average (hashing `item`).
    private static func intern<T: Hashable>(_ item: T, in table: inout [T], index: inout [T: Int]) -> Int {
        if let known = index[item] { return known }
        table.append(item)
        index[item] = table.count - 1
        return table.count - 1
    }

    public init(file: SourceFile) {
        self.file = file
    }

    /// The name of field `index` of an object of class `classIndex` (a negative index
    /// is a built-in property of an operation or queue).
    public func fieldName(_ index: Int, classIndex: Int?) -> String {
        if index < 0 { return Access.builtinProperties[-1 - index] }
        return classIndex.map { classes[$0].fieldNames[index] } ?? "field \(index)"
    }

    public func classIndex(named name: String) -> Int? {
        classes.firstIndex { $0.name == name }
    }
}

extension Program {
    /// The `var` fields of each actor (or `@MainActor` class instance) that a `let`
    /// shared variable holds, named as read (`island.food`): the isolated state an
    /// outcome shows beside the shared variables (for the explorer's outcomes and the
    /// grader's behaviours alike).
    public func actorState(in world: World) -> [(name: String, value: Value)] {
        guard classes.contains(where: { $0.isActor || $0.isMainActor }) else { return [] }
        var terms: [(name: String, value: Value)] = []
        for g in world.globals.indices where globals[g].isLet {
            guard case .object(let id) = world.globals[g], let index = world.heap[id].classIndex,
                world.heap[id].isActor || classes[index].isMainActor
            else { continue }
            let info = classes[index]
            for field in info.fieldNames.indices where !info.fieldIsLet[field] {
                terms.append((name: "\(globals[g].name).\(info.fieldNames[field])", value: world.heap[id].fields[field]))
            }
        }
        return terms
    }

    /// What an access touched, by name, in `world`: "count", "account.balance",
    /// "lock1", "the main queue".
    public func name(of target: Access.Target, in world: World) -> String {
        switch target {
        case .global(let g): return globals[g].name
        case .field(let id, _) where world.heap[id].kind == .atomic: return world.heap[id].name
        case .field(let id, let field):
            return "\(world.heap[id].name).\(fieldName(field, classIndex: world.heap[id].classIndex))"
        case .object(let id), .lock(let id), .operation(let id), .queue(let id), .count(let id): return world.heap[id].name
        case .mainQueue: return "the main queue"
        case .allocator: return "the heap"
        case .output: return "the output"
        case .observer: return "the shared state"
        case .section(let index): return sectionName(index)
        case .pool: return "the cooperative pool"
        case .clock: return "the clock"
        }
    }
}
