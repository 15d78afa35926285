/// What the threads know of one access to a variable or field, along a path of the
/// stateful search's graph (`StatefulSearch.recordOrderedRaces`): which threads have
/// it ordered before their next step, and which channels carry it to the steps that
/// read them. It is the happens-before order `Trace.addSynchronizedBefore` keeps for
/// the stateless searches, seen from one access: what one access can race with later
/// depends only on the path and on this, so the graph is walked once for each access
/// with no more than this beside each state, not with everything every thread knows.
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

    /// What a synchronizing target hands on to the steps after it, as
    /// `Trace.synchronizes` pairs them: after any write (`writes`: what a read learns)
    /// or any access (`all`: what a write learns); for an atomic, after its
    /// sequentially consistent writes or accesses, and what its release sequence
    /// carries (`release`: what an acquiring read learns).
    enum Way: Int, Hashable {
        case writes, all, scWrites, scAll, release
    }

    /// A synchronizing target and the way it hands on what it knows.
    struct Channel: Hashable {
        var target: UInt64
        var way: Way

        static func < (a: Channel, b: Channel) -> Bool { (a.target, a.way.rawValue) < (b.target, b.way.rawValue) }
    }

    /// A bit per thread: the access's own thread's always set.
    private(set) var knowers: UInt64
    /// Sorted.
    private(set) var channels: [Channel] = []

    /// An access `thread` has just made: only it knows it.
    init(madeBy thread: ThreadID) {
        knowers = 1 << UInt64(thread)
    }

    func knows(_ thread: ThreadID) -> Bool { knowers & 1 << UInt64(thread) != 0 }

    /// After a step of `thread` that made `syncs` (its synchronizing accesses) and
    /// started the threads in `spawned`: what it learns, what it hands on, and what the
    /// threads it started begin with. `atomicsMeetLocks`: whether a lock can be an
    /// atomic's object (`synchronized(x)` on an object with atomic fields): only then
    /// do atomics hand on what a lock of their object learns.
    mutating func step(_ thread: ThreadID, syncs: some Collection<Access>, spawned: UInt64, atomicsMeetLocks: Bool) {
        for access in syncs where !knows(thread) && learns(access) { knowers |= 1 << UInt64(thread) }
        for access in syncs { handOn(thread, access, atomicsMeetLocks: atomicsMeetLocks) }
        if knows(thread) { knowers |= spawned }
    }

    /// Whether a step making `access` learns what a channel here carries.
    private func learns(_ access: Access) -> Bool {
        let target = access.targetBits
        return channels.contains { channel in
            switch channel.way {
            case .writes, .all:
                let atomic = channel.target & Access.atomicBit != 0
                return !(atomic && access.isAtomic) && Access.overlaps(channel.target, target) && (channel.way == .writes) == access.isRead
            case .scWrites, .scAll:
                return channel.target == target && access.ordering == .sequentiallyConsistent && (channel.way == .scWrites) == access.isRead
            case .release:
                return channel.target == target && access.readsValue && access.ordering.acquires
            }
        }
    }

    /// What `thread` hands on through `access`, after it.
    private mutating func handOn(_ thread: ThreadID, _ access: Access, atomicsMeetLocks: Bool) {
        let target = access.targetBits, carries = knows(thread)
        if !access.isAtomic || atomicsMeetLocks {
            if carries { insert(Channel(target: target, way: .all)) }
            if carries && !access.isRead { insert(Channel(target: target, way: .writes)) }
        }
        guard access.isAtomic else { return }
        if access.ordering == .sequentiallyConsistent && carries {
            insert(Channel(target: target, way: .scAll))
            if !access.isRead { insert(Channel(target: target, way: .scWrites)) }
        }
        guard !access.isRead else { return }
        let release = Channel(target: target, way: .release)
        if access.isReadModifyWrite {
            // A read-modify-write continues the release sequence (and, releasing, heads one).
            if access.ordering.releases && carries { insert(release) }
        } else {
            // A plain store ends every release sequence before it.
            channels.removeAll { $0 == release }
            if access.ordering.releases && carries { insert(release) }
        }
    }

    private mutating func insert(_ channel: Channel) {
        var low = 0, high = channels.count
        while low < high {
            let middle = (low + high) / 2
            if channels[middle] < channel { low = middle + 1 } else { high = middle }
        }
        if low == channels.count || channels[low] != channel { channels.insert(channel, at: low) }
    }
}

extension Program {
    /// Whether a thread can see when objects are made or freed: a weak reference
    /// (nil once its object is freed), or `created()` and `alive()`.
    var observesLifetimes: Bool {
        globals.contains(where: { $0.isWeak }) || classes.contains { $0.fieldIsWeak.contains(true) }
            || codes.contains { code in
                !code.weakSlots.isEmpty
                    || code.instructions.contains {
                        if case .builtin(let builtin, _, _) = $0 { return builtin == .created || builtin == .alive }
                        return false
                    }
            }
    }
}
