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
    static func isData(_ target: Access.Target) -> Bool {
        switch target {
        case .global, .field: return true
        default: return false
        }
    }

    static func isSync(_ target: Access.Target) -> Bool {
        switch target {
        case .lock, .mainQueue, .operation, .queue, .allocator, .output: return true
        case .global, .field, .object, .count: return false
        }
    }

    /// The steps ordered before `index` by synchronization, given those of earlier steps.
    func synchronizedBefore(_ index: Int) -> BitSet {
        var set = BitSet()
        let mask = syncMask[index]
        edges(index) { syncMask[$0] & mask != 0 && Trace.synchronizes(accesses[$0], accesses[index]) }.forEach { earlier in
            set.insert(earlier)
            set.formUnion(syncBefore[earlier])
        }
        return set
    }

    /// The synchronizing targets of a step, one bit each (modulo 64): two steps with
    /// no bit in common cannot synchronize.
    static func syncMask(_ accesses: [Access]) -> UInt64 {
        accesses.reduce(0) { isSync($1.target) ? $0 | bit($1.target) : $0 }
    }

    static func synchronizes(_ a: [Access], _ b: [Access]) -> Bool {
        a.contains { x in isSync(x.target) && b.contains { y in isSync(y.target) && x.target.overlaps(y.target) } }
    }

    /// Data races between step `index` and earlier steps: (earlier step, its access, this step's access).
    func dataRaces(of index: Int) -> [(Int, Access, Access)] {
        var result: [(Int, Access, Access)] = []
        let candidates = (0..<index).filter {
            threads[$0] != threads[index] && mayConflict($0, index) && !syncBefore[index].contains($0)
        }
        guard !candidates.isEmpty else { return [] }
        for access in accesses[index] where Trace.isData(access.target) {
            for earlier in candidates {
                for other in accesses[earlier] where Trace.isData(other.target) && other.target == access.target
                    && (other.kind != .read || access.kind != .read) {
                    result.append((earlier, other, access))
                }
            }
        }
        return result
    }
}
