/// The stateful search: every distinct world once, so a program whose threads loop
/// forever is explored exhaustively as long as it has finitely many states.
extension Explorer {
    /// Visits every world reachable from the start, each once (`StateStore` keeps
    /// their canonical bytes), depth first: only the worlds on the current path and
    /// their unexplored siblings are held whole. Every step from every state is
    /// taken, so the store ends up holding the whole state graph (`StateGraph`), and
    /// what the report needs is read off it afterwards, from numbers alone:
    ///
    /// - the outcomes, from the final states (no thread can run, or the program halted);
    /// - the shortest failing schedule, breadth first over the graph (fewest steps);
    /// - the counts: paths from the start to each final state when the graph has no
    ///   cycle (the interleavings, as `--reduction none` counts them), else final states;
    /// - livelock: a cycle that a fair scheduler can keep running with no `progress`.
    ///
    /// Data races are two conflicting steps that can both run from one state (no
    /// lock, queue or thread start orders them: one of them would be blocked).
    ///
    /// Invariant: every state on `stack` is in the store and not yet expanded; every
    /// state in the store is expanded or on the stack.
    func exploreStatefully(progress: Progress? = nil) -> Exploration {
        var result = Exploration(reduction: config.reduction)
        result.search = .stateful
        let deadline = config.started().deadline
        let log = EventLog(narrate: false)
        let initial = engine.initialWorld()
        guard initial.threads.count <= 64 else {
            result.cut = .threadLimit(64)
            return result
        }
        var encoder = StateEncoder(program: engine.program, initialThreads: initial.threads.count)
        var store = StateStore()
        var graph = StateGraph()
        var keys: [OutcomeKey] = []
        var seenRaces = SeenRaces()
        encoder.encode(initial)
        _ = store.insert(encoder.bytes.raw)
        graph.addState()
        var stack: [(state: Int, world: World, depth: Int)] = [(0, initial, 0)]
        var stepped: [(thread: ThreadID, accesses: [Access], line: Int?)] = []
        var expanded = 0
        search: while let (state, world, depth) = stack.popLast() {
            let enabled = world.halted ? 0 : engine.runnableMask(world)
            graph.beginEdges(of: state)
            if enabled == 0 {
                let index = outcomeIndex(world, ending(of: world), into: &result, keys: &keys) { [] }
                graph.final[state] = Int32(index)
                result.outcomes[index].executions += 1
                result.executions += 1
                continue
            }
            stepped.removeAll(keepingCapacity: true)
            var bits = enabled
            while bits != 0 {
                let thread = bits.trailingZeroBitCount
                bits &= bits - 1
                var next = world
                engine.quietStep(&next, thread: thread, log: log)
                result.steps += 1
                if next.threads.count > 64 {
                    result.cut = .threadLimit(64)
                    break search
                }
                if config.detectRaces {
                    if log.accesses.contains(where: Trace.isData) { stepped.append((thread, log.accesses, log.range?.start.line)) }
                    if log.accesses.contains(where: { $0.kind == .acquire }) {
                        recordLockOrder(
                            heldBefore: world.headers, after: next, thread: thread, accesses: log.accesses, line: log.range?.start.line,
                            into: &result)
                    }
                }
                encoder.encode(next)
                let (target, isNew) = store.insert(encoder.bytes.raw)
                graph.addEdge(from: state, to: target, thread: thread, progress: log.progressed)
                if isNew {
                    graph.addState()
                    stack.append((target, consume next, depth + 1))
                }
            }
            if stepped.count > 1 { recordCoenabledRaces(stepped, at: depth, world: world, seen: &seenRaces, into: &result) }
            if store.count >= config.maxStates {
                result.cut = .stateBound(config.maxStates)
                break search
            }
            if store.bytes + graph.bytes > config.maxStateMemory {
                result.cut = .memoryBound(config.maxStateMemory)
                break search
            }
            // Every 1,024 states expanded (not stored: a stretch of states seen before
            // stores none, and the clock must still be read).
            expanded += 1
            if expanded & 1023 == 0 {
                if let deadline, deadline.hasPassed(keepingShareForCounterexample: false) {
                    result.cut = .timeLimit(deadline.seconds)
                    break search
                }
                result.states = store.count
                if let progress, !progress(result) {
                    result.cut = .stopped
                    break search
                }
            }
        }
        result.states = store.count
        result.transitions = graph.edgeCount
        result.memory = store.bytes + graph.bytes
        assert(graph.isConsistent(complete: result.cut == nil), "the state graph breaks its invariants")
        finishStateful(&result, graph: graph, initial: initial, complete: result.cut == nil)
        return result
    }

    /// Reads the report off the graph: depth, schedules, counts and livelock. Counts
    /// and livelock need the whole graph: a cut search keeps final-state counts and
    /// looks for no livelock (an unexpanded state's steps are unknown).
    private func finishStateful(_ result: inout Exploration, graph: StateGraph, initial: World, complete: Bool) {
        let tree = graph.breadthFirst()
        result.depth = tree.depth
        let log = EventLog(narrate: false)
        // Thread IDs to names, replayed: a spawned thread's name is the world's.
        func names(_ path: [ThreadID]) -> [String] {
            var world = initial
            for thread in path { engine.quietStep(&world, thread: thread, log: log) }
            return path.map { world.threadNames[$0] }
        }
        // Each outcome's schedule: a shortest way to one of its final states.
        var nearest = [Int](repeating: -1, count: result.outcomes.count)
        for state in tree.order where graph.final[state] >= 0 {
            let outcome = Int(graph.final[state])
            if nearest[outcome] < 0 { nearest[outcome] = state }
        }
        for (outcome, state) in nearest.enumerated() where state >= 0 {
            result.outcomes[outcome].schedule = names(tree.path(to: state, in: graph))
        }
        if let failing = tree.order.first(where: { graph.final[$0] >= 0 && result.outcomes[Int(graph.final[$0])].outcome.isFailure }) {
            result.shortestFailure = names(tree.path(to: failing, in: graph))
        }
        if complete, let paths = graph.pathCounts() {
            for state in 0..<graph.stateCount where graph.final[state] >= 0 {
                result.outcomes[Int(graph.final[state])].interleavings += paths[state]
            }
        } else {
            result.countsInterleavings = false
            for index in result.outcomes.indices {
                result.outcomes[index].interleavings = InterleavingCount(result.outcomes[index].executions)
            }
        }
        result.interleavings = .sum(result.outcomes.map(\.interleavings))
        if complete, let lasso = graph.livelock(tree: tree) {
            let path = tree.path(to: lasso.start, in: graph)
            let all = names(path + lasso.cycle)
            result.livelock = Livelock(
                prefix: Array(all.prefix(path.count)), cycle: Array(all.dropFirst(path.count)),
                progressMarked: engine.program.marksProgress)
        }
    }
}
