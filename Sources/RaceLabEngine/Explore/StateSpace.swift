/// The reachable states of a program from a world, each once, with the steps between
/// them: what a page needs to let a reader be the scheduler with no engine of its own.
/// Breadth first, so a budget keeps the states nearest the start.
public struct StateSpace: Sendable {
    public struct Edge: Sendable {
        public var thread: ThreadID
        public var target: Int
        /// What the step did, in the trace's sentences.
        public var events: [Event]
    }

    /// The states, the start first.
    public var worlds: [World] = []
    /// Each state's steps out, by thread.
    public var edges: [[Edge]] = []
    /// What went wrong in a state, if anything: a finding, a deadlock, a failed check.
    public var failures: [String?] = []
    /// False when the budget stopped the search: some states' steps lead nowhere known.
    public var isComplete = true

    public static func explore(_ engine: Engine, from world: World, maxStates: Int) -> StateSpace {
        var space = StateSpace()
        let explorer = Explorer(engine: engine, config: ExploreConfig())
        let known = world.findings.count
        func failure(_ world: World) -> String? {
            if world.findings.count > known { return world.findings[known].kind.rawValue + ": " + world.findings[known].message }
            guard engine.runnableMask(world) == 0 else { return nil }
            if let deadlock = engine.deadlock(world) { return "deadlock: " + deadlock.message }
            let ending = explorer.ending(of: world)
            guard ending.isFailure else { return nil }
            let failed = ending.failedChecks.map { "expectation failed: " + engine.program.expectations[$0].message }
            return failed.isEmpty ? ending.kinds.map(\.rawValue).joined(separator: ", ") : failed.joined(separator: "; ")
        }
        var encoder = StateEncoder(program: engine.program, initial: world)
        var store = StateStore()
        encoder.encode(world)
        _ = store.insert(encoder.bytes.raw)
        space.worlds = [world]
        space.edges = [[]]
        space.failures = [failure(world)]
        var next = 0
        while next < space.worlds.count {
            let current = space.worlds[next]
            var bits = current.halted || space.failures[next] != nil ? 0 : engine.runnableMask(current)
            while bits != 0 {
                let thread = bits.trailingZeroBitCount
                bits &= bits - 1
                let (successor, events) = engine.step(current, thread: thread)
                encoder.encode(successor)
                let (index, isNew) = store.insert(encoder.bytes.raw)
                // Past the budget a new state is left out, and so is every step to it.
                if isNew && space.worlds.count >= maxStates || index >= space.worlds.count && !isNew {
                    space.isComplete = false
                    continue
                }
                if isNew {
                    space.worlds.append(successor)
                    space.edges.append([])
                    space.failures.append(failure(successor))
                }
                space.edges[next].append(Edge(thread: thread, target: index, events: events))
            }
            next += 1
        }
        return space
    }
}
