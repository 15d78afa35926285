import RaceLabLanguage

/// Two accesses to the same variable or field from different threads, at least one
/// a write, with no synchronization ordering them: a data race, whether or not the
/// run it was seen in went wrong.
public struct DataRace: Hashable, Sendable {
    public struct Side: Hashable, Sendable {
        public var thread: String
        public var kind: Access.Kind
        public var line: Int?
        /// The step (1-based) of the execution where it was first seen.
        public var step: Int
    }

    /// `singleton`, `ViewController#1.cancelled`.
    public var target: String
    public var first: Side
    public var second: Side
}

/// Happens-before through synchronization only (Lamport; the data-race detectors of
/// ThreadSanitizer and Helgrind use the same order, with vector clocks): program
/// order, thread creation, and locks, the main queue, operations and queues, the
/// allocator and the output. Plain variables and fields do not order anything; two
/// conflicting accesses to them that this order leaves unordered are a data race.
extension Trace {
    static func isData(_ access: Access) -> Bool {
        switch access.tag {
        case .global, .field: return true
        default: return false
        }
    }

    static func isSync(_ access: Access) -> Bool {
        switch access.tag {
        case .lock, .mainQueue, .operation, .queue, .allocator, .output: return true
        // Specification, not synchronization: an invariant or a critical section orders
        // no accesses (a race inside one is still a race).
        case .global, .field, .object, .count, .observer, .section: return false
        }
    }

    /// Fills row `index` of `syncBefore`: the steps ordered before it by
    /// synchronization, given those of earlier steps.
    mutating func addSynchronizedBefore(_ index: Int) {
        let mask = info[index].syncMask
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

    /// Whether steps `a` and `b` touch a synchronizing target in common.
    @inline(__always)
    func synchronizes(_ a: Int, _ b: Int) -> Bool {
        for i in info[a].accesses where Trace.isSync(accessList[i]) {
            for j in info[b].accesses
            where Trace.isSync(accessList[j]) && Access.overlaps(accessList[i].targetBits, accessList[j].targetBits) {
                return true
            }
        }
        return false
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

/// Reporting data races while exploring: each one once, with both sides named.
extension Explorer {
    /// What makes two race reports the same: the target and the two sides (thread,
    /// kind, line), in either order. Cheap to hash; names are built only for new races.
    struct RaceKey: Hashable {
        /// The target, as `Access.targetBits`.
        var target: UInt64
        var first: Int
        var second: Int
    }

    /// The races reported so far. Nearly every race found is one already reported (it
    /// comes back in every execution, and a loop repeats it within a step), so a small
    /// table of recent keys, indexed by a cheap hash, answers most lookups before the set.
    struct SeenRaces {
        private var all: Set<RaceKey> = []
        private var recent = [RaceKey?](repeating: nil, count: 256)

        /// Adds `key`; true if it is new.
        mutating func insert(_ key: RaceKey) -> Bool {
            var mix = UInt64(bitPattern: Int64(key.first)) &* 0x9E37_79B9_7F4A_7C15
            mix ^= UInt64(bitPattern: Int64(key.second)) &* 0xC2B2_AE3D_27D4_EB4F
            mix ^= key.target &* 0x1656_67B1_9E37_79F9
            let slot = Int(truncatingIfNeeded: mix >> 56)
            if recent[slot] == key { return false }
            recent[slot] = key
            return all.insert(key).inserted
        }
    }

    func recordRaces(_ index: Int, trace: Trace, world: World, seen: inout SeenRaces, into result: inout Exploration) {
        trace.forEachDataRace(of: index) { earlier, first, second in
            func code(_ step: Int, _ access: Access) -> Int {
                (trace.threads[step] * 4 + (access.kind == .read ? 0 : 1)) * 1_000_000 + (trace.ranges[step]?.start.line ?? 0)
            }
            let a = code(earlier, first), b = code(index, second)
            let key = RaceKey(target: first.targetBits, first: min(a, b), second: max(a, b))
            guard seen.insert(key) else { return }
            let target = engine.name(of: first.target, in: world)
            func side(_ step: Int, _ access: Access) -> DataRace.Side {
                .init(thread: world.threadNames[trace.threads[step]], kind: access.kind, line: trace.ranges[step]?.start.line, step: step + 1)
            }
            result.dataRaces.append(DataRace(target: target, first: side(earlier, first), second: side(index, second)))
        }
    }
}
