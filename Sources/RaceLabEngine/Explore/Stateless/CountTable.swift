/// A map from non-negative Int keys to saturating Int counts, by open addressing
/// (linear probing, power-of-two capacity, multiplicative hashing): the level
/// tables of `Trace.linearizations`, where a `Dictionary` spent most of its time
/// hashing. Iteration order is the table's, so only order-free sums may read it.
struct CountTable {
    private(set) var keys: [Int]
    private(set) var counts: [Int]
    private(set) var count = 0
    private var mask: Int
    /// 64 minus the table's size in bits: the hash is the product's top bits (Fibonacci
    /// hashing), which depend on every bit of the key.
    private var hashShift: UInt64

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        keys = [Int](repeating: -1, count: size)
        counts = [Int](repeating: 0, count: size)
        mask = size - 1
        hashShift = UInt64(UInt64.bitWidth - size.trailingZeroBitCount)
    }

    /// Adds `value` to the count of `key` (a missing key counts 0), stopping at
    /// `Int.max`; returns false when the sum had to stop there.
    /// - Precondition: `key >= 0`.
    @discardableResult
    mutating func add(_ value: Int, to key: Int) -> Bool {
        if count * 2 >= keys.count { grow() }
        var index = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> hashShift) & mask
        while true {
            if keys[index] == key {
                let (sum, overflow) = counts[index].addingReportingOverflow(value)
                counts[index] = overflow ? Int.max : sum
                return !overflow
            }
            if keys[index] < 0 {
                keys[index] = key
                counts[index] = value
                count += 1
                return true
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        var bigger = CountTable(capacity: keys.count)
        for (index, key) in keys.enumerated() where key >= 0 { bigger.add(counts[index], to: key) }
        self = bigger
    }

    /// Calls `body` with each key and its count, in table order.
    func forEachEntry(_ body: (Int, Int) -> Void) {
        for (index, key) in keys.enumerated() where key >= 0 { body(key, counts[index]) }
    }
}
