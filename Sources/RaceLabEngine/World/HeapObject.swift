/// An object on the simulated heap: a class instance, a lock, an operation or an
/// operation queue. Reference counted; any object can be a `synchronized` token. Its
/// retain count and its mutex are in its `ObjectHeader`, apart from it.
public struct HeapObject: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case instance
        /// A mutex: `Lock()`/`NSLock()`, `NSRecursiveLock()` (its owner may take it
        /// again), or `OSAllocatedUnfairLock()`, whose owner runs at the priority of the
        /// highest thread waiting for it (priority inheritance).
        case lock(recursive: Bool, inheritsPriority: Bool)
        /// `DispatchSemaphore(value:)`: a count; `wait()` takes one, or blocks at 0, and
        /// any thread's `signal()` gives one back.
        case semaphore(count: Int)
        /// `NSCondition()`: a mutex (in the header, as a lock's) and the threads waiting
        /// for a signal, longest waiting first.
        case condition(waiters: [ThreadID])
        /// `DispatchGroup()`: work entered and not yet left, and the blocks to send
        /// once none is left.
        case group(GroupState)
        /// `Atomic(n)`: an integer (its field 0) read and changed only in whole steps,
        /// each sequentially consistent.
        case atomic
        case operation(OperationState)
        case queue(QueueState)
        /// An actor (or the main actor): a serial executor. The task running a job on
        /// it is its header's `owner`; the tasks waiting for it are in its mailbox, in
        /// the order they were enqueued.
        case actor(mailbox: [ThreadID])
        /// A `Task`'s handle: the task, whether it is cancelled, and its value once
        /// it has finished.
        case task(TaskState)
        /// A `CheckedContinuation`: the task it resumes, and whether it was resumed.
        case continuation(ContinuationState)
        /// An `AsyncStream` and its continuation, one object.
        case stream(StreamState)
        /// A task group (`withTaskGroup`): its children, and those that finished and
        /// whose results `next()` has not taken yet, in the order they finished.
        case taskGroup(TaskGroupState)

        public var isTask: Bool {
            if case .task = self { return true }
            return false
        }
    }

    /// A task handle's state, if it is one.
    public var taskState: TaskState? {
        if case .task(let task) = kind { return task }
        return nil
    }

    public var kind: Kind
    /// For instances, the index of their class in the program.
    public var classIndex: Int?
    /// The name the trace uses: `MySingle#1`, or the global it was first stored in.
    public var name: String
    public var fields: [Value] = []
    public var fieldVersions: [Int] = []

    /// Whether it is an actor (or the main actor).
    public var isActor: Bool {
        if case .actor = kind { return true }
        return false
    }

    public init(kind: Kind, classIndex: Int?, name: String) {
        self.kind = kind
        self.classIndex = classIndex
        self.name = name
    }
}

/// What every object carries besides its contents, as a runtime keeps it in the
/// object's header: its retain count, whether it is alive, and its mutex (a lock's
/// own, or a `synchronized` token's: who holds it and how many times). Plain data,
/// kept apart from the object in `World.headers`: a retain, a release, taking or
/// freeing a lock then copies no field, name or reference.
public struct ObjectHeader: Hashable, Sendable {
    public var retainCount = 0
    public var isAlive = true
    /// The thread holding the object's mutex, if any.
    public var owner: ThreadID?
    /// How many times the owner holds it.
    public var depth = 0
    /// The thread whose release deallocated it (its deinit ran there), once it is dead.
    public var deallocatedOn: ThreadID?
    /// Under manual memory, the code (`Program.codes`) whose release deallocated it:
    /// what a later use of it says.
    public var deallocatedIn: Int?

    public init() {}

    /// Whether `thread` can take the mutex now: nobody holds it, or it does and the
    /// mutex is re-entrant. The one rule for taking it, waiting for it, and telling
    /// a step that would only block (`Engine.onlyBlocksOnLock`); `try()` asks it too.
    public func canBeTaken(by thread: ThreadID, reentrant: Bool) -> Bool {
        owner == nil || (reentrant && owner == thread)
    }
}

/// What a `Task` handle knows of its task.
public struct TaskState: Hashable, Sendable {
    public var thread: ThreadID
    public var isCancelled = false
    public var isFinished = false
    /// Its closure's result, once finished.
    public var value: Value = .none
    /// The cancellation handlers its code has registered (`withTaskCancellationHandler`),
    /// innermost last: `cancel()` runs them.
    public var handlers: [ClosureValue] = []
    /// Its structured children (`async let`, a group's `addTask`), which its
    /// cancellation reaches (SE-0304); an unstructured task's reach nobody.
    public var children: [ObjectID] = []
    /// The group it is a child of, whose `next()` gets its result.
    public var group: ObjectID?
    /// Whether some task has got its value (`await t.value`): an `async let` awaited
    /// already ends its scope with nothing to wait for.
    public var isAwaited = false
    /// Whether it ended by throwing: `value` is the error.
    public var didThrow = false
    /// Its priority: given when it was made, else its maker's; raised when a task of
    /// a higher one awaits it (escalation).
    public var priority = JobPriority.medium

    public init(thread: ThreadID) {
        self.thread = thread
    }
}

/// What a task group knows (SE-0304): its children still to be awaited, in the order
/// they were added, and those of them that have finished, in the order they did
/// (`next()` takes the first). Each handle is retained until `next()` takes it or
/// the group ends.
public struct TaskGroupState: Hashable, Sendable {
    public var children: [ObjectID] = []
    public var finished: [ObjectID] = []
    public var isCancelled = false
    /// The thread whose `withTaskGroup` made it: the only one that may use it, and
    /// only until its body ends (Swift does not let a group escape).
    public var owner: ThreadID
    public var isOpen = true

    public init(owner: ThreadID) {
        self.owner = owner
    }
}

/// What a continuation knows (SE-0300).
public struct ContinuationState: Hashable, Sendable {
    public var task: ThreadID
    /// The function whose `withCheckedContinuation` made it (`Program.names`): the
    /// runtime's misuse messages name it.
    public var function: Int
    public var isResumed = false
    public var value: Value = .none
    /// Resumed with `resume(throwing:)`: `value` is the error.
    public var didThrow = false

    public init(task: ThreadID, function: Int) {
        self.task = task
        self.function = function
    }
}

/// An `AsyncStream` (SE-0314): its buffer, whether it has finished, and the
/// consumers suspended in `for await`.
public struct StreamState: Hashable, Sendable {
    public enum Policy: Hashable, Sendable {
        case unbounded
        /// Keeps the first n elements; a new one is dropped.
        case bufferingOldest(Int)
        /// Keeps the last n elements; the oldest is dropped.
        case bufferingNewest(Int)
    }

    /// An element given straight to a suspended consumer (or, `isEnd`, the end).
    public struct Handoff: Hashable, Sendable {
        public var consumer: ThreadID
        public var value: Value
        public var isEnd: Bool
    }

    public var policy: Policy
    public var buffer: [Value] = []
    public var isFinished = false
    /// Consumers suspended for the next element, first come first served.
    public var waiting: [ThreadID] = []
    public var handed: [Handoff] = []
    /// `continuation.onTermination = { … }`: run once, by whoever ends the stream.
    public var onTermination: ClosureValue?

    public init(policy: Policy) {
        self.policy = policy
    }
}

/// An NSOperation-style unit of work.
public struct OperationState: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        case created, pending, executing, finished
    }

    public var closure: ClosureValue?
    public var completion: ClosureValue?
    public var dependencies: [ObjectID] = []
    public var isCancelled = false
    public var phase = Phase.created
    public var queue: ObjectID?
    public var thread: ThreadID?
    /// A block sent with `async(flags: .barrier)`: it starts once every block sent
    /// before it has finished, and no block sent after it starts before it finishes.
    public var isBarrier = false
    /// The dispatch group a block sent with `async(group:)` leaves when it finishes.
    public var group: ObjectID?
    /// An asynchronous operation: when its code returns it is still executing, until
    /// it calls `finish()` (or sets `isFinished`).
    public var isAsynchronous = false
    /// `queuePriority`, -8 (very low) to 8 (very high): a queue starts the ready
    /// operation with the highest first.
    public var priority = 0
    /// A `BlockOperation`'s further blocks (`addExecutionBlock`), each run on a thread
    /// of its own beside the first.
    public var moreBlocks: [ClosureValue] = []
    /// The threads still running its blocks, once it has started.
    public var running = 0
    /// Blocks observing `isFinished` (`addObserver(forKeyPath: "isFinished")`): they run
    /// on the thread that finishes it.
    public var observers: [ClosureValue] = []
    /// `qualityOfService`, 0 to 4, for the thread that runs it.
    public var qualityOfService = 2

    public init(closure: ClosureValue?) {
        self.closure = closure
    }
}

/// An NSOperationQueue: runs up to `maxConcurrent` operations (-1: no limit), each on
/// a worker thread of its own, in the order they were added, once they are ready.
public struct QueueState: Hashable, Sendable {
    public var maxConcurrent: Int
    public var isSuspended = false
    /// Operations added and not yet finished, in the order they were added.
    public var operations: [ObjectID] = []
    /// Blocks sent with `async` or `sync` so far: the next is named `label#(blocks + 1)`.
    public var blocks = 0
    /// `DispatchQueue.global()`: a barrier on it is an ordinary block, as in GCD.
    public var isGlobal = false

    public init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }
}

/// A dispatch group: how many units of work have entered it and not yet left, and
/// the blocks `notify(queue:)` sends once that count is back to 0.
public struct GroupState: Hashable, Sendable {
    public var entered = 0
    public var notifications: [GroupNotification] = []

    public init() {}
}

/// A block to send when a group empties: onto a dispatch queue, or (no queue) onto
/// the main queue.
public struct GroupNotification: Hashable, Sendable {
    public var closure: ClosureValue
    public var queue: ObjectID?
}
