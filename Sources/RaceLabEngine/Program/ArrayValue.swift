/// An array of the scenario language, with its weight kept as it changes.
///
/// The weight counts the values an array holds through every level of nesting (and
/// a string's bytes): `[[1, 2], [3]]` weighs 6. A value can hold itself many times
/// (`a = [a, a]` doubles in ten bytes), so walking one (to print, compare or release
/// it) could take exponential time; keeping the weight lets the engine refuse any
/// value past `Value.maxWeight` at the step that builds it, which bounds every walk.
public struct ArrayValue: Hashable, Sendable, RandomAccessCollection, ExpressibleByArrayLiteral {
    public private(set) var items: [Value]
    /// 1 + the weights of the elements.
    public private(set) var weight: Int

    /// - Complexity: O(n): each element's weight is known.
    public init(_ items: [Value]) {
        self.items = items
        weight = items.reduce(1) { $0 &+ $1.weight }
    }

    public init(arrayLiteral elements: Value...) {
        self.init(elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { items.count }
    public subscript(position: Int) -> Value { items[position] }

    public mutating func append(_ value: Value) {
        items.append(value)
        weight &+= value.weight
    }

    public mutating func insert(_ value: Value, at index: Int) {
        items.insert(value, at: index)
        weight &+= value.weight
    }

    @discardableResult
    public mutating func remove(at index: Int) -> Value {
        let value = items.remove(at: index)
        weight &-= value.weight
        return value
    }

    @discardableResult
    public mutating func removeLast() -> Value { remove(at: items.count - 1) }

    @discardableResult
    public mutating func removeFirst() -> Value { remove(at: 0) }

    public mutating func removeAll() {
        items = []
        weight = 1
    }

    /// Replaces element `index`; returns the old one.
    @discardableResult
    public mutating func replace(at index: Int, with value: Value) -> Value {
        let old = items[index]
        items[index] = value
        weight = weight &- old.weight &+ value.weight
        return old
    }

    public static func + (a: ArrayValue, b: ArrayValue) -> ArrayValue {
        var result = a
        result.items += b.items
        result.weight = a.weight &+ b.weight &- 1
        return result
    }
}
