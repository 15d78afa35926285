import RaceLabLanguage

/// Where a load or store goes. A `.field` place takes its object from the operand
/// stack and names the field by its index in `Program.names`.
public enum Place: Hashable, Sendable {
    case global(Int)
    case field(name: Int)
    case local(Int)

    /// Locals belong to one thread: touching them is never a shared access.
    public var isShared: Bool {
        if case .local = self { return false }
        return true
    }
}

public enum ArrayProperty: String, Hashable, Sendable {
    case count, isEmpty, first, last
    /// A dictionary's keys and values, as arrays in key order.
    case keys, values
}

public enum ArrayMutation: String, Hashable, Sendable {
    case append, removeLast, removeFirst, removeAll, removeAt = "remove(at:)", insert = "insert(_:at:)"
    /// A dictionary's `removeValue(forKey:)`.
    case removeValue = "removeValue(forKey:)"
    /// A set's `insert(_:)` and `remove(_:)`.
    case insertMember = "insert(_:)", removeMember = "remove(_:)"
}

/// Built-in free functions and constructors.
public enum Builtin: String, Hashable, Sendable {
    case work, print, assert, created, alive, sum, isMainThread, lock = "Lock", recursiveLock = "NSRecursiveLock"
    case semaphore = "DispatchSemaphore", condition = "NSCondition", queue = "OperationQueue", dispatchQueue = "DispatchQueue"
    case operation = "Operation", group = "DispatchGroup", atomic = "Atomic"
    case unfairLock = "OSAllocatedUnfairLock", setQualityOfService
    /// `Set([…])` or `Set()`: an array's members, sorted, each once.
    case makeSet = "Set"
    /// `autoreleasepool { … }`: a pool pushed on the running thread, and drained.
    case poolPush = "autoreleasepool", poolDrain
    /// `AsyncStream.makeStream(of:bufferingPolicy:)`: pops the policy (0 unbounded, 1
    /// oldest, 2 newest) and its limit.
    case stream = "AsyncStream"
    case cancellationError = "CancellationError"
}

/// One instruction of the engine's stack machine. Instructions that touch shared
/// state (or fail) are step boundaries; the rest run between steps, folded into the
/// thread's next step, because no other thread can observe them.
///
/// Every payload is plain numbers: strings, values and lists live in the program's
/// tables (`Program.names`, `constants`, `slotLists`), so fetching an instruction
/// copies a few words and retains nothing.
public enum Instruction: Hashable, Sendable {
    /// Pushes `Program.constants[index]`.
    case constant(Int)
    case pop
    case duplicate
    case loadLocal(Int)
    case storeLocal(Int)
    /// Stores into a compiler temporary: borrowed, so no retain or release.
    case storeTemp(Int)
    case makeArray(Int)
    /// Pops `count` keys and values (alternating, in source order) into a dictionary.
    case makeDictionary(Int)
    /// `s.contains(x)`: pops x, reads the array or set at the place.
    case contains(Place)
    case load(Place)
    case store(Place)
    case readElement(Place)
    case writeElement(Place)
    case arrayProperty(Place, ArrayProperty)
    case arrayMutation(Place, ArrayMutation)
    /// `for x in place` over shared storage: enumerates in place, as Foundation's
    /// fast enumeration does, and traps if the array is mutated meanwhile.
    /// Slot `state` holds the index, `state + 1` the version seen at the start.
    /// `pair`: `for (key, value) in` a dictionary; the value goes to slot `element + 1`.
    case iterate(Place, state: Int, element: Int, exit: Int, pair: Bool)
    case unary(Operator)
    case binary(Operator)
    case unwrap
    case jump(Int)
    case jumpIfFalse(Int)
    case call(function: Int, argc: Int)
    case ret
    /// Captures the locals listed in `Program.slotLists[captures]`.
    case makeClosure(code: Int, captures: Int)
    /// Pops values for the field indexes listed in `Program.slotLists[fields]` (in
    /// that order) and allocates.
    case allocate(classIndex: Int, fields: Int)
    case builtin(Builtin, argc: Int, className: Int?)
    /// Calls the method named `Program.names[name]`; an atomic's method with the
    /// memory orderings `AtomicOrderings(code: orderings)` (0: sequentially consistent).
    case method(name: Int, argc: Int, orderings: Int)
    case monitorEnter
    case monitorExit
    /// Starts a thread named `Program.names[name]`.
    case spawn(name: Int)
    case dispatchMain(sync: Bool)
    case check(Int)
    /// Entering `required` block `Program.requirements[index]`: pops the `holding`
    /// locks it names and records the run, and whether it was on its thread holding them.
    case requirement(Int, holding: Int)
    /// In the checks: pushes whether requirement `index` was met.
    case requirementMet(Int)
    /// `due`: requirement `index` falls due once more.
    case due(Int)
    /// Entering and leaving critical section `Program.criticalSections[index]`.
    case criticalEnter(Int)
    case criticalExit(Int)
    /// `progress`: marks the step that runs it (`EventLog.progressed`).
    case progress
    /// The end of a round of a thread's outermost `while true` loop: progress for a
    /// program with no `progress` statement (`Program.marksProgress`), as SPIN counts
    /// a progress label; nothing otherwise.
    case round
    /// An async function's (or an actor method's) first instruction: the task moves
    /// to the executor its code runs on, if it is not there yet (a hop: it leaves
    /// its actor, and enqueues on the other), and keeps the one it came from in slot
    /// `save`, for `restoreExecutor` to go back to.
    case isolate(Isolation, save: Int)
    /// Before such a function returns: back to the executor kept in the slot.
    case restoreExecutor(Int)
    case task(TaskOperation)
    /// After a call that may throw (inside `try`): if it threw, the error replaces its
    /// result and the code goes on (to send it on: `Compiler.emitPropagate`); else a
    /// jump to the target.
    case catchThrown(Int)
    /// Pops an error and leaves the code with it: the caller's `catchThrown` gets it; a
    /// task ends with it; main's code crashes, as Swift's top-level code does.
    case rethrow
    /// Keeps the operand stack's height in the slot (a `do` or a `try?` begins)...
    case markHeight(Int)
    /// ...and goes back to it (its catch begins: what the throw left is dropped).
    case truncate(Int)
    /// Pops a value; pushes whether it is an error of the type named
    /// `Program.names[name]` (`catch is CancellationError`).
    case isError(Int)
}

/// Where code runs: on an actor (a serial executor), or on the global concurrent
/// executor (the cooperative pool).
public enum Isolation: Hashable, Sendable {
    /// The global concurrent executor: no actor.
    case generic
    case mainActor
    /// The actor in a local slot (an actor's method: `self`, slot 0).
    case slot(Int)
    /// For `Task { }`: the executor of the code that creates it.
    case inherited
}

/// What a task can do with a `Task` (SE-0304).
public enum TaskOperation: Hashable, Sendable {
    /// `Task { }`, `Task.detached { }`, `Task(name: "tap") { }`: pops the closure,
    /// pushes the new task's handle. An explicit isolation (`@MainActor in`)
    /// enqueues the task at once, in creation order; an inherited one lets it
    /// enqueue at its first step (SE-0431: no order among them is promised).
    /// `priority`: `Task(priority: .high)`'s; nil: the maker's (a detached task's:
    /// medium).
    case start(Isolation, name: Int?, priority: JobPriority?)
    /// `await t.value`: pops the handle; suspends until the task finishes.
    case value
    case cancel
    /// `Task.isCancelled`: whether the running task is cancelled.
    case isCancelled
    /// `await Task.yield()`: lets the actor's other jobs (and everyone) run.
    case yield
    /// `withCheckedContinuation`: pushes a new continuation of the running task, made
    /// in the function named `Program.names[function]` (the runtime's messages name it).
    case makeContinuation(function: Int)
    /// After its body: pops the continuation; the task goes on with its value once it
    /// is resumed (at once, if it was), else suspends until then.
    case awaitContinuation
    /// `withTaskCancellationHandler`: pops the handler closure and registers it on the
    /// running task (or runs it at once, if the task is cancelled already).
    case pushCancellationHandler
    case popCancellationHandler
    /// `try Task.checkCancellation()`: throws `CancellationError` if the running task
    /// is cancelled.
    case checkCancellation
    /// `try await Task.sleep(for: .seconds(1))`: pops the duration (milliseconds);
    /// suspends until the virtual clock reaches its end (`Wait.sleep`), or the task
    /// is cancelled (then throws `CancellationError`).
    case sleep
    /// `for await x in stream`: pops the stream; pushes its next element and true, or
    /// nil and false once it has finished; suspends while it has none. A task group
    /// gives its children's results so, in the order they finish.
    case streamNext
    /// `withTaskGroup`: pushes a new task group.
    case makeGroup
    /// `group.addTask { }`: pops the closure and the group; starts a child of the
    /// group (and of the running task) on the global executor.
    case addChild(name: Int?, priority: JobPriority?)
    /// `async let x = …`: pops the closure; starts a child of the running task on
    /// the global executor, and pushes its handle.
    case startChild(name: Int)
    /// `await group.next()`: pops the group; pushes the result of its child that
    /// finished first, or nil when no child is left; suspends while none has finished.
    case groupNext
    /// `group.cancelAll()`: pops the group; cancels it and every child in it.
    case cancelAll
    /// The end of `withTaskGroup`'s body (`close`: the group is used no more), or
    /// `await group.waitForAll()`: pops the group; suspends until every child has
    /// finished; drops the results nobody took.
    case drainGroup(close: Bool)
    /// Leaving the scope of an `async let`: pops its handle; a child still running is
    /// cancelled and awaited (SE-0317). Nothing, when it has finished.
    case endChild
}

/// An operator of the language, spelled as in the script.
public enum Operator: String, Hashable, Sendable {
    case not = "!", plus = "+", minus = "-", times = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", identical = "===", notIdentical = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// Compiled code: a function, thread body, closure, deinit, or the checks.
public struct Code: Hashable, Sendable {
    public var name: String
    public var instructions: [Instruction] = []
    /// The source range of each instruction, for the trace.
    public var ranges: [SourceRangeBox] = []
    public var parameterCount = 0
    public var localCount = 0
    public var localNames: [String] = []
    /// Temporaries hold borrowed values: a frame's exit releases only the other slots.
    public var localIsTemp: [Bool] = []
    /// An `init`: it may set its object's (slot 0's) `let` fields.
    public var isInitializer = false
    /// For a closure: the slot each captured value lands in, in capture order.
    public var captureSlots: [Int] = []
    /// For a closure: the slots of its `[weak x]` captures, which hold weak references.
    public var weakSlots: [Int] = []
    /// For an instruction that loads a reference, the later instruction of the same
    /// expression that uses its object (`x?.f`, `x!.f`, `x!.items[0]`, `x!.f = v`).
    /// Swift holds an object read through a weak reference until the expression is
    /// done with it, so the machine runs the read and that use in one step
    /// (`Machine.useWeakReferenceAtOnce`). Read only, never iterated.
    public var heldUntil: [Int: Int] = [:]
    /// Per instruction, whether it can always be folded into the thread's next step
    /// (`Machine.isLocal` decides the rest), so the machine need not copy it to ask.
    public var alwaysLocal: [Bool] = []
    /// Where a thread blocked may rest for ever without the program being stuck: a
    /// statement after `idle`. See `Engine.isIdle`.
    public var idlePoints: [Range<Int>] = []
    /// Where a thread that has completed a round (`ThreadState.completedRound`) may
    /// rest: an outermost `while true` loop's body up to its first wait (a server
    /// waiting for its next piece of work).
    public var roundIdlePoints: [Range<Int>] = []
    /// The in-place enumerations of shared storage in this code: where each keeps the
    /// version of what it enumerates (see `Enumeration`).
    public var enumerations: [Enumeration] = []
    /// Where a thread stands at the start of a loop's round: from each target of a
    /// backward jump (a loop's top), the first instruction that is not always local,
    /// jumps followed. A read-only round is watched from there (`Engine.watchSpin`).
    /// Sorted, without repeats.
    public var roundStarts: [Int] = []

    mutating func classify() {
        alwaysLocal = instructions.map { instruction in
            switch instruction {
            case .loadLocal(let slot), .load(.local(let slot)): return !weakSlots.contains(slot)
            case .constant, .duplicate, .storeTemp, .makeArray, .jump, .makeClosure, .catchThrown, .markHeight, .truncate, .isError: return true
            default: return false
            }
        }
        roundStarts = []
        for (pc, instruction) in instructions.enumerated() {
            switch instruction {
            case .jump(let top) where top <= pc, .jumpIfFalse(let top) where top <= pc:
                let start = standingPoint(from: top)
                if !roundStarts.contains(start) { roundStarts.append(start) }
            default: continue
            }
        }
        roundStarts.sort()
    }

    /// The first instruction from `pc` that is not always local, jumps followed (at
    /// most as many as there are instructions: a loop of local jumps has none).
    private func standingPoint(from pc: Int) -> Int {
        var pc = pc
        for _ in instructions.indices {
            guard instructions.indices.contains(pc), alwaysLocal[pc] else { return pc }
            if case .jump(let target) = instructions[pc] { pc = target } else { pc += 1 }
        }
        return pc
    }

    public init(name: String) {
        self.name = name
    }
}

/// A `for` loop over shared storage keeps, in its frame, the version the storage had
/// when the loop began (`versionSlot`), to see it mutated. Only whether that version
/// is still the storage's current one matters, which the stateful search's canonical
/// form keeps instead of the number (`StateEncoder`).
public struct Enumeration: Hashable, Sendable {
    public var versionSlot: Int
    /// A global or a field (of the object in `objectSlot`).
    public var place: Place
    public var objectSlot: Int?
}

/// A source range, or none for instructions the compiler invents.
public typealias SourceRangeBox = SourceRange?
