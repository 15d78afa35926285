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

        /// The object a target belongs to, if any.
        public var objectID: ObjectID? {
            switch self {
            case .field(let id, _), .object(let id), .lock(let id), .operation(let id), .queue(let id), .count(let id): return id
            case .global, .mainQueue, .allocator, .output: return nil
            }
        }

        /// Whether two accesses to these targets can touch the same state. Fields of
        /// one object are separate; the object as a whole (allocation, freeing, an
        /// operation's or queue's state, its monitor) overlaps all of them; a retain
        /// count overlaps only itself and the object's lifetime.
        public func overlaps(_ other: Target) -> Bool {
            if self == other { return true }
            switch (self, other) {
            case (.field, .field), (.count, .count): return false
            case (.count(let id), _): return other == .object(id)
            case (_, .count(let id)): return self == .object(id)
            default:
                guard let id = objectID else { return false }
                return id == other.objectID
            }
        }
    }

    public enum Kind: String, Hashable, Sendable {
        case read, write, acquire, release
    }

    public var target: Target
    public var kind: Kind

    /// The built-in properties of operations and queues, as fields: property `i` is
    /// field `-1 - i`, so that every target is plain data. Keep it in step with
    /// `Machine.builtinProperty` (a test reads every one of them).
    public static let builtinProperties = ["isCancelled", "isFinished", "isExecuting", "name", "isSuspended",
                                           "maxConcurrentOperationCount", "operationCount"]

    public static func builtinField(_ name: String) -> Int {
        -1 - (builtinProperties.firstIndex(of: name) ?? 0)
    }

    public init(_ target: Target, _ kind: Kind) {
        self.target = target
        self.kind = kind
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
    }

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
