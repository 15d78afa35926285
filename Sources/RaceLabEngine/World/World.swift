/// The whole simulated machine as one value: threads, globals, heap, main queue,
/// findings. `Engine.step` maps a world and a thread to the next world; nothing
/// else changes it, so copying a world is saving it (undo, replay, exploration).
public struct World: Hashable, Sendable {
    public var threads: [ThreadState] = []
    public var globals: [Value] = []
    /// Bumped by every write to a global, so in-place enumeration can see mutation.
    public var globalVersions: [Int] = []
    public var heap: [HeapObject] = []
    /// How many instances of each class have been created.
    public var created: [Int] = []
    public var mainQueue: [QueuedBlock] = []
    public var nextBlockID = 1
    public var completedBlocks: Set<Int> = []
    /// Operation queues in creation order.
    public var queues: [ObjectID] = []
    public var findings: [Finding] = []
    /// Set by a crash or a runaway thread: nothing more runs.
    public var halted = false
    public var stepCount = 0
    public var output: [String] = []

    public init() {}

    public func thread(named name: String) -> ThreadID? {
        threads.firstIndex { $0.name == name }
    }

    /// A value as the trace shows it: objects by their trace name.
    public func describe(_ value: Value) -> String {
        switch value {
        case .int(let n): return String(n)
        case .bool(let b): return String(b)
        case .string(let s): return "\"\(s)\""
        case .none: return "nil"
        case .object(let id): return heap[id].name
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        case .closure: return "a closure"
        }
    }

    /// Live instances of a class.
    public func alive(classIndex: Int) -> Int {
        heap.filter { $0.classIndex == classIndex && $0.isAlive }.count
    }
}

/// A block sent to the main queue with `main.async` or `main.sync`.
public struct QueuedBlock: Hashable, Sendable {
    public var id: Int
    public var closure: ClosureValue
    public var sender: ThreadID
}
