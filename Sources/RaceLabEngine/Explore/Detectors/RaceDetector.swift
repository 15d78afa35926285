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

extension DataRace {
    /// Whether two reports say the same, steps aside: the target, and the two sides
    /// (thread name, kind, line) in either order.
    func says(_ other: DataRace) -> Bool {
        func same(_ a: Side, _ b: Side) -> Bool { a.thread == b.thread && a.kind == b.kind && a.line == b.line }
        return target == other.target
            && ((same(first, other.first) && same(second, other.second)) || (same(first, other.second) && same(second, other.first)))
    }
}

extension Exploration {
    /// Adds a race unless one saying the same is there: the search tells races apart
    /// by thread number, and a thread made during the run (a queue's block) can have
    /// another number, but not another name, in another interleaving.
    mutating func addDataRace(_ race: DataRace) {
        if !dataRaces.contains(where: { $0.says(race) }) { dataRaces.append(race) }
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

        /// The key of a race between `a` (by `threadA`, on `lineA`) and `b`, either way round.
        init(_ a: Access, by threadA: ThreadID, line lineA: Int?, _ b: Access, by threadB: ThreadID, line lineB: Int?) {
            func code(_ thread: ThreadID, _ access: Access, _ line: Int?) -> Int {
                (thread * 4 + (access.kind == .read ? 0 : 1)) * 1_000_000 + (line ?? 0)
            }
            let x = code(threadA, a, lineA), y = code(threadB, b, lineB)
            self.target = a.targetBits
            self.first = min(x, y)
            self.second = max(x, y)
        }
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

        func contains(_ key: RaceKey) -> Bool { all.contains(key) }
    }

    func recordRaces(_ index: Int, trace: Trace, world: World, seen: inout SeenRaces, into result: inout Exploration) {
        trace.forEachDataRace(of: index) { earlier, first, second in
            let key = RaceKey(
                first, by: trace.threads[earlier], line: trace.ranges[earlier]?.start.line, second, by: trace.threads[index],
                line: trace.ranges[index]?.start.line)
            guard seen.insert(key) else { return }
            let target = engine.name(of: first.target, in: world)
            func side(_ step: Int, _ access: Access) -> DataRace.Side {
                .init(thread: world.threadNames[trace.threads[step]], kind: access.kind, line: trace.ranges[step]?.start.line, step: step + 1)
            }
            result.addDataRace(DataRace(target: target, first: side(earlier, first), second: side(index, second)))
        }
    }

    /// A race the stateful search finds by following an access along the graph
    /// (`StatefulSearch.recordOrderedRaces`): `earlier`'s access, not ordered before `later`'s step from
    /// the state at `depth`.
    func recordOrderedRace(
        _ earlier: (thread: ThreadID, access: Access, line: Int?), _ later: (thread: ThreadID, access: Access, line: Int?), at depth: Int,
        world: World, seen: inout SeenRaces, into result: inout Exploration
    ) {
        let key = RaceKey(earlier.access, by: earlier.thread, line: earlier.line, later.access, by: later.thread, line: later.line)
        guard seen.insert(key) else { return }
        func side(_ thread: ThreadID, _ access: Access, _ line: Int?) -> DataRace.Side {
            .init(thread: world.threadNames[thread], kind: access.kind, line: line, step: depth + 1)
        }
        result.addDataRace(
            DataRace(
                target: engine.name(of: later.access.target, in: world), first: side(earlier.thread, earlier.access, earlier.line),
                second: side(later.thread, later.access, later.line)))
    }

    /// The races of the step that stopped the program (step `depth` of `trace`, taken
    /// from `node`) with the steps the other threads could have taken in its place:
    /// both could run from one state, so nothing orders them, yet no run takes the
    /// other step after it (two writes that each break an invariant).
    func recordRacesOfHalt(at depth: Int, trace: Trace, from node: StatelessSearch.Node, log: EventLog, seen: inout SeenRaces, into result: inout Exploration) {
        let thread = trace.threads[depth]
        let halting = (thread: thread, accesses: Array(trace.accesses[depth]), line: trace.ranges[depth]?.start.line)
        guard halting.accesses.contains(where: Trace.isData) else { return }
        for other in node.enabledThreads where other != thread {
            var next = node.world
            engine.quietStep(&next, thread: other, log: log)
            recordCoenabledRaces([halting, (other, log.accesses, log.range?.start.line)], at: depth, world: next, seen: &seen, into: &result)
        }
    }

    /// Data races between steps that can both run from one state: conflicting
    /// accesses to a variable or field (one a write) by different threads.
    func recordCoenabledRaces(
        _ stepped: [(thread: ThreadID, accesses: [Access], line: Int?)], at depth: Int, world: World, seen: inout SeenRaces,
        into result: inout Exploration
    ) {
        for i in stepped.indices {
            for j in stepped.indices where j > i {
                let a = stepped[i], b = stepped[j]
                for first in a.accesses where Trace.isData(first) {
                    for second in b.accesses where second.targetBits == first.targetBits && !(first.isRead && second.isRead) {
                        guard seen.insert(RaceKey(first, by: a.thread, line: a.line, second, by: b.thread, line: b.line)) else { continue }
                        let side = { (thread: ThreadID, access: Access, line: Int?) in
                            DataRace.Side(thread: world.threadNames[thread], kind: access.kind, line: line, step: depth + 1)
                        }
                        result.addDataRace(
                            DataRace(
                                target: engine.name(of: first.target, in: world), first: side(a.thread, first, a.line),
                                second: side(b.thread, second, b.line)))
                    }
                }
            }
        }
    }
}
