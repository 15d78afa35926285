/// An index into the world's heap. Objects are never reused, so an ID names one
/// object for the whole run.
public typealias ObjectID = Int
/// An index into the world's thread list, in creation order.
public typealias ThreadID = Int

/// A value of the scenario language. Arrays are values (copied on assignment, as in
/// Swift); class instances, locks, operations and queues live on the heap.
public enum Value: Hashable, Sendable {
    /// A script's Int: 64 bits on every platform, as Swift's `Int` is on Apple's
    /// (the browser build's own `Int` has 32).
    case int(Int64)
    case bool(Bool)
    case string(String)
    case none
    case object(ObjectID)
    case array(ArrayValue)
    case closure(ClosureValue)
    /// A dictionary: its entries, each the array `[key, value]`, sorted by key (so
    /// equal dictionaries are equal values, and printing and enumerating them is
    /// deterministic). Keys are Ints or Strings, all of one kind.
    case dictionary(ArrayValue)
    /// A set: its members, sorted, each once (see `Sets`).
    case set(ArrayValue)
    /// A weak reference, as a `weak var` or a `[weak x]` capture stores it: it holds
    /// no count, and reads as the object while it is alive, then as nil. The program
    /// never sees this case: every read resolves it (`World.resolve`).
    case weak(ObjectID)

    /// A count or an index of the engine's own, as a script's Int.
    static func int(_ n: Int) -> Value { .int(Int64(n)) }

    /// A script's Int as a count or bound the engine keeps in its own `Int`: nil past
    /// 32 bits, on every platform, so the browser's build refuses what the native one does.
    static func bounded(_ n: Int64) -> Int? { Int32(exactly: n).map { Int($0) } }

    /// The most a value may weigh (`weight`): a step that builds a heavier one is a
    /// "memory budget" crash, as a real program would run out of memory. It bounds
    /// every walk over a value (printing, comparing, releasing).
    public static let maxWeight = 1_000_000

    /// How many values this one holds, through every level of nesting, counting a
    /// string's bytes: 1 for a number, `1 + count` for an array of numbers.
    /// - Complexity: O(1): arrays and closures keep theirs.
    public var weight: Int {
        switch self {
        case .array(let items), .dictionary(let items), .set(let items): return items.weight
        case .closure(let c): return c.weight
        case .string(let s): return 1 &+ s.utf8.count
        default: return 1
        }
    }

    /// The heap objects this value holds strong references to, in order.
    public var references: [ObjectID] {
        switch self {
        case .object(let id): return [id]
        case .array(let items), .dictionary(let items), .set(let items): return items.flatMap({ $0.references })
        case .closure(let c): return c.captures.flatMap({ $0.references })
        default: return []
        }
    }

    /// Whether this value holds any strong reference.
    public var hasReferences: Bool {
        switch self {
        case .object: return true
        case .array(let items), .dictionary(let items), .set(let items): return items.contains { $0.hasReferences }
        case .closure(let c): return c.captures.contains { $0.hasReferences }
        default: return false
        }
    }

    public var typeName: String {
        switch self {
        case .int: return "Int"
        case .bool: return "Bool"
        case .string: return "String"
        case .none: return "nil"
        case .object: return "object"
        case .array: return "Array"
        case .dictionary: return "Dictionary"
        case .set: return "Set"
        case .closure: return "closure"
        case .weak: return "object"
        }
    }
}

/// A closure: compiled code plus the values it captured when it was created.
public struct ClosureValue: Hashable, Sendable {
    public let code: Int
    public let captures: [Value]
    /// 1 + the weights of the captures (see `Value.weight`).
    public let weight: Int

    public init(code: Int, captures: [Value]) {
        self.code = code
        self.captures = captures
        weight = captures.reduce(1) { $0 &+ $1.weight }
    }
}
