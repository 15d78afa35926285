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
        case field(ObjectID, String)
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
    }

    public enum Kind: String, Hashable, Sendable {
        case read, write, acquire, release
    }

    public var target: Target
    public var kind: Kind

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
