import RaceLabLanguage

/// The steps of the execution being explored, with their happens-before order.
///
/// Step j happens before step k (j < k) when they are on the same thread, when j
/// created k's thread, or when they conflict (touch the same target, at least one of
/// them writing), or through a chain of these. A step that halts the program
/// conflicts with every step of another thread.
struct Trace {
    var threads: [ThreadID] = []
    /// Each step's accesses, as wakeup trees keep them (built once per step).
    var accesses: [StepAccesses] = []
    /// The same accesses in one flat array, step after step (each step's `accesses`
    /// range says where): comparing two steps then copies nothing.
    var accessList: [Access] = []
    /// What the trace keeps of each step besides its thread, all plain data in one
    /// array: appending or removing a step touches one array, not one per field.
    struct StepInfo {
        /// Where the step's accesses are in `accessList`.
        var accesses: Range<Int>
        var halts: Bool
        /// The threads the step started, as a bit set.
        var spawns: UInt64
        /// A quick over-approximation of what the step reads and writes (one bit per
        /// object or variable, modulo 64), so most pairs are found independent at once.
        var readMask: UInt64
        var writeMask: UInt64
        /// The same over-approximation for the synchronizing targets it touches.
        var syncMask: UInt64
    }

    var info: [StepInfo] = []
    /// Row k: the steps that happen before step k.
    var before = BitMatrix()
    /// Row k: the earlier steps step k depends on directly, except those ordered
    /// before it through a later one of them (see `append`).
    var direct = BitMatrix()
    /// Row k: the steps ordered before step k by synchronization alone.
    var syncBefore = BitMatrix()
    /// Where each step is in the script.
    var ranges: [SourceRange?] = []
    /// The step that created each thread, by thread (-1 for threads there from the start).
    var creator: [Int] = []

    var count: Int { threads.count }

    /// The bytes it holds, estimated: its steps and their accesses, and the three
    /// orders (a bit per pair of steps each: the most of it in a long execution).
    var estimatedBytes: Int {
        count * (MemoryLayout<StepInfo>.stride + MemoryLayout<StepAccesses>.stride + 40) + accessList.count * MemoryLayout<Access>.stride
            + before.bytes + direct.bytes + syncBefore.bytes
    }

    mutating func truncate(to length: Int) {
        while threads.count > length { removeLast() }
    }

    /// Takes the last step off. One step at a time, since that is nearly always what
    /// backtracking needs, and `removeLast()` costs a fraction of a range removal.
    private mutating func removeLast() {
        threads.removeLast()
        let index = threads.count
        for child in creator.indices where creator[child] == index { creator[child] = -1 }
        accesses.removeLast()
        let removed = info.removeLast()
        while accessList.count > removed.accesses.lowerBound { accessList.removeLast() }
        ranges.removeLast()
        before.removeLastRow()
        direct.removeLastRow()
        syncBefore.removeLastRow()
    }

    mutating func append(
        thread: ThreadID, accesses stepAccesses: [Access], halts halting: Bool, creates: Range<ThreadID> = 0..<0,
        range: SourceRange? = nil, detectRaces: Bool = false
    ) {
        let index = threads.count
        threads.append(thread)
        ranges.append(range)
        accesses.append(StepAccesses(stepAccesses))
        let start = accessList.count
        accessList.append(contentsOf: stepAccesses)
        var reads: UInt64 = 0, writes: UInt64 = 0
        for access in stepAccesses {
            let bit = Trace.bit(access)
            if access.isRead { reads |= bit } else { writes |= bit }
        }
        info.append(
            StepInfo(
                accesses: start..<accessList.count, halts: halting, spawns: creates.reduce(0) { $0 | 1 << UInt64($1) },
                readMask: reads, writeMask: writes, syncMask: detectRaces ? Trace.syncMask(stepAccesses) : 0))
        direct.appendRow()
        before.appendRow()
        // The thread's previous step, then each dependent earlier step, latest first.
        // A step already ordered before this one (through a later step it depends on)
        // is skipped: an edge from it would add nothing, and it is not in a race with
        // this step. So `direct` keeps only the dependencies no other one implies.
        var ordered = BitSet()
        if let previous = programOrderEdge(index) { addEdge(previous, to: index, ordered: &ordered) }
        var earlier = index
        while earlier > 0 {
            earlier -= 1
            if ordered.contains(earlier) { continue }
            let other = info[earlier]
            // The masks first: most pairs stop there.
            if halting || other.halts
                || (other.writeMask & (reads | writes)) | (writes & other.readMask) != 0
                    && dependent(earlier, index)
            {
                addEdge(earlier, to: index, ordered: &ordered)
            }
        }
        before.setRow(index, to: ordered)
        syncBefore.appendRow()
        if detectRaces { addSynchronizedBefore(index) }
        for child in creates {
            while creator.count <= child { creator.append(-1) }
            creator[child] = index
        }
    }

    func creator(of thread: ThreadID) -> Int? {
        thread < creator.count && creator[thread] >= 0 ? creator[thread] : nil
    }

    /// Whether step `a` happens before step `b`.
    func isBefore(_ a: Int, _ b: Int) -> Bool { before.contains(a, row: b) }

    /// The access's bit in the masks: one per global (modulo 32), one each for the main
    /// queue, the allocator and the output, and one per object (modulo 29).
    static func bit(_ access: Access) -> UInt64 {
        switch access.tag {
        case .global: return 1 << UInt64(access.id % 32)
        case .mainQueue: return 1 << 32
        case .allocator: return 1 << 33
        case .output: return 1 << 34
        default: return 1 << UInt64(35 + access.id % 29)
        }
    }

    /// The thread's previous step, or the step that created it: what comes before
    /// step `index` in program order.
    @inline(__always)
    func programOrderEdge(_ index: Int) -> Int? {
        let thread = threads[index]
        var previous = index - 1
        while previous >= 0 && threads[previous] != thread { previous -= 1 }
        return previous >= 0 ? previous : creator(of: thread)
    }

    /// Step `earlier` directly before step `index`, and everything before it too
    /// (gathered in `ordered`, which becomes the row of `before`).
    @inline(__always)
    private mutating func addEdge(_ earlier: Int, to index: Int, ordered: inout BitSet) {
        direct.insert(earlier, row: index)
        ordered.insert(earlier)
        before.addRow(earlier, to: &ordered)
    }

    @inline(__always)
    func dependent(_ a: Int, _ b: Int) -> Bool {
        if info[a].halts || info[b].halts { return true }
        guard mayConflict(a, b) else { return false }
        for i in info[a].accesses {
            for j in info[b].accesses where accessList[i].conflicts(with: accessList[j]) { return true }
        }
        return false
    }

    /// False when the masks show that steps `a` and `b` cannot conflict.
    func mayConflict(_ a: Int, _ b: Int) -> Bool {
        info[a].writeMask & (info[b].readMask | info[b].writeMask) != 0 || info[b].writeMask & info[a].readMask != 0
    }

    /// Earlier steps in a race with step `index`: dependent, on another thread, and not
    /// ordered before it through some step in between. `direct` holds only the
    /// dependencies that no later one orders, so these are its steps of other
    /// threads, except the step that created this thread.
    func races(of index: Int) -> BitSet {
        let thread = threads[index]
        let created = creator(of: thread)
        var result = BitSet()
        direct.forEach(index) { earlier in
            if threads[earlier] != thread && created != earlier { result.insert(earlier) }
        }
        return result
    }

    /// Whether every access of step `index` only reads.
    func onlyReads(_ index: Int) -> Bool {
        info[index].accesses.allSatisfy { accessList[$0].isRead }
    }

    /// Step `index` as a wakeup tree keeps it.
    func step(_ index: Int) -> WakeupStep {
        WakeupStep(thread: threads[index], accesses: accesses[index], halts: info[index].halts, spawns: info[index].spawns)
    }

    /// The sequence that reverses the race of `race` with `index`: the steps between
    /// them that do not depend on `race`, then step `index`.
    func reversal(of race: Int, with index: Int) -> BitSet {
        var result = BitSet()
        for step in race + 1..<index where !isBefore(race, step) { result.insert(step) }
        result.insert(index)
        return result
    }
}
