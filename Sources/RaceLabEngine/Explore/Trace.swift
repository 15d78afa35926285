import RaceLabLanguage

/// The steps of the execution being explored, with their happens-before order.
///
/// Step j happens before step k (j < k) when they are on the same thread, when j
/// created k's thread, or when they conflict (touch the same target, at least one of
/// them writing), or through a chain of these. A step that halts the program
/// conflicts with every step of another thread.
struct Trace {
    var threads: [ThreadID] = []
    var accesses: [[Access]] = []
    var halts: [Bool] = []
    /// The threads each step started, as a bit set.
    var spawns: [UInt64] = []
    /// For each step, the steps that happen before it, as a bit set.
    var before: [BitSet] = []
    /// For each step, the earlier steps it depends on directly.
    var direct: [BitSet] = []
    /// Per step, a quick over-approximation of what it reads and writes (one bit per
    /// object or variable, modulo 64), so most pairs are found independent at once.
    var readMask: [UInt64] = []
    var writeMask: [UInt64] = []
    /// The same over-approximation for the synchronizing targets a step touches.
    var syncMask: [UInt64] = []
    /// For each step, the steps ordered before it by synchronization alone.
    var syncBefore: [BitSet] = []
    /// Where each step is in the script.
    var ranges: [SourceRange?] = []
    /// The step that created each thread, by thread (-1 for threads there from the start).
    var creator: [Int] = []

    var count: Int { threads.count }

    mutating func truncate(to length: Int) {
        guard threads.count > length else { return }
        for thread in creator.indices where creator[thread] >= length { creator[thread] = -1 }
        threads.removeSubrange(length...)
        accesses.removeSubrange(length...)
        halts.removeSubrange(length...)
        spawns.removeSubrange(length...)
        before.removeSubrange(length...)
        syncBefore.removeSubrange(length...)
        ranges.removeSubrange(length...)
        direct.removeSubrange(length...)
        readMask.removeSubrange(length...)
        writeMask.removeSubrange(length...)
        syncMask.removeSubrange(length...)
    }

    mutating func append(thread: ThreadID, accesses stepAccesses: [Access], halts halting: Bool, creates: [ThreadID],
                         range: SourceRange? = nil, detectRaces: Bool = false) {
        let index = threads.count
        threads.append(thread)
        ranges.append(range)
        accesses.append(stepAccesses)
        halts.append(halting)
        spawns.append(creates.reduce(0) { $0 | 1 << UInt64($1) })
        var reads: UInt64 = 0, writes: UInt64 = 0
        for access in stepAccesses {
            let bit = Trace.bit(access.target)
            if access.kind == .read { reads |= bit } else { writes |= bit }
        }
        readMask.append(reads)
        writeMask.append(writes)
        syncMask.append(detectRaces ? Trace.syncMask(stepAccesses) : 0)
        let edges = directEdges(index)
        var set = BitSet()
        edges.forEach { earlier in
            set.insert(earlier)
            set.formUnion(before[earlier])
        }
        direct.append(edges)
        before.append(set)
        syncBefore.append(detectRaces ? synchronizedBefore(index) : BitSet())
        for child in creates {
            while creator.count <= child { creator.append(-1) }
            creator[child] = index
        }
    }

    func creator(of thread: ThreadID) -> Int? {
        thread < creator.count && creator[thread] >= 0 ? creator[thread] : nil
    }

    static func bit(_ target: Access.Target) -> UInt64 {
        switch target {
        case .global(let g): return 1 << UInt64(g % 32)
        case .mainQueue: return 1 << 32
        case .allocator: return 1 << 33
        case .output: return 1 << 34
        default: return 1 << UInt64(35 + (target.objectID ?? 0) % 29)
        }
    }

    /// The steps `index` depends on directly (their own transitive predecessors aside).
    func directEdges(_ index: Int) -> BitSet {
        edges(index) { dependent($0, index) }
    }

    /// The thread's previous step (or the step that created it), then every earlier
    /// step of another thread that `related` accepts.
    func edges(_ index: Int, _ related: (Int) -> Bool) -> BitSet {
        var result = BitSet()
        let thread = threads[index]
        if let previous = threads[..<index].lastIndex(of: thread) {
            result.insert(previous)
        } else if let parent = creator(of: thread) {
            result.insert(parent)
        }
        for earlier in 0..<index where threads[earlier] != thread && related(earlier) {
            result.insert(earlier)
        }
        return result
    }

    func dependent(_ a: Int, _ b: Int) -> Bool {
        if halts[a] || halts[b] { return true }
        return mayConflict(a, b) && Trace.conflict(accesses[a], accesses[b])
    }

    /// False when the masks show that steps `a` and `b` cannot conflict.
    func mayConflict(_ a: Int, _ b: Int) -> Bool {
        writeMask[a] & (readMask[b] | writeMask[b]) != 0 || writeMask[b] & readMask[a] != 0
    }

    static func conflict(_ a: [Access], _ b: [Access]) -> Bool {
        for x in a {
            for y in b where (x.kind != .read || y.kind != .read) && x.target.overlaps(y.target) {
                return true
            }
        }
        return false
    }

    /// Earlier steps in a race with step `index`: dependent, on another thread, and not
    /// ordered before it through some step in between.
    func races(of index: Int) -> [Int] {
        let thread = threads[index]
        var through = BitSet()
        var direct: [Int] = []
        self.direct[index].forEach { earlier in
            direct.append(earlier)
            through.formUnion(before[earlier])
        }
        return direct.filter { threads[$0] != thread && creator(of: thread) != $0 && !through.contains($0) }
    }

    /// Step `index` as a wakeup tree keeps it.
    func step(_ index: Int) -> WakeupStep {
        WakeupStep(thread: threads[index], accesses: accesses[index], halts: halts[index], spawns: spawns[index])
    }

    /// The sequence that reverses the race of `race` with `index`: the steps between
    /// them that do not depend on `race`, then step `index`.
    func reversal(of race: Int, with index: Int) -> [Int] {
        (race + 1..<index).filter { !before[$0].contains(race) } + [index]
    }

    /// How many interleavings this trace stands for: the orders of its steps that keep
    /// happens-before. Exact unless there are too many states to count (then a lower bound).
    func linearizations(stateLimit: Int = 200_000) -> (count: Int, exact: Bool) {
        let ids = Array(Set(threads)).sorted()
        let steps = ids.map { id in threads.indices.filter { threads[$0] == id } }
        var memo: [[Int]: Int] = [:]
        var exact = true
        func ways(_ position: [Int]) -> Int {
            if let known = memo[position] { return known }
            if memo.count >= stateLimit {
                exact = false
                return 1
            }
            var total = 0
            var any = false
            for (t, list) in steps.enumerated() where position[t] < list.count {
                let step = list[position[t]]
                // Ready when every step before it is already placed.
                let ready = steps.indices.allSatisfy { u in
                    u == t || (position[u]..<steps[u].count).allSatisfy { !before[step].contains(steps[u][$0]) }
                }
                guard ready else { continue }
                any = true
                var next = position
                next[t] += 1
                total = total.saturatingAdd(ways(next))
            }
            let result = any ? total : 1
            memo[position] = result
            return result
        }
        let count = ways(steps.map { _ in 0 })
        return (count, exact)
    }
}

/// A set of small integers (step indices). The first 64 live inline, so the sets of
/// an execution of up to 64 steps cost no allocation.
struct BitSet: Equatable {
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

    mutating func formUnion(_ other: BitSet) {
        low |= other.low
        guard !other.high.isEmpty else { return }
        while high.count < other.high.count { high.append(0) }
        for (i, word) in other.high.enumerated() { high[i] |= word }
    }

    /// Calls `body` with each member, in increasing order.
    func forEach(_ body: (Int) -> Void) {
        var word = low
        while word != 0 {
            body(word.trailingZeroBitCount)
            word &= word - 1
        }
        for (i, high) in high.enumerated() {
            var word = high
            while word != 0 {
                body((i + 1) * 64 + word.trailingZeroBitCount)
                word &= word - 1
            }
        }
    }
}
