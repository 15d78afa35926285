/// One step as optimal DPOR remembers it: which thread took it and what it touched.
/// Threads are deterministic, so a thread's next step from a given state is always
/// the same; that is what lets a step seen in one execution be scheduled in another.
struct WakeupStep: Equatable {
    var thread: ThreadID
    var accesses: [Access]
    var halts: Bool
    /// The threads this step started, as a bit set.
    var spawns: UInt64

    /// Whether the two steps' order matters: they touch the same thing, one of them
    /// writing, or one of them stops the program.
    func isDependent(_ other: WakeupStep) -> Bool {
        halts || other.halts || Trace.conflict(accesses, other.accesses)
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

    /// A tree with one branch per thread, in order (no reduction).
    init(threads: [ThreadID] = []) {
        branches = threads.map { Branch(step: WakeupStep(thread: $0, accesses: [], halts: false, spawns: 0), tree: WakeupTree()) }
    }

    /// Whether `sequence` can start with `step` (a thread's next step from the state
    /// where `sequence` starts): the thread's first step in it depends on nothing
    /// before it, or the thread is not in it and `step` commutes with all of it.
    /// Returns the sequence with that first step taken off, or nil.
    static func start(_ sequence: [WakeupStep], with step: WakeupStep) -> [WakeupStep]? {
        if let first = sequence.firstIndex(where: { $0.thread == step.thread }) {
            guard !sequence[..<first].contains(where: { $0.isOrdered(before: sequence[first]) }) else { return nil }
            var rest = sequence
            rest.remove(at: first)
            return rest
        }
        return sequence.contains(where: step.isDependent) ? nil : sequence
    }

    /// Adds `sequence` unless the tree already covers it: walking down, a branch whose
    /// step can start what is left of the sequence is followed; a leaf reached that
    /// way (or nothing left) means the sequence's traces will be explored anyway.
    mutating func insert(_ sequence: [WakeupStep]) {
        guard !sequence.isEmpty else { return }
        for index in branches.indices {
            guard let rest = WakeupTree.start(sequence, with: branches[index].step) else { continue }
            if branches[index].tree.isEmpty { return }
            branches[index].tree.insert(rest)
            return
        }
        var tail = WakeupTree()
        for step in sequence.reversed() { tail = WakeupTree(branches: [Branch(step: step, tree: tail)]) }
        branches += tail.branches
    }

    private init(branches: [Branch]) {
        self.branches = branches
    }
}
