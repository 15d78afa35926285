/// Happens-before through synchronization only (Lamport; the data-race detectors of
/// ThreadSanitizer and Helgrind use the same order, with vector clocks): program
/// order, thread creation, and locks, the main queue, operations and queues, atomics
/// (as their memory orderings say: `atomicSynchronizes`) and the output. Plain
/// variables and fields do not order anything; two conflicting accesses to them that
/// this order leaves unordered are a data race.
///
/// The order is kept step by step, which is sound because no step both synchronizes
/// and touches a plain variable or field (checked in debug builds): were a store and a
/// synchronizing access one step, whatever the step synchronized with would be
/// ordered before the store as well, as a whole step is.
extension Trace {
    static func isData(_ access: Access) -> Bool {
        switch access.tag {
        case .global, .field: return !access.isAtomic
        default: return false
        }
    }

    static func isSync(_ access: Access) -> Bool {
        switch access.tag {
        case .lock, .mainQueue, .operation, .queue, .output, .pool: return true
        case .global, .field: return access.isAtomic
        // Memory management, not synchronization: creating or freeing an object (the
        // allocator: objects are numbered in the order they are made, so two steps
        // that allocate or free depend on each other) and retain counts order no
        // accesses, as malloc and free order none in a real program. Storing to a
        // reference releases, and may free, the object it replaced, in the same step:
        // two threads' racing stores each free an object, and were freeing a
        // synchronization, the second store would be ordered after the first, its race
        // hidden by a release the race itself caused.
        case .allocator, .count: return false
        // An object as a whole (made, freed, a condition's waiters): where it
        // synchronizes, its lock, operation or queue target does.
        case .object: return false
        // Specification, not synchronization: an invariant or a critical section orders
        // no accesses (a race inside one is still a race).
        case .observer, .section: return false
        // Time, not synchronization: a task that sleeps until another has written is
        // ordered after it by luck of timing, as a real one is; the race stays a race.
        case .clock: return false
        }
    }

    /// Fills row `index` of `syncBefore`: the steps ordered before it by
    /// synchronization, given those of earlier steps.
    mutating func addSynchronizedBefore(_ index: Int) {
        let mask = info[index].syncMask
        assert(mask == 0 || !info[index].accesses.contains { Trace.isData(accessList[$0]) }, "a step synchronizes and touches data")
        var ordered = BitSet()
        if let previous = programOrderEdge(index) {
            ordered.insert(previous)
            syncBefore.addRow(previous, to: &ordered)
        }
        // A step that touches no synchronizing target is ordered by program order
        // alone. Otherwise, latest first, each earlier step it synchronizes with and
        // is not ordered after already.
        if mask != 0 {
            var earlier = index
            while earlier > 0 {
                earlier -= 1
                if !ordered.contains(earlier) && info[earlier].syncMask & mask != 0 && synchronizes(earlier, index) {
                    ordered.insert(earlier)
                    syncBefore.addRow(earlier, to: &ordered)
                }
            }
        }
        syncBefore.setRow(index, to: ordered)
    }

    /// The synchronizing targets of a step, one bit each (modulo 64): two steps with
    /// no bit in common cannot synchronize.
    static func syncMask(_ accesses: [Access]) -> UInt64 {
        accesses.reduce(0) { isSync($1) ? $0 | bit($1) : $0 }
    }

    /// Whether step `a` synchronizes with the later step `b`: they touch a
    /// synchronizing target in common, one of them more than reading it (two reads
    /// order nothing: two loads of an atomic, or two looks at a semaphore's count),
    /// and, when both are accesses to an atomic, their orderings say so
    /// (`atomicSynchronizes`).
    @inline(__always)
    func synchronizes(_ a: Int, _ b: Int) -> Bool {
        for i in info[a].accesses where Trace.isSync(accessList[i]) {
            let x = accessList[i]
            for j in info[b].accesses
            where Trace.isSync(accessList[j]) && x.conflicts(with: accessList[j]) {
                let y = accessList[j]
                if !x.isAtomic || !y.isAtomic || atomicSynchronizes(a, x, b, y) { return true }
            }
        }
        return false
    }

    /// Two conflicting accesses to one atomic, `x` by step `a` and then `y` by step
    /// `b`: both sequentially consistent (ordered as they happen, as a lock orders), or
    /// a write that releases and a read that acquires and sees it or a later
    /// read-modify-write (the release sequence: every write in between reads and
    /// writes in one step). A relaxed access orders nothing (`MemoryOrdering`).
    func atomicSynchronizes(_ a: Int, _ x: Access, _ b: Int, _ y: Access) -> Bool {
        let sc = MemoryOrdering.sequentiallyConsistent
        if x.ordering == sc && y.ordering == sc { return true }
        guard !x.isRead && x.ordering.releases && y.readsValue && y.ordering.acquires else { return false }
        let bit = Trace.bit(x), target = x.targetBits
        for step in a + 1..<b where info[step].writeMask & bit != 0 {
            for k in info[step].accesses {
                let other = accessList[k]
                if other.targetBits == target && !other.isRead && !other.isReadModifyWrite { return false }
            }
        }
        return true
    }

    /// Data races between step `index` and earlier steps: calls `body` with the earlier
    /// step, its access and this step's access, for each.
    @inline(__always)
    func forEachDataRace(of index: Int, _ body: (Int, Access, Access) -> Void) {
        for i in info[index].accesses where Trace.isData(accessList[i]) {
            let access = accessList[i]
            for earlier in 0..<index
            where threads[earlier] != threads[index] && mayConflict(earlier, index) && !syncBefore.contains(earlier, row: index) {
                for j in info[earlier].accesses {
                    let other = accessList[j]
                    if other.targetBits == access.targetBits && !(other.isRead && access.isRead) {
                        body(earlier, other, access)
                    }
                }
            }
        }
    }
}
