/// A set of small integers (step indices), iterated in increasing order. The first 64
/// live inline, so the sets of an execution of up to 64 steps cost no allocation.
struct BitSet: Equatable, Sequence {
    var low: UInt64 = 0
    var high: [UInt64] = []

    init() {}

    func contains(_ i: Int) -> Bool {
        if i < 64 { return low & (1 << UInt64(i)) != 0 }
        let word = i / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(i % 64)) != 0
    }

    mutating func insert(_ i: Int) {
        if i < 64 {
            low |= 1 << UInt64(i)
            return
        }
        let word = i / 64 - 1
        while high.count <= word { high.append(0) }
        high[word] |= 1 << UInt64(i % 64)
    }

    /// Adds the members `64 * index + i` for each bit i of `bits`.
    mutating func formUnion(word bits: UInt64, at index: Int) {
        guard index > 0 else {
            low |= bits
            return
        }
        guard bits != 0 else { return }
        while high.count < index { high.append(0) }
        high[index - 1] |= bits
    }

    mutating func formUnion(_ other: BitSet) {
        low |= other.low
        guard !other.high.isEmpty else { return }
        while high.count < other.high.count { high.append(0) }
        for (i, word) in other.high.enumerated() { high[i] |= word }
    }

    /// The number of members.
    var count: Int { high.reduce(low.nonzeroBitCount) { $0 + $1.nonzeroBitCount } }

    var underestimatedCount: Int { count }

    struct Iterator: IteratorProtocol {
        let set: BitSet
        /// The word being read (0: `low`, i: `high[i - 1]`) and its bits not read yet.
        var word = 0
        var bits: UInt64

        mutating func next() -> Int? {
            while bits == 0 {
                guard word < set.high.count else { return nil }
                word += 1
                bits = set.high[word - 1]
            }
            let member = word * 64 + bits.trailingZeroBitCount
            bits &= bits - 1
            return member
        }
    }

    func makeIterator() -> Iterator { Iterator(set: self, bits: low) }
}

/// One bit set per step, all in one flat array (`words` words per row): appending a
/// row or truncating costs no allocation once the array has grown, and reading a
/// row copies nothing.
struct BitMatrix {
    private(set) var rows = 0
    private var words = 1
    private var storage: [UInt64] = []

    mutating func appendRow() {
        if rows == words * 64 { widen() }
        for _ in 0..<words { storage.append(0) }
        rows += 1
    }

    /// Doubles the words per row, keeping every row's bits.
    private mutating func widen() {
        var wider = [UInt64](repeating: 0, count: rows * words * 2)
        for row in 0..<rows {
            for word in 0..<words { wider[row * words * 2 + word] = storage[row * words + word] }
        }
        storage = wider
        words *= 2
    }

    mutating func removeLastRow() {
        for _ in 0..<words { storage.removeLast() }
        rows -= 1
    }

    /// The bytes its rows take.
    var bytes: Int { storage.count * 8 }

    func contains(_ i: Int, row: Int) -> Bool {
        storage[row * words + i / 64] & (1 << UInt64(i % 64)) != 0
    }

    mutating func insert(_ i: Int, row: Int) {
        storage[row * words + i / 64] |= 1 << UInt64(i % 64)
    }

    /// Row `row` = `set` (whose members are all below `rows`).
    mutating func setRow(_ row: Int, to set: BitSet) {
        storage[row * words] = set.low
        for word in 1..<words { storage[row * words + word] = word <= set.high.count ? set.high[word - 1] : 0 }
    }

    /// `set` |= row `row`.
    func addRow(_ row: Int, to set: inout BitSet) {
        for word in 0..<words { set.formUnion(word: storage[row * words + word], at: word) }
    }

    /// Calls `body` with each member of row `row`, in increasing order.
    func forEach(_ row: Int, _ body: (Int) -> Void) {
        for word in 0..<words {
            var bits = storage[row * words + word]
            while bits != 0 {
                body(word * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }
}
