/// The states the stateful search has seen, each once, numbered in the order first
/// seen: their canonical bytes (`StateEncoder`) one after another in one arena, and
/// an open-addressing hash table of state numbers. Exact: a lookup compares bytes,
/// so two different states are never taken for one (SPIN's bitstate and hash-compact
/// modes trade that for memory; a proof here must not rest on luck).
///
/// A state costs its bytes, an 8-byte offset, an 8-byte hash and, at a load factor
/// of at most one half, two or more 4-byte table slots.
struct StateStore {
    private(set) var arena: [UInt8] = []
    /// Where each state's bytes start in `arena`; one more entry than states.
    private var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    /// State number + 1, or 0 for an empty slot.
    private var table: [UInt32]
    private var mask: Int

    init() {
        table = Array(repeating: 0, count: 1 << 8)
        mask = table.count - 1
    }

    var count: Int { hashes.count }

    /// The memory the states take, in bytes: counts, not capacities (an array's spare
    /// room depends on the allocator, and what the report prints must not).
    var bytes: Int {
        arena.count + offsets.count * 8 + hashes.count * 8 + table.count * 4
    }

    /// The state with these bytes: its number, and whether it is new (then added).
    mutating func insert(_ state: UnsafeRawBufferPointer) -> (index: Int, isNew: Bool) {
        let hash = Self.hash(state)
        let (slot, found) = probe(state, hash)
        if let found { return (found, false) }
        let index = hashes.count
        table[slot] = UInt32(index + 1)
        hashes.append(hash)
        arena.append(contentsOf: state)
        offsets.append(arena.count)
        if hashes.count * 2 > table.count { grow() }
        return (index, true)
    }

    /// The number of the state with these bytes, if it is stored.
    func find(_ state: UnsafeRawBufferPointer) -> Int? {
        probe(state, Self.hash(state)).found
    }

    /// Where the state with these bytes is in the table, or the free slot it would take.
    private func probe(_ state: UnsafeRawBufferPointer, _ hash: UInt64) -> (slot: Int, found: Int?) {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if hashes[index] == hash && equals(index, state) { return (slot, index) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    private func equals(_ index: Int, _ probe: UnsafeRawBufferPointer) -> Bool {
        let start = offsets[index], end = offsets[index + 1]
        guard end - start == probe.count else { return false }
        return arena.withUnsafeBytes { stored in
            var i = 0
            while i + 8 <= probe.count {
                if stored.loadUnaligned(fromByteOffset: start + i, as: UInt64.self) != probe.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                    return false
                }
                i += 8
            }
            while i < probe.count {
                if stored[start + i] != probe[i] { return false }
                i += 1
            }
            return true
        }
    }

    /// The store's invariants, checked in debug builds once a search is done: the
    /// table is at most half full, each state's hash is its bytes' hash, and looking
    /// a state's bytes up finds that state (no two states hold the same bytes).
    func isConsistent() -> Bool {
        guard hashes.count * 2 <= table.count, offsets.count == hashes.count + 1 else { return false }
        return arena.withUnsafeBytes { raw in
            for index in hashes.indices {
                let bytes = UnsafeRawBufferPointer(rebasing: raw[offsets[index]..<offsets[index + 1]])
                guard Self.hash(bytes) == hashes[index] else { return false }
                var slot = Int(truncatingIfNeeded: hashes[index]) & mask
                while table[slot] != 0 && !(hashes[Int(table[slot]) - 1] == hashes[index] && equals(Int(table[slot]) - 1, bytes)) {
                    slot = (slot + 1) & mask
                }
                guard Int(table[slot]) - 1 == index else { return false }
            }
            return true
        }
    }

    private mutating func grow() {
        table = Array(repeating: 0, count: table.count * 2)
        mask = table.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = UInt32(index + 1)
        }
    }

    /// FNV-1a over the bytes, eight at a time, then mixed (the table uses the low bits).
    /// Not `Hasher`: its seed changes from run to run, and a table's order never reaches
    /// output, but a fixed hash keeps every run's work the same too.
    static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        while i < raw.count {
            h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }
}
