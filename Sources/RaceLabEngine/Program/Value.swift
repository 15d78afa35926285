/// An index into the world's heap. Objects are never reused, so an ID names one
/// object for the whole run.
public typealias ObjectID = Int
/// An index into the world's thread list, in creation order.
public typealias ThreadID = Int

/// A value of the scenario language. Arrays are values (copied on assignment, as in
/// Swift); class instances, locks, operations and queues live on the heap.
public enum Value: Hashable, Sendable {
    case int(Int)
    case bool(Bool)
    case string(String)
    case none
    case object(ObjectID)
    case array([Value])
    case closure(ClosureValue)

    /// The heap objects this value holds strong references to, in order.
    public var references: [ObjectID] {
        switch self {
        case .object(let id): return [id]
        case .array(let items): return items.flatMap(\.references)
        case .closure(let c): return c.captures.flatMap(\.references)
        default: return []
        }
    }

    /// Whether this value holds any strong reference.
    public var hasReferences: Bool {
        switch self {
        case .object: return true
        case .array(let items): return items.contains { $0.hasReferences }
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
        case .closure: return "closure"
        }
    }
}

/// A closure: compiled code plus the values it captured when it was created.
public struct ClosureValue: Hashable, Sendable {
    public var code: Int
    public var captures: [Value]

    public init(code: Int, captures: [Value]) {
        self.code = code
        self.captures = captures
    }
}
