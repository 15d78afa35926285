/// Livelock: a cycle of states that a fair scheduler can run forever without a step
/// that makes progress. As SPIN's non-progress cycles under weak fairness: a thread
/// that can run in every state of the cycle must take a step in it (a scheduler
/// that never runs a thread that is always ready is not a livelock, just unfair).
extension StateGraph {
    /// A livelock, if the graph has one: the state the cycle starts from (the one
    /// nearest the start among those of the nearest such cycle) and the threads of
    /// its steps, in order, back to that state.
    ///
    /// A fair cycle without progress exists inside a strongly connected component of
    /// the steps that make none exactly when every thread that can run in all of the
    /// component's states has a step inside it: then the cycle through all of its
    /// states and steps is fair; and if a thread that can always run has none, no
    /// cycle inside can run it. The reported cycle is built shorter: from its start,
    /// one excursion per thread that would otherwise be left out (to its nearest
    /// step, or to a state where it cannot run), until the cycle is fair.
    func livelock(tree: Tree) -> (start: Int, cycle: [ThreadID])? {
        let component = components()
        // Per component: the threads that can run in all of its states, those with a
        // step inside it, and its state nearest the start.
        var count = 0
        for c in component { count = max(count, Int(c) + 1) }
        var always = [UInt64](repeating: .max, count: count)
        var inside = [UInt64](repeating: 0, count: count)
        var nearest = [Int](repeating: -1, count: count)
        var rank = [Int](repeating: 0, count: stateCount)
        for (position, state) in tree.order.enumerated() { rank[state] = position }
        for state in 0..<stateCount {
            let c = Int(component[state])
            always[c] &= enabledMask(state)
            for edge in edges(of: state) where !isProgress(edge) && component[target(edge)] == component[state] {
                inside[c] |= 1 << UInt64(thread(edge))
            }
            if nearest[c] < 0 || rank[state] < rank[nearest[c]] { nearest[c] = state }
        }
        var chosen: Int?
        for c in 0..<count where inside[c] != 0 && always[c] & ~inside[c] == 0 {
            if chosen == nil || rank[nearest[c]] < rank[nearest[chosen!]] { chosen = c }
        }
        guard let chosen else { return nil }
        let start = nearest[chosen]
        let within = { (edge: Int, from: Int) in !self.isProgress(edge) && component[self.target(edge)] == component[from] }

        var cycle: [Int] = []
        while true {
            var states = [start]
            for edge in cycle { states.append(target(edge)) }
            let ready = states.reduce(UInt64.max) { $0 & enabledMask($1) }
            let stepping = cycle.reduce(UInt64(0)) { $0 | 1 << UInt64(thread($1)) }
            var missing = ready & ~stepping
            if !cycle.isEmpty && missing == 0 { break }
            if cycle.isEmpty {
                missing = ready & inside[chosen] != 0 ? ready & inside[chosen] : inside[chosen]
            }
            let lagging = missing.trailingZeroBitCount
            let canStep = inside[chosen] & (1 << UInt64(lagging)) != 0
            // Out: to the thread's nearest step inside (then take it), or to the nearest
            // state where it cannot run; then back to the start.
            let out = shortestPath(from: start, within: within) { state in
                canStep
                    ? self.edges(of: state).first { within($0, state) && self.thread($0) == lagging }
                    : self.isEnabled(lagging, in: state) ? nil : -1
            }
            cycle += out
            let here = cycle.isEmpty ? start : target(cycle.last!)
            cycle += shortestPath(from: here, within: within) { state in state == start ? -1 : nil }
        }
        return (start, cycle.map { thread($0) })
    }

    /// The threads that can run in `state`, as a bit set.
    func enabledMask(_ state: Int) -> UInt64 {
        edges(of: state).reduce(UInt64(0)) { $0 | 1 << UInt64(thread($1)) }
    }

    /// Breadth first from `from` along steps `within` allows, to the first state for
    /// which `goal` answers: the steps there, plus the step it names (-1 for none).
    private func shortestPath(from: Int, within: (Int, Int) -> Bool, goal: (Int) -> Int?) -> [Int] {
        var parentEdge: [Int: Int] = [from: -1]
        var parent: [Int: Int] = [:]
        var queue = [from]
        var next = 0
        while next < queue.count {
            let state = queue[next]
            next += 1
            if let last = goal(state) {
                var path: [Int] = last >= 0 ? [last] : []
                var current = state
                while let edge = parentEdge[current], edge >= 0 {
                    path.append(edge)
                    current = parent[current]!
                }
                return Array(path.reversed())
            }
            for edge in edges(of: state) where within(edge, state) && parentEdge[target(edge)] == nil {
                parentEdge[target(edge)] = edge
                parent[target(edge)] = state
                queue.append(target(edge))
            }
        }
        return []
    }

    /// The strongly connected components of the steps that make no progress (Tarjan,
    /// with an explicit stack): each state's component number.
    func components() -> [Int32] {
        let n = stateCount
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int32](repeating: -1, count: n)
        var stack: [Int] = []
        var calls: [(state: Int, edge: Int)] = []
        var counter: Int32 = 0
        var components: Int32 = 0
        for root in 0..<n where index[root] < 0 {
            calls.append((root, edges(of: root).lowerBound))
            index[root] = counter
            low[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while let (state, edge) = calls.last {
                if edge < edges(of: state).upperBound {
                    calls[calls.count - 1].edge += 1
                    if isProgress(edge) { continue }
                    let next = target(edge)
                    if index[next] < 0 {
                        index[next] = counter
                        low[next] = counter
                        counter += 1
                        stack.append(next)
                        onStack[next] = true
                        calls.append((next, edges(of: next).lowerBound))
                    } else if onStack[next] {
                        low[state] = min(low[state], index[next])
                    }
                    continue
                }
                calls.removeLast()
                if let caller = calls.last { low[caller.state] = min(low[caller.state], low[state]) }
                if low[state] == index[state] {
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component[member] = components
                        if member == state { break }
                    }
                    components += 1
                }
            }
        }
        return component
    }
}
