/// A number of interleavings: exact, or a lower bound (when counting was bounded, or
/// when the number passed `Int64.max`). 64 bits on every platform: the WebAssembly
/// build, whose `Int` has 32, counts as far as the native one.
///
/// Interleaving counts grow like binomial coefficients: two threads of 33 steps each
/// already have 7.2 × 10¹⁸ interleavings. This type is the only way counts are added
/// or printed, so no caller can overflow one or print a bound as if it were exact.
///
///     var total = InterleavingCount(3)
///     total += InterleavingCount(Int64.max)
///     total.description  // "more than 9,223,372,036,854,775,807"
public struct InterleavingCount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The count, or its lower bound when `isExact` is false.
    public private(set) var value: Int64
    /// False when `value` is only a lower bound.
    public private(set) var isExact: Bool

    public static let zero = InterleavingCount(0)

    /// An exact count.
    /// - Precondition: `value >= 0`.
    public init(_ value: Int64) {
        precondition(value >= 0, "a count is never negative")
        self.value = value
        self.isExact = true
    }

    /// An exact count.
    /// - Precondition: `value >= 0`.
    public init(_ value: Int) {
        self.init(Int64(value))
    }

    /// A lower bound: there are at least `value`.
    public static func atLeast(_ value: Int64) -> InterleavingCount {
        var count = InterleavingCount(value)
        count.isExact = false
        return count
    }

    /// True when the count passed `Int64.max`: there are more than `Int64.max`.
    /// Exactly one: a single interleaving (for the singular in sentences).
    public var isOne: Bool { isExact && value == 1 }

    public var isSaturated: Bool { value == Int64.max && !isExact }

    /// The sum, saturating at `Int64.max` (and then no longer exact).
    /// - Complexity: O(1).
    public static func + (a: InterleavingCount, b: InterleavingCount) -> InterleavingCount {
        let (sum, overflow) = a.value.addingReportingOverflow(b.value)
        if overflow { return .atLeast(Int64.max) }
        var result = InterleavingCount(sum)
        result.isExact = a.isExact && b.isExact
        return result
    }

    public static func += (a: inout InterleavingCount, b: InterleavingCount) {
        a = a + b
    }

    /// The sum of `counts`.
    public static func sum<S: Sequence>(_ counts: S) -> InterleavingCount where S.Element == InterleavingCount {
        counts.reduce(.zero, +)
    }

    /// Ordered by value (a bound and an exact count of the same value compare equal in order).
    public static func < (a: InterleavingCount, b: InterleavingCount) -> Bool {
        a.value < b.value
    }

    /// This count as a percentage of `total`, 0 when the total is 0. A share of lower
    /// bounds is only an estimate; the renderers say "of interleavings", not "chance".
    public func percent(of total: InterleavingCount) -> Double {
        total.value == 0 ? 0 : Double(value) * 100 / Double(total.value)
    }

    /// `12`, `at least 12`, or `more than 9,223,372,036,854,775,807`.
    public var description: String {
        if isSaturated { return "more than " + Self.grouped(Int64.max) }
        return isExact ? String(value) : "at least \(value)"
    }

    /// `9,223,372,036,854,775,807`.
    static func grouped(_ n: Int64) -> String {
        var digits = Array(String(n))
        var out: [Character] = []
        while digits.count > 3 {
            out.insert(contentsOf: [","] + digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        return String(digits + out)
    }
}
