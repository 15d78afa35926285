/// One simulated thread: its call stack and what, if anything, it waits for. Its
/// name is in `World.threadNames`, and what few threads use (an operation, a spin
/// watch, a priority other than the default, autorelease pools, a task's handle and
/// executor, a thrown error, a sleep) sits behind one reference that is nil until
/// then: every step copies the thread table, so a thread is a few words and one or
/// two retains, whatever the program uses.
public struct ThreadState: Hashable, Sendable {
    public var frames: [Frame]
    public var waiting: Wait?
    public var isFinished = false
    public var isMain: Bool
    /// Whether it has completed a round of its outermost `while true` loop: only then
    /// is a wait at the top of the loop resting for the next piece of work
    /// (`Engine.isIdle`), not stuck before it did any.
    public var completedRound = false
    /// The rarely set parts, nil while each has its default (see `ThreadExtras`).
    private var extras: ThreadExtras?

    public init(frames: [Frame], isMain: Bool = false, operation: ObjectID? = nil) {
        self.frames = frames
        self.isMain = isMain
        self.operation = operation
    }

    /// For an operation's worker thread: the operation it runs.
    public var operation: ObjectID? {
        get { extras?.parts.operation }
        set { write(isDefault: newValue == nil) { $0.operation = newValue } }
    }
    /// While the thread's steps only read shared variables: where it started, to see
    /// it come back there (a spin loop; `Engine.watchSpin`).
    public var spin: SpinWatch? {
        get { extras?.parts.spin }
        set { write(isDefault: newValue == nil) { $0.spin = newValue } }
    }
    /// Its quality of service, 0 (`.background`) to 4 (`.userInteractive`): what a
    /// strict-priority scheduler goes by (`Program.strictPriority`).
    public var priority: Int {
        get { extras?.parts.priority ?? ThreadExtras.Parts.defaultPriority }
        set { write(isDefault: newValue == ThreadExtras.Parts.defaultPriority) { $0.priority = newValue } }
    }
    /// Its `autoreleasepool { }` blocks, innermost last: the objects autoreleased into
    /// each (once per call), which its drain releases (`memory "manual"`).
    public var pools: [[ObjectID]] {
        get { extras?.parts.pools ?? [] }
        set { write(isDefault: newValue.isEmpty) { $0.pools = newValue } }
    }
    /// For a task: its handle (`Task`'s object). Main and threads have none.
    public var task: ObjectID? {
        get { extras?.parts.task }
        set { write(isDefault: newValue == nil) { $0.task = newValue } }
    }
    /// The actor its code runs on now (the main actor for main when the program
    /// uses it), or nil for the global concurrent executor (and plain threads). It
    /// runs only while it holds it (the actor's header `owner`).
    public var executor: ObjectID? {
        get { extras?.parts.executor }
        set { write(isDefault: newValue == nil) { $0.executor = newValue } }
    }
    /// Under `pool N`: whether it holds a thread of the cooperative pool.
    public var onPool: Bool {
        get { extras?.parts.onPool ?? false }
        set { write(isDefault: !newValue) { $0.onPool = newValue } }
    }
    /// An error the code it called has just thrown, for the caller's `catchThrown`
    /// (which takes it in the same step).
    public var thrown: Value? {
        get { extras?.parts.thrown }
        set { write(isDefault: newValue == nil) { $0.thrown = newValue } }
    }
    /// `Task.sleep`: the virtual clock's reading it sleeps until.
    public var sleepsUntil: Int64? {
        get { extras?.parts.sleepsUntil }
        set { write(isDefault: newValue == nil) { $0.sleepsUntil = newValue } }
    }

    /// Writes a rare part: in the box, made or copied so that it is this thread's
    /// alone, unless there is none and the value is the part's default.
    private mutating func write(isDefault: Bool, _ change: (inout ThreadExtras.Parts) -> Void) {
        if extras == nil {
            if isDefault { return }
            extras = ThreadExtras(ThreadExtras.Parts())
        } else if !isKnownUniquelyReferenced(&extras) {
            extras = ThreadExtras(extras!.parts)
        }
        change(&extras!.parts)
    }

    /// Equal when every part is, a box of defaults being no box.
    public static func == (a: ThreadState, b: ThreadState) -> Bool {
        a.frames == b.frames && a.waiting == b.waiting && a.isFinished == b.isFinished && a.isMain == b.isMain
            && a.completedRound == b.completedRound && (a.extras === b.extras || a.extrasParts == b.extrasParts)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(frames)
        hasher.combine(waiting)
        hasher.combine(isFinished)
        hasher.combine(isMain)
        hasher.combine(completedRound)
        hasher.combine(extrasParts)
    }

    private var extrasParts: ThreadExtras.Parts { extras?.parts ?? ThreadExtras.Parts() }
}

/// A thread's rarely set parts, in a box that copies of the thread share until one
/// writes. Only `ThreadState` holds one, and it copies the box before writing to a
/// shared one.
final class ThreadExtras: @unchecked Sendable {
    struct Parts: Hashable {
        static let defaultPriority = 2
        var operation: ObjectID?
        var spin: SpinWatch?
        var priority = defaultPriority
        var pools: [[ObjectID]] = []
        var task: ObjectID?
        var executor: ObjectID?
        var onPool = false
        var thrown: Value?
        var sleepsUntil: Int64?
    }

    var parts: Parts

    init(_ parts: Parts) {
        self.parts = parts
    }
}

/// What a blocked thread waits for. It may run again once the condition holds.
public enum Wait: Hashable, Sendable {
    case lock(ObjectID, reentrant: Bool)
    case operation(ObjectID)
    case queue(ObjectID)
    case mainBlock(Int)
    /// `wait()` on a semaphore whose count is 0.
    case semaphore(ObjectID)
    /// `wait()` on a condition, for a signal (or a spurious wakeup, any number of
    /// times, unless the program turns them off: `Program.spuriousWakeups`).
    case condition(ObjectID)
    /// `wait()` on a dispatch group that work has entered and not yet left.
    case group(ObjectID)
    /// Woken from a condition wait (signalled, or spuriously): it can run, and its next
    /// step tries to take the condition's lock again (as `lock()` does: it takes it,
    /// or blocks on it). No other thread's step can stop it from running.
    case conditionWoken(ObjectID)
    /// A spin loop: the thread reads these, and nothing else, forever, until another
    /// thread writes one of them (its version moves on).
    case spin([SpinRead])
    /// A task enqueued on an actor (in its mailbox) that another job holds.
    case actor(ObjectID)
    /// A task suspended until a task (by its handle) finishes: `await t.value`.
    case task(ObjectID)
    /// A task suspended until its continuation is resumed.
    case continuation(ObjectID)
    /// A consumer suspended in `for await` until a stream hands it an element (or
    /// its end).
    case stream(ObjectID)
    /// A task suspended in a task group's `next()` until a child finishes, or (`all`)
    /// at the group's end until every child has.
    case taskGroup(ObjectID, all: Bool)
    /// A task ready to run a job, waiting for a thread of the cooperative pool
    /// (`pool N`): every one is held.
    case pool
    /// `Task.sleep`: until the virtual clock reaches `ThreadState.sleepsUntil`, which
    /// is when no other sleeper's deadline is earlier; or until its task is cancelled.
    case sleep

    /// The object it waits on, if it is one.
    public var object: ObjectID? {
        switch self {
        case .lock(let id, _), .operation(let id), .queue(let id), .semaphore(let id), .condition(let id), .group(let id), .conditionWoken(let id),
            .actor(let id), .task(let id), .continuation(let id), .stream(let id), .taskGroup(let id, _):
            return id
        case .mainBlock, .spin, .pool, .sleep:
            return nil
        }
    }
}

/// A shared variable or field a spinning thread read, and its version then.
public struct SpinRead: Hashable, Sendable {
    public var target: Access.Target
    public var version: Int
}

/// A thread whose steps have only read shared variables since `anchor` (its frames
/// then): back at `anchor`, with nothing it read written since, it loops forever.
public struct SpinWatch: Hashable, Sendable {
    var anchor: [Frame]
    var reads: [SpinRead]
    var steps: Int

    /// Whether something it read has been written since (versions only grow, so a
    /// stale watch never becomes current again).
    func isStale(in world: World) -> Bool {
        reads.contains { world.version(of: $0.target) != $0.version }
    }
}

/// A call frame: code, program counter, locals and operand stack.
public struct Frame: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case body
        case call
        case deinitializer(ObjectID)
        case mainBlock(Int)
        case operation(ObjectID)
        case completion(ObjectID)
        /// `op.start()`: the operation's code run on the caller's thread.
        case started(ObjectID)
        /// A key-value observer of an operation's `isFinished`, run on the thread that
        /// finished it, which goes on afterwards.
        case observer(ObjectID)
        /// A task's closure (its handle): its result is the task's value.
        case task(ObjectID)
        /// A task's cancellation handler, run by the thread that cancels it (the task's
        /// handle), which goes on afterwards.
        case cancellationHandler(ObjectID)
        /// A stream's `onTermination` handler, run by the thread that ends the stream,
        /// which goes on afterwards.
        case terminationHandler(ObjectID)
    }

    public var code: Int
    public var pc = 0
    /// The locals (`localCount` slots), then the operand stack: one array, so a
    /// frame costs one allocation and copying it one retain.
    public var slots: [Value]
    public var localCount: Int
    public var kind: Kind

    public init(code: Int, localCount: Int, kind: Kind) {
        self.code = code
        self.slots = Array(repeating: .none, count: localCount)
        self.localCount = localCount
        self.kind = kind
    }

    /// What a thread's top frame holds in the world while a machine runs it (see
    /// `Machine.current`): no code, no slots.
    static var placeholder: Frame { Frame(code: -1, localCount: 0, kind: .body) }

    /// Empties the operand stack.
    public mutating func dropStack() {
        slots.removeSubrange(localCount...)
    }
}
