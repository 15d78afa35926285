/// One step as optimal DPOR remembers it: which thread took it and what it touched.
/// Threads are deterministic, so a thread's next step from a given state is always
/// the same; that is what lets a step seen in one execution be scheduled in another.
struct WakeupStep: Equatable {
    var thread: ThreadID
    var accesses: StepAccesses
    var halts: Bool
    /// The threads this step started, as a bit set.
    var spawns: UInt64

    /// A step of `thread` not computed yet, standing in for it where only its thread
    /// counts: a branch of a tree without reduction, the last step of a reversal
    /// before it is replayed.
    static func pending(_ thread: ThreadID) -> WakeupStep {
        WakeupStep(thread: thread, accesses: [], halts: false, spawns: 0)
    }

    /// Whether the two steps' order matters: they touch the same thing, one of them
    /// writing, or one of them stops the program.
    func isDependent(_ other: WakeupStep) -> Bool {
        halts || other.halts || accesses.conflict(with: other.accesses)
    }

    /// Whether `self` must come before `later` when `self` is earlier in a sequence.
    func isOrdered(before later: WakeupStep) -> Bool {
        thread == later.thread || spawns & (1 << UInt64(later.thread)) != 0 || isDependent(later)
    }
}

/// The wakeup tree of optimal DPOR (Abdulla, Aronis, Jonsson and Sagonas, POPL 2014):
/// the step sequences still to explore from one node of the search, leftmost first.
/// A race found later adds the sequence that reverses it, unless a sequence already
/// in the tree (or a sleeping thread) stands for the same traces. Following these
/// sequences, instead of single threads, is what keeps a search from running into
/// a state where every thread is asleep: one execution per Mazurkiewicz trace.
struct WakeupTree: Equatable {
    struct Branch: Equatable {
        var step: WakeupStep
        var tree: WakeupTree
    }

    var branches: [Branch] = []

    var isEmpty: Bool { branches.isEmpty }

    /// An empty tree.
    init() {}

    /// A tree with one branch per thread, in order (no reduction).
    init(threads: [ThreadID]) {
        branches = threads.map { Branch(step: .pending($0), tree: WakeupTree()) }
    }

    /// A tree with one branch: `thread`'s next step.
    init(thread: ThreadID) {
        branches = [Branch(step: .pending(thread), tree: WakeupTree())]
    }

    /// Whether `sequence` can start with `step` (a thread's next step from the state
    /// where `sequence` starts): the thread's first step in it depends on nothing
    /// before it, or the thread is not in it and `step` commutes with all of it.
    /// Returns the sequence with that first step taken off, or nil.
    static func start(_ sequence: [WakeupStep], with step: WakeupStep) -> [WakeupStep]? {
        guard let taken = start(sequence, without: BitSet(), with: step) else { return nil }
        return sequence.indices.filter { !taken.contains($0) }.map { sequence[$0] }
    }

    /// `start` on what is left of `sequence` once the positions in `taken` are gone,
    /// without building that sequence (insertion does this on every branch it passes):
    /// returns `taken` with the position of `step` added (unchanged when the thread
    /// is not in the sequence), or nil.
    static func start(_ sequence: [WakeupStep], without taken: BitSet, with step: WakeupStep) -> BitSet? {
        guard case .yes(let result) = start(sequence, lastKnown: true, without: taken, with: step) else { return nil }
        return result
    }

    /// What `start` can tell of a sequence whose last step is not known yet, only its thread.
    enum PartialStart: Equatable {
        /// The step cannot start the sequence, whatever its last step turns out to be.
        case no
        /// It depends on the last step.
        case unknown
        /// The step starts it, whatever its last step; the positions taken so far.
        case yes(BitSet)
    }

    /// `start` on what is left of `sequence` without the positions in `taken`. When
    /// `lastKnown` is false, the sequence's last step stands for a step of its thread
    /// not computed yet: the answer is decided without it wherever it can be.
    static func start(_ sequence: [WakeupStep], lastKnown: Bool, without taken: BitSet, with step: WakeupStep) -> PartialStart {
        let unknown = lastKnown ? -1 : sequence.count - 1
        var undecided = false
        for position in sequence.indices where !taken.contains(position) && sequence[position].thread == step.thread {
            for earlier in 0..<position where !taken.contains(earlier) {
                if position == unknown {
                    // Ordered before a step not known yet: a halt or a spawn settles it now.
                    if sequence[earlier].halts || sequence[earlier].spawns & (1 << UInt64(step.thread)) != 0 { return .no }
                    undecided = true
                } else if sequence[earlier].isOrdered(before: sequence[position]) {
                    return .no
                }
            }
            if undecided { return .unknown }
            var result = taken
            result.insert(position)
            return .yes(result)
        }
        for position in sequence.indices where !taken.contains(position) {
            if position == unknown {
                if step.halts { return .no }
                undecided = true
            } else if step.isDependent(sequence[position]) {
                return .no
            }
        }
        return undecided ? .unknown : .yes(taken)
    }

    /// Whether inserting `sequence` would add nothing, whatever its last step (known
    /// only by its thread) turns out to be; false when that is not known without the
    /// step. Then the step need not be computed at all.
    func covers(_ sequence: [WakeupStep]) -> Bool {
        covers(sequence, without: BitSet(), left: sequence.count)
    }

    private func covers(_ sequence: [WakeupStep], without taken: BitSet, left: Int) -> Bool {
        guard left > 0 else { return true }
        for branch in branches {
            switch WakeupTree.start(sequence, lastKnown: false, without: taken, with: branch.step) {
            case .no: continue
            case .unknown: return false
            case .yes(let next):
                if branch.tree.isEmpty { return true }
                return branch.tree.covers(sequence, without: next, left: next == taken ? left : left - 1)
            }
        }
        return false
    }

    /// Adds `sequence` unless the tree already covers it: walking down, a branch whose
    /// step can start what is left of the sequence is followed; a leaf reached that
    /// way (or nothing left) means the sequence's traces will be explored anyway.
    /// Returns whether it added a branch.
    @discardableResult
    mutating func insert(_ sequence: [WakeupStep]) -> Bool {
        let added = insert(sequence, without: BitSet(), left: sequence.count)
        assert(isConsistent, "a wakeup tree breaks its invariant")
        return added
    }

    /// The tree's invariant, checked in debug builds after each insertion: the
    /// branches of a node start with steps of different threads (a thread has one
    /// next step from a state; a sequence starting with it is followed down the
    /// branch it would start, not added beside it).
    var isConsistent: Bool {
        var threads: UInt64 = 0
        for branch in branches {
            let bit: UInt64 = 1 << UInt64(branch.step.thread)
            guard threads & bit == 0, branch.tree.isConsistent else { return false }
            threads |= bit
        }
        return true
    }

    /// `insert` of what is left of `sequence` without the positions in `taken` (`left` of them).
    private mutating func insert(_ sequence: [WakeupStep], without taken: BitSet, left: Int) -> Bool {
        guard left > 0 else { return false }
        for index in branches.indices {
            guard let next = WakeupTree.start(sequence, without: taken, with: branches[index].step) else { continue }
            if branches[index].tree.isEmpty { return false }
            return branches[index].tree.insert(sequence, without: next, left: next == taken ? left : left - 1)
        }
        var tail = WakeupTree()
        for position in sequence.indices.reversed() where !taken.contains(position) {
            tail = WakeupTree(branches: [Branch(step: sequence[position], tree: tail)])
        }
        branches += tail.branches
        return true
    }

    private init(branches: [Branch]) {
        self.branches = branches
    }
}
