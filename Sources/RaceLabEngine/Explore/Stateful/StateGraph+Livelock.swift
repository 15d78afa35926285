/// Livelock: a cycle of states that a fair scheduler can run forever without a step
/// that makes progress. As SPIN's non-progress cycles, but under strong fairness: a
/// thread that can run again and again along the cycle must take a step in it. (Weak
/// fairness asks that only of a thread that can run all along, so a thread woken
/// each time a lock is freed, and each time beaten to it, could be left out forever;
/// a fair lock, like a fair scheduler, lets it in eventually.)
extension StateGraph {
    /// A livelock, if the graph has one: the state the cycle starts from (the one
    /// nearest the start among those of the nearest such cycle) and the threads of
    /// its steps, in order, back to that state.
    ///
    /// Inside a strongly connected component of the steps that make no progress, a
    /// fair cycle through all of it exists when every thread that can run somewhere
    /// in it has a step inside it. Where some thread cannot, no fair cycle passes the
    /// states where it can run: they are removed and the components of the rest are
    /// checked again (Emerson and Lei's algorithm for strong fairness), until every
    /// component left is fair or gone. The reported cycle is built shorter: from its
    /// start, one excursion to the nearest step of each thread the cycle would
    /// otherwise leave out, until none is.
    func livelock(tree: Tree) -> (start: Int, cycle: [ThreadID])? {
        let (component, fair) = fairComponents()
        // The state nearest the start of all those in fair components.
        guard let start = tree.order.first(where: { component[$0] >= 0 && fair[Int(component[$0])] }) else { return nil }
        return (start, loop(from: start, component: component))
    }

    /// The loop a fair scheduler can run from `start`, a state of a fair component,
    /// without progress: the threads of its steps, back to `start`.
    func loop(from start: Int, component: [Int32]) -> [ThreadID] {
        let chosen = component[start]
        let within = { (edge: Int, from: Int) in !self.isProgress(edge) && component[self.target(edge)] == chosen && component[from] == chosen }
        var cycle: [Int] = []
        while true {
            var states = [start]
            for edge in cycle { states.append(target(edge)) }
            let enabled = states.reduce(UInt64(0)) { $0 | enabledMask($1) }
            let stepping = cycle.reduce(UInt64(0)) { $0 | 1 << UInt64(thread($1)) }
            var missing = enabled & ~stepping
            if !cycle.isEmpty && missing == 0 { break }
            if missing == 0 { missing = enabled }
            let lagging = missing.trailingZeroBitCount
            // Out to the thread's nearest step inside, that step, and back to the start.
            cycle += shortestPath(from: start, within: within) { state in
                self.edges(of: state).first { within($0, state) && self.thread($0) == lagging }
            }
            let here = cycle.isEmpty ? start : target(cycle.last!)
            cycle += shortestPath(from: here, within: within) { state in state == start ? -1 : nil }
        }
        return cycle.map { thread($0) }
    }

    /// The strongly connected components of the steps that make no progress, pruned
    /// until each left is fair (Emerson and Lei): each state's component (-1 for a
    /// state in none), and per component whether a fair scheduler can stay in it
    /// forever (it has a step of every thread that can run anywhere in it).
    func fairComponents() -> (component: [Int32], fair: [Bool]) {
        var alive = [Bool](repeating: true, count: stateCount)
        while true {
            let component = components(alive: alive)
            var count = 0
            for c in component where c >= 0 { count = max(count, Int(c) + 1) }
            var enabled = [UInt64](repeating: 0, count: count)
            var inside = [UInt64](repeating: 0, count: count)
            for state in 0..<stateCount where component[state] >= 0 {
                let c = Int(component[state])
                enabled[c] |= enabledMask(state)
                for edge in edges(of: state) where !isProgress(edge) && component[target(edge)] == component[state] {
                    inside[c] |= 1 << UInt64(thread(edge))
                }
            }
            var removed = false
            for state in 0..<stateCount where component[state] >= 0 {
                let c = Int(component[state])
                guard inside[c] != 0 else { continue }
                if enabledMask(state) & ~inside[c] != 0 {
                    alive[state] = false
                    removed = true
                }
            }
            if !removed { return (component, inside.map { $0 != 0 }) }
        }
    }

    /// Per state, the loop a fair scheduler can run from it forever without progress
    /// (a livelock from there), as `livelock` would report it from that state: its
    /// first thread and its length; nil where there is none.
    func livelockLoops() -> [(next: ThreadID, length: Int)?] {
        let (component, fair) = fairComponents()
        return (0..<stateCount).map { state in
            guard component[state] >= 0, fair[Int(component[state])] else { return nil }
            let cycle = loop(from: state, component: component)
            return (cycle[0], cycle.count)
        }
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

    /// Whether some cycle of the graph makes no progress: a step that makes none
    /// inside a strongly connected component of such steps. Without one there is no
    /// livelock, fair or not.
    func hasNonProgressCycle() -> Bool {
        let component = components(alive: [Bool](repeating: true, count: stateCount))
        for state in 0..<stateCount {
            for edge in edges(of: state) where !isProgress(edge) && component[target(edge)] == component[state] { return true }
        }
        return false
    }

    /// The strongly connected components of the steps that make no progress between
    /// `alive` states (Tarjan, with an explicit stack): each alive state's component
    /// number, -1 for the others.
    func components(alive: [Bool]) -> [Int32] {
        let n = stateCount
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int32](repeating: -1, count: n)
        var stack: [Int] = []
        var calls: [(state: Int, edge: Int)] = []
        var counter: Int32 = 0
        var components: Int32 = 0
        for root in 0..<n where index[root] < 0 && alive[root] {
            calls.append((root, edges(of: root).lowerBound))
            index[root] = counter
            low[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while let (state, edge) = calls.last {
                if edge < edges(of: state).upperBound {
                    calls[calls.count - 1].edge += 1
                    let next = target(edge)
                    if isProgress(edge) || !alive[next] { continue }
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
