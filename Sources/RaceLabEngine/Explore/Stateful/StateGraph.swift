/// The state graph the stateful search builds: states by number (as `StateStore`
/// numbers them), and for each its steps, one per thread that can run there, each
/// to the state it leads to. Numbers only, nine bytes a step and nine a state: the
/// worlds themselves are gone once expanded.
struct StateGraph {
    /// Each state's first step in `targets`, and how many it has (0 for a final state
    /// and for one not expanded yet).
    private var firstEdge: [UInt32] = []
    private var edgeCounts: [UInt8] = []
    /// Per step: the state it leads to, and its thread (bits 0-6) and whether it ran
    /// a `progress` statement (bit 7).
    private var targets: [UInt32] = []
    private var labels: [UInt8] = []
    /// Per step: what it did, as `StepEffects` numbers it.
    private var effects: [UInt32] = []
    /// Per state: the outcome (an index in `Exploration.outcomes`) of a final state, else -1.
    var final: [Int32] = []

    var stateCount: Int { final.count }
    /// Steps in the graph (a revisited state's old copies not counted).
    private(set) var edgeCount = 0
    /// Counts, not capacities, as `StateStore.bytes`.
    var bytes: Int { firstEdge.count * 4 + edgeCounts.count + targets.count * 8 + labels.count + final.count * 4 }

    mutating func addState() {
        firstEdge.append(0)
        edgeCounts.append(0)
        final.append(-1)
    }

    /// The steps added next are `state`'s: they follow one another in the arrays.
    /// A state expanded again (a revisit under sleep sets) has its earlier steps
    /// copied to the end first, so its steps stay together.
    mutating func beginEdges(of state: Int) {
        let earlier = edges(of: state)
        firstEdge[state] = UInt32(targets.count)
        for edge in earlier {
            targets.append(targets[edge])
            labels.append(labels[edge])
            effects.append(effects[edge])
        }
    }

    /// A step of `state`, the last state `beginEdges` began.
    mutating func addEdge(from state: Int, to target: Int, thread: ThreadID, progress: Bool, effect: UInt32 = 0) {
        assert(Int(firstEdge[state]) + Int(edgeCounts[state]) == targets.count, "a state's steps must be added together")
        targets.append(UInt32(target))
        labels.append(UInt8(thread) | (progress ? 0x80 : 0))
        effects.append(effect)
        edgeCounts[state] += 1
        edgeCount += 1
    }

    /// The steps of `state`, as indexes into the step arrays.
    func edges(of state: Int) -> Range<Int> {
        let start = Int(firstEdge[state])
        return start..<start + Int(edgeCounts[state])
    }

    func target(_ edge: Int) -> Int { Int(targets[edge]) }
    func thread(_ edge: Int) -> ThreadID { Int(labels[edge] & 0x7F) }
    func isProgress(_ edge: Int) -> Bool { labels[edge] & 0x80 != 0 }
    func effect(_ edge: Int) -> UInt32 { effects[edge] }

    /// Whether `thread` can run in `state` (it has a step there).
    func isEnabled(_ thread: ThreadID, in state: Int) -> Bool {
        edges(of: state).contains { self.thread($0) == thread }
    }

    /// The graph's invariants, checked in debug builds once a search is done: every
    /// step leads to a stored state, a final state has no step, no state has two
    /// steps of one thread, and a complete graph expanded every non-final state.
    func isConsistent(complete: Bool) -> Bool {
        for state in 0..<stateCount {
            var threads: UInt64 = 0
            for edge in edges(of: state) {
                guard target(edge) < stateCount, threads & (1 << UInt64(thread(edge))) == 0 else { return false }
                threads |= 1 << UInt64(thread(edge))
            }
            if final[state] >= 0 && threads != 0 { return false }
            if complete && final[state] < 0 && threads == 0 { return false }
        }
        return true
    }

    // MARK: - Shortest paths

    /// A breadth-first tree from the start: each state's distance and the step that
    /// first reached it, so a path to it is a shortest one.
    struct Tree {
        /// States in the order breadth-first search reached them (nearest first).
        var order: [Int] = []
        var parentEdge: [Int32]
        /// The state that step leaves from.
        var parent: [Int32]
        var distance: [Int32]
        var depth = 0

        /// The threads of a shortest path from the start to `state`.
        func path(to state: Int, in graph: StateGraph) -> [ThreadID] {
            var threads: [ThreadID] = []
            var current = state
            while parentEdge[current] >= 0 {
                let edge = Int(parentEdge[current])
                threads.append(graph.thread(edge))
                current = Int(parent[current])
            }
            return threads.reversed()
        }
    }

    func breadthFirst() -> Tree {
        let none = [Int32](repeating: -1, count: stateCount)
        var tree = Tree(parentEdge: none, parent: none, distance: none)
        guard stateCount > 0 else { return tree }
        tree.distance[0] = 0
        tree.order.append(0)
        var next = 0
        while next < tree.order.count {
            let state = tree.order[next]
            next += 1
            for edge in edges(of: state) {
                let target = target(edge)
                if tree.distance[target] < 0 {
                    tree.distance[target] = tree.distance[state] + 1
                    tree.parentEdge[target] = Int32(edge)
                    tree.parent[target] = Int32(state)
                    tree.order.append(target)
                }
            }
        }
        tree.depth = Int(tree.distance.max() ?? 0)
        return tree
    }

    // MARK: - Counting paths

    /// How many paths lead from the start to each state (each a distinct schedule:
    /// two threads' steps into one state are two), or nil when the graph has a cycle
    /// (then some state has endlessly many). Kahn's order: a state's count is final
    /// once every step into it is counted.
    func pathCounts() -> [InterleavingCount]? {
        var incoming = [Int32](repeating: 0, count: stateCount)
        for state in 0..<stateCount {
            for edge in edges(of: state) { incoming[target(edge)] += 1 }
        }
        var counts = [InterleavingCount](repeating: .zero, count: stateCount)
        counts[0] = InterleavingCount(1)
        var ready = incoming[0] == 0 ? [0] : []
        var done = 0
        while let state = ready.popLast() {
            done += 1
            for edge in edges(of: state) {
                let target = target(edge)
                counts[target] += counts[state]
                incoming[target] -= 1
                if incoming[target] == 0 { ready.append(target) }
            }
        }
        return done == stateCount ? counts : nil
    }
}
