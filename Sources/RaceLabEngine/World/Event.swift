import RaceLabLanguage

/// What one step did: a plain sentence for people, and the accesses it made for
/// tools (partial-order reduction and race detection read these).
public struct Event: Hashable, Sendable {
    public var step: Int
    public var thread: ThreadID
    public var range: SourceRange?
    /// A sentence without the thread's name: "reads singleton: nil".
    public var text: String
    public var accesses: [Access]

    public init(step: Int, thread: ThreadID, range: SourceRange?, text: String, accesses: [Access]) {
        self.step = step
        self.thread = thread
        self.range = range
        self.text = text
        self.accesses = accesses
    }
}

/// One touch of shared state.
///
/// Stored as one word (the target's case, object or variable, field, and the kind),
/// so that the explorer's dependence tests, which compare millions of pairs, compare
/// integers; `target` and `kind` read it back.
public struct Access: Hashable, Sendable {
    public enum Target: Hashable, Sendable {
        case global(Int)
        /// A stored field by index in its class, or a built-in property of an
        /// operation or queue (`Access.builtinField`).
        case field(ObjectID, Int)
        /// An object's lifetime: allocation, retain count, deallocation.
        case object(ObjectID)
        case lock(ObjectID)
        case operation(ObjectID)
        case queue(ObjectID)
        case mainQueue
        /// The heap and the thread table: creating or freeing an object or a thread
        /// (their numbers and names depend on the order), and counting objects.
        case allocator
        /// What `print` wrote.
        case output
        /// An object's retain count (retain and release).
        case count(ObjectID)
        /// What `always` invariants see: every step that changes it writes this target
        /// too (`Engine.checkInvariants`). Orders states, never threads.
        case observer
        /// The occupants of the `critical` sections of one name (by its index).
        case section(Int)
        /// The cooperative pool's threads (`pool N`): taking one, giving one back.
        case pool
        /// The virtual clock and the sleepers' deadlines (`Task.sleep`).
        case clock

        /// The object a target belongs to, if any.
        public var objectID: ObjectID? {
            switch self {
            case .field(let id, _), .object(let id), .lock(let id), .operation(let id), .queue(let id), .count(let id): return id
            case .global, .mainQueue, .allocator, .output, .observer, .section, .pool, .clock: return nil
            }
        }

        /// Whether two accesses to these targets can touch the same state. Fields of
        /// one object are separate; the object as a whole (allocation, freeing, an
        /// operation's or queue's state, its monitor) overlaps all of them; a retain
        /// count overlaps only itself and the object's lifetime.
        public func overlaps(_ other: Target) -> Bool {
            Access.overlaps(Access.pack(self), Access.pack(other))
        }
    }

    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case read, write, acquire, release
    }

    /// Bits 0-31: the object or the global; 32-51: the field (two's complement);
    /// 52-54: an atomic access's ordering (`MemoryOrdering.packed`); 55: an atomic
    /// read-modify-write; 56-59: the target's case (`Tag`); 60-61: the kind; 62: atomic.
    private(set) var bits: UInt64

    /// The target's case, as stored in bits 56-59.
    enum Tag: UInt64 {
        case global, field, object, lock, operation, queue, mainQueue, allocator, output, count, observer, section, pool, clock
    }

    public var target: Target {
        get {
            let id = Int(bits & 0xFFFF_FFFF)
            switch Tag(rawValue: bits >> 56 & 0xF)! {
            case .global: return .global(id)
            case .field: return .field(id, Int(Int32(truncatingIfNeeded: bits >> 20) >> 12))
            case .object: return .object(id)
            case .lock: return .lock(id)
            case .operation: return .operation(id)
            case .queue: return .queue(id)
            case .mainQueue: return .mainQueue
            case .allocator: return .allocator
            case .output: return .output
            case .count: return .count(id)
            case .observer: return .observer
            case .section: return .section(id)
            case .pool: return .pool
            case .clock: return .clock
            }
        }
        set { bits = bits & Access.kindBits | Access.pack(newValue) }
    }

    public var kind: Kind {
        get {
            switch bits >> 60 & 0x3 {
            case 0: return .read
            case 1: return .write
            case 2: return .acquire
            default: return .release
            }
        }
        set { bits = bits & ~Access.kindBits | Access.pack(newValue) }
    }

    public init(_ target: Target, _ kind: Kind) {
        bits = Access.pack(target) | Access.pack(kind)
    }

    /// An access to an `atomic` variable or field (`atomic`: true): it synchronizes,
    /// as a lock does, and is never part of a data race. Marked by bit 62, so it is a
    /// target of its own, as the variable is either atomic or not.
    public init(_ target: Target, _ kind: Kind, atomic: Bool) {
        bits = Access.pack(target) | Access.pack(kind) | (atomic ? Access.atomicBit : 0)
    }

    /// An access to an `Atomic`'s value with a memory ordering (`ordering`), and
    /// whether it is a read-modify-write (`wrappingAdd`, a compare-exchange that
    /// exchanges): one that continues a release sequence (see `Trace.synchronizes`).
    public init(_ target: Target, _ kind: Kind, ordering: MemoryOrdering, readModifyWrite: Bool = false) {
        bits = Access.pack(target) | Access.pack(kind) | Access.atomicBit | ordering.packed << 52 | (readModifyWrite ? Access.rmwBit : 0)
    }

    /// Whether this is an access to an `atomic` variable or field.
    public var isAtomic: Bool { bits & Access.atomicBit != 0 }

    /// An atomic access's memory ordering: sequentially consistent unless an
    /// `ordering:` argument said otherwise (meaningless for other accesses).
    public var ordering: MemoryOrdering { MemoryOrdering(packed: bits >> 52 & 0x7) }

    /// Whether an atomic access both reads and writes (`wrappingAdd`, an exchange).
    public var isReadModifyWrite: Bool { bits & Access.rmwBit != 0 }

    /// Whether it reads the value: a load, a read-modify-write, a failed compare-exchange.
    var readsValue: Bool { isRead || isReadModifyWrite }

    static let atomicBit: UInt64 = 1 << 62
    private static let rmwBit: UInt64 = 1 << 55
    /// The ordering and read-modify-write bits: not part of the target.
    private static let orderingBits: UInt64 = 0xF << 52

    private init(bits: UInt64) {
        self.bits = bits
    }

    /// Not an access: no target and kind pack to it (bit 63 is never set), so
    /// storage can use it to mark an empty slot.
    static let absent = Access(bits: .max)

    private static let kindBits: UInt64 = 0x3 << 60

    /// The target's bits: its case, its object or variable and its field, and whether
    /// it is atomic.
    var targetBits: UInt64 { bits & ~(Access.kindBits | Access.orderingBits) }

    var isRead: Bool { bits & Access.kindBits == 0 }

    var tag: Tag { Tag(rawValue: bits >> 56 & 0xF)! }

    /// The object or global: bits 0-31.
    var id: Int { Int(bits & 0xFFFF_FFFF) }

    static func pack(_ target: Target) -> UInt64 {
        func make(_ tag: Tag, _ id: Int = 0, field: Int = 0) -> UInt64 {
            precondition(UInt32(exactly: id) != nil && (-(1 << 19)..<(1 << 19)).contains(field), "access target out of range")
            return tag.rawValue << 56 | UInt64(UInt32(truncatingIfNeeded: field) & 0xF_FFFF) << 32 | UInt64(id)
        }
        switch target {
        case .global(let g): return make(.global, g)
        case .field(let id, let field): return make(.field, id, field: field)
        case .object(let id): return make(.object, id)
        case .lock(let id): return make(.lock, id)
        case .operation(let id): return make(.operation, id)
        case .queue(let id): return make(.queue, id)
        case .mainQueue: return make(.mainQueue)
        case .allocator: return make(.allocator)
        case .output: return make(.output)
        case .count(let id): return make(.count, id)
        case .observer: return make(.observer)
        case .section(let index): return make(.section, index)
        case .pool: return make(.pool)
        case .clock: return make(.clock)
        }
    }

    static func pack(_ kind: Kind) -> UInt64 {
        switch kind {
        case .read: return 0
        case .write: return 1 << 60
        case .acquire: return 2 << 60
        case .release: return 3 << 60
        }
    }

    /// `Target.overlaps` on packed targets.
    @inline(__always)
    static func overlaps(_ a: UInt64, _ b: UInt64) -> Bool {
        if a == b { return true }
        guard a & 0xFFFF_FFFF == b & 0xFFFF_FFFF else { return false }
        let tagA = a >> 56 & 0xF, tagB = b >> 56 & 0xF
        let count = Tag.count.rawValue, object = Tag.object.rawValue, field = Tag.field.rawValue
        if tagA == count { return tagB == object }
        if tagB == count { return tagA == object }
        if tagA == field && tagB == field { return false }
        // The cases that belong to an object: field, object, lock, operation, queue.
        return (1...5).contains(tagA) && (1...5).contains(tagB)
    }

    /// Whether the two accesses conflict: they can touch the same state and at
    /// least one of them does more than read.
    @inline(__always)
    func conflicts(with other: Access) -> Bool {
        (bits | other.bits) & Access.kindBits != 0 && Access.overlaps(targetBits, other.targetBits)
    }

    /// The built-in properties of operations and queues: property `i` is field
    /// `-1 - i` where a name is looked up (`Program.fieldName`); reading one reads
    /// its object's synchronizing target. Keep it in step with
    /// `Machine.builtinProperty` (a test reads every one of them).
    public static let builtinProperties = [
        "isCancelled", "isFinished", "isExecuting", "name", "isSuspended",
        "maxConcurrentOperationCount", "operationCount", "isReady", "isAsynchronous", "queuePriority", "qualityOfService",
    ]

    public static func builtinField(_ name: String) -> Int {
        -1 - (builtinProperties.firstIndex(of: name) ?? 0)
    }
}

/// Something wrong that a run showed.
public struct Finding: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case assertion = "assertion failed"
        case expectation = "expectation failed"
        case crash
        case mainThread = "main-thread violation"
        case deadlock
        case runaway = "runaway loop"
        case stepLimit = "step limit"
        case runtimeError = "runtime error"
        /// An `always` invariant broken after some step.
        case invariant = "invariant broken"
        /// Two threads inside `critical` sections of one name at once.
        case exclusion = "mutual exclusion broken"
        /// A run that goes on forever, every thread that can run running, without a
        /// `progress` statement (or, in a program without any, without ending).
        case livelock
        /// An object autoreleased with no pool in place (`memory "manual"`), or a
        /// continuation dropped without being resumed.
        case leak
        /// A task's job blocked its thread waiting for work that is not running (a
        /// semaphore or a group another task would signal): Swift concurrency's
        /// threads must always make progress.
        case forwardProgress = "forward-progress violation"
    }

    /// How the Swift runtime's messages about a continuation start (SE-0300).
    public static let continuationMisuse = "SWIFT TASK CONTINUATION MISUSE"

    /// How the message of a failed `required` check starts.
    public static let workNotDone = "the threads' work is no longer done"

    public var kind: Kind
    public var step: Int
    public var thread: ThreadID?
    public var range: SourceRange?
    public var message: String

    public init(kind: Kind, step: Int, thread: ThreadID?, range: SourceRange?, message: String) {
        self.kind = kind
        self.step = step
        self.thread = thread
        self.range = range
        self.message = message
    }
}
