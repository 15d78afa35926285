/// A map from non-negative Int64 keys to saturating Int64 counts (64 bits on every
/// platform, so counts agree between the native and the WebAssembly build), by open addressing
/// (linear probing, power-of-two capacity, multiplicative hashing): the level
/// tables of `Trace.linearizations`, where a `Dictionary` spent most of its time
/// hashing. Iteration order is the table's, so only order-free sums may read it.
struct CountTable {
    private(set) var keys: [Int64]
    private(set) var counts: [Int64]
    private(set) var count = 0
    private var mask: Int
    /// 64 minus the table's size in bits: the hash is the product's top bits (Fibonacci
    /// hashing), which depend on every bit of the key.
    private var hashShift: UInt64

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        keys = [Int64](repeating: -1, count: size)
        counts = [Int64](repeating: 0, count: size)
        mask = size - 1
        hashShift = UInt64(UInt64.bitWidth - size.trailingZeroBitCount)
    }

    /// Adds `value` to the count of `key` (a missing key counts 0), stopping at
    /// `Int64.max`; returns false when the sum had to stop there.
    /// - Precondition: `key >= 0`.
    @discardableResult
    mutating func add(_ value: Int64, to key: Int64) -> Bool {
        if count * 2 >= keys.count { grow() }
        var index = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> hashShift) & mask
        while true {
            if keys[index] == key {
                let (sum, overflow) = counts[index].addingReportingOverflow(value)
                counts[index] = overflow ? Int64.max : sum
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
    func forEachEntry(_ body: (Int64, Int64) -> Void) {
        for (index, key) in keys.enumerated() where key >= 0 { body(key, counts[index]) }
    }
}
