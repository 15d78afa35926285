/// What the race detector knows in a state of the stateful search: the order
/// `Trace.addSynchronizedBefore` keeps for the stateless searches, in a form that
/// stays finite, so that it can go with a visit to a state.
///
/// Kept only where it is needed (`isNeeded`). Elsewhere the stateful search reports
/// two conflicting steps that can both run from one state, which finds a race in
/// every racy program (the first race of any execution can be brought side by side),
/// though not every race the stateless searches list: `data` in a flag published
/// with a plain variable is written and read only on either side of the flag's own
/// race. Following the order on every program would list those too, at a price the
/// looping programs it is for cannot pay: two paths to one world that order
/// different accesses are two visits, 39 to a state on The Deadlock Empire's
/// barrier (60 s instead of 1.8 s).
///
/// The form: each thread's accesses to variables and fields, only the latest of each
/// (target, kind, line), oldest first (the latest is the least ordered: whoever has
/// it ordered before them has the earlier ones too); and for each thread and each
/// synchronizing target, how many of each thread's accesses, from the oldest, are
/// ordered before it (what a vector clock says, counted in accesses). Everything here
/// is a pure function of the path, so two paths that reach the same world with the
/// same knowledge are one state; a finished thread knows everything (it races with
/// nothing more), the records every other thread has ordered before it are
/// forgotten, and a final state keeps none (`StatefulSearch` leaves it out of the key
/// there).
struct HappensBefore: Hashable {
    /// Whether two conflicting steps that can both run from one state may miss every
    /// race of a racy program, because something that is not synchronization decides
    /// which runs first: with weaker orderings, a relaxed store and the relaxed load
    /// that sees it order nothing, so `data = 42` before the store and `let d = data`
    /// after the load race, yet never both run from one state; under a
    /// strict-priority scheduler, the higher thread's write always runs before the
    /// lower one's; where a thread sees memory management (`observesLifetimes`), a
    /// block that writes only once its `[weak b]` is nil runs after the release that
    /// freed it, which orders nothing (a release caused by a race must not hide it).
    static func isNeeded(for program: Program) -> Bool {
        !program.weakOrderings.isEmpty || program.strictPriority || program.observesLifetimes
    }

    /// One access to a variable or field, as a race report tells it apart.
    struct Record: Hashable {
        var access: Access
        /// The step's line, or -1.
        var line: Int
    }

    /// What a synchronizing target hands on to the steps after it, as
    /// `Trace.synchronizes` pairs them: after any write (`writes`: what a read learns)
    /// or any access (`all`: what a write learns); for an atomic, after its
    /// sequentially consistent writes or accesses, and what its release sequence
    /// carries (`release`: what an acquiring read learns).
    enum Way: Int, Hashable {
        case writes, all, scWrites, scAll, release
    }

    struct Channel: Hashable {
        var target: UInt64
        var way: Way
        var known: [Int]
    }

    /// By thread: its records, oldest first.
    private(set) var records: [[Record]]
    /// By thread, then by thread: how many of the latter's records are ordered before
    /// the former's next step (a thread's own entry counts all of its own).
    private(set) var known: [[Int]]
    /// Sorted by target, then way; none knows nothing.
    private(set) var channels: [Channel] = []
    /// Whether a lock can be an atomic's object (`synchronized(x)` on an object with
    /// atomic fields): only then do atomics hand on what a lock of their object learns.
    let atomicsMeetLocks: Bool

    init(threads: Int, program: Program) {
        records = Array(repeating: [], count: threads)
        known = Array(repeating: Array(repeating: 0, count: threads), count: threads)
        atomicsMeetLocks = program.codes.contains { $0.instructions.contains(.monitorEnter) }
    }

    /// The bytes it holds, estimated (what a waiting visit adds to its world's).
    var estimatedBytes: Int {
        let arrays = records.count + known.count + channels.count
        let records = records.reduce(0) { $0 + $1.count } * MemoryLayout<Record>.stride
        let known = known.count * known.count * 8 + channels.count * (self.known.count * 8 + MemoryLayout<Channel>.stride)
        return records + known + arrays * 32
    }

    /// Calls `body` with each race that `thread`'s step making `accesses` would make
    /// from here: the other thread, its access and line, and this step's access.
    func forEachRace(of thread: ThreadID, _ accesses: some Collection<Access>, _ body: (ThreadID, Record, Access) -> Void) {
        for access in accesses where Trace.isData(access) {
            let target = access.targetBits
            for other in records.indices where other != thread {
                let list = records[other]
                for index in known[thread][other]..<list.count
                where list[index].access.targetBits == target && !(list[index].access.isRead && access.isRead) {
                    body(other, list[index], access)
                }
            }
        }
    }

    /// After `thread`'s step that made `accesses` on `line`: what it learns, what it
    /// did, what it hands on, and what the threads it started begin with.
    mutating func step(_ thread: ThreadID, _ accesses: [Access], line: Int?, threads: Int, finished: Bool) {
        let before = records.count
        if threads > before {
            for index in known.indices {
                known[index] += Array(repeating: known[index].first == Self.finished ? Self.finished : 0, count: threads - before)
            }
            for index in channels.indices { channels[index].known += Array(repeating: 0, count: threads - before) }
            records += Array(repeating: [], count: threads - before)
            known += Array(repeating: Array(repeating: 0, count: threads), count: threads - before)
        }
        for access in accesses where Trace.isSync(access) { learn(thread, access) }
        for access in accesses where Trace.isData(access) { add(Record(access: access, line: line ?? -1), by: thread) }
        known[thread][thread] = records[thread].count
        for access in accesses where Trace.isSync(access) { handOn(thread, access) }
        for child in before..<threads { known[child] = known[thread] }
        if finished { known[thread] = Array(repeating: Self.finished, count: threads) }
        forget()
    }

    /// A finished thread's row: it takes no more steps, so it knows everything.
    private static let finished = Int.max

    /// Drops each thread's oldest records that every other thread has ordered before
    /// its next step (a thread started later starts from what its starter knows):
    /// they can race with nothing any more. Two paths that differ only in what all
    /// threads know are then one state.
    private mutating func forget() {
        for owner in records.indices where !records[owner].isEmpty {
            var known = records[owner].count
            for holder in self.known.indices where holder != owner { known = min(known, self.known[holder][owner]) }
            guard known > 0 else { continue }
            records[owner].removeFirst(known)
            for holder in self.known.indices where self.known[holder][owner] != Self.finished {
                self.known[holder][owner] = max(0, self.known[holder][owner] - known)
            }
            for index in channels.indices { channels[index].known[owner] = max(0, channels[index].known[owner] - known) }
        }
        channels.removeAll { $0.known.allSatisfy { $0 == 0 } }
    }

    /// What `thread` learns through `access`, before it.
    private mutating func learn(_ thread: ThreadID, _ access: Access) {
        let target = access.targetBits
        for channel in channels {
            let learns: Bool
            switch channel.way {
            case .writes, .all:
                let atomic = channel.target & Access.atomicBit != 0
                learns =
                    !(atomic && access.isAtomic) && Access.overlaps(channel.target, target) && (channel.way == .writes) == access.isRead
            case .scWrites, .scAll:
                learns =
                    channel.target == target && access.ordering == .sequentiallyConsistent && (channel.way == .scWrites) == access.isRead
            case .release:
                learns = channel.target == target && access.readsValue && access.ordering.acquires
            }
            if learns { Self.join(&known[thread], channel.known) }
        }
    }

    /// What `thread` hands on through `access`, after it.
    private mutating func handOn(_ thread: ThreadID, _ access: Access) {
        let target = access.targetBits, mine = known[thread]
        if !access.isAtomic || atomicsMeetLocks {
            update(target, .all) { Self.join(&$0, mine) }
            if !access.isRead { update(target, .writes) { Self.join(&$0, mine) } }
        }
        guard access.isAtomic else { return }
        if access.ordering == .sequentiallyConsistent {
            update(target, .scAll) { Self.join(&$0, mine) }
            if !access.isRead { update(target, .scWrites) { Self.join(&$0, mine) } }
        }
        guard !access.isRead else { return }
        if access.isReadModifyWrite {
            // A read-modify-write continues the release sequence (and, releasing, heads one).
            if access.ordering.releases { update(target, .release) { Self.join(&$0, mine) } }
        } else {
            // A plain store ends every release sequence before it.
            let releases = access.ordering.releases
            update(target, .release) { $0 = releases ? mine : Array(repeating: 0, count: mine.count) }
        }
    }

    /// Adds `record` as `thread`'s latest, in place of an earlier one that says the same.
    private mutating func add(_ record: Record, by thread: ThreadID) {
        if let old = records[thread].firstIndex(of: record) {
            records[thread].remove(at: old)
            for holder in known.indices where holder != thread && known[holder][thread] > old && known[holder][thread] != Self.finished {
                known[holder][thread] -= 1
            }
            for index in channels.indices where channels[index].known[thread] > old { channels[index].known[thread] -= 1 }
            channels.removeAll { $0.known.allSatisfy { $0 == 0 } }
        }
        records[thread].append(record)
    }

    /// Changes the channel of `target` and `way` (made if missing), then drops it if
    /// it knows nothing.
    private mutating func update(_ target: UInt64, _ way: Way, _ change: (inout [Int]) -> Void) {
        let index = channels.firstIndex { ($0.target, $0.way.rawValue) >= (target, way.rawValue) } ?? channels.count
        if index < channels.count, channels[index].target == target, channels[index].way == way {
            change(&channels[index].known)
            if channels[index].known.allSatisfy({ $0 == 0 }) { channels.remove(at: index) }
        } else {
            var known = Array(repeating: 0, count: records.count)
            change(&known)
            if known.contains(where: { $0 != 0 }) { channels.insert(Channel(target: target, way: way, known: known), at: index) }
        }
    }

    private static func join(_ known: inout [Int], _ other: [Int]) {
        for index in known.indices where other[index] > known[index] { known[index] = other[index] }
    }

    /// The numbers that say it all, for the state's key (`StateEncoder.append`).
    func forEachNumber(_ body: (UInt64) -> Void) {
        for list in records {
            body(UInt64(list.count))
            for record in list {
                body(record.access.targetBits)
                body(UInt64(Access.Kind.allCases.firstIndex(of: record.access.kind)!))
                body(UInt64(bitPattern: Int64(record.line + 1)))
            }
        }
        for row in known {
            for count in row { body(UInt64(count)) }
        }
        body(UInt64(channels.count))
        for channel in channels {
            body(channel.target)
            body(UInt64(channel.way.rawValue))
            for count in channel.known { body(UInt64(count)) }
        }
    }
}

extension Program {
    /// Whether the stateful search follows the order of happens-before to find this
    /// program's races (`HappensBefore.isNeeded`).
    public var racesNeedOrder: Bool { HappensBefore.isNeeded(for: self) }

    /// Whether a thread can see when objects are made or freed: a weak reference
    /// (nil once its object is freed), or `created()` and `alive()`.
    var observesLifetimes: Bool {
        globals.contains(where: \.isWeak) || classes.contains { $0.fieldIsWeak.contains(true) }
            || codes.contains { code in
                !code.weakSlots.isEmpty
                    || code.instructions.contains {
                        if case .builtin(let builtin, _, _) = $0 { return builtin == .created || builtin == .alive }
                        return false
                    }
            }
    }
}
