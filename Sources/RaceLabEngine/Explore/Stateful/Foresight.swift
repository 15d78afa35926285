/// What can still happen from a world, as the explorer sees it: the shortest way on
/// to a failure, or the proof that none is left. A breadth-first search over the
/// distinct states reachable from the world (each once, as the stateful search keeps
/// them), so the first failing state it meets is one of the nearest.
///
/// A failing state is one with a new finding (a crash, a main-thread violation, a
/// broken invariant…) or a final state that deadlocked or breaks a check: the same
/// failures `explore` counts, from here on. A livelock shows in no single state: when
/// no state fails, the graph of every state reachable from here is checked for a
/// cycle a fair scheduler can keep going round without progress, as `explore` does.
public enum Foresight: Equatable, Sendable {
    /// A failure is `steps` steps away at the nearest; running `next` now is the
    /// first step of such a way; `what` says what goes wrong there.
    case failure(steps: Int, next: ThreadID, what: String)
    /// No state fails, but `steps` steps away at the nearest (0: here) the threads can
    /// go round a loop of `cycle` steps forever without progress, every one taking
    /// its turn; running `next` now is the first step of the way there, or of the loop.
    case livelock(steps: Int, next: ThreadID, cycle: Int)
    /// No way on fails: every reachable state (`states` of them) is fine.
    case safe(states: Int)
    /// The search met `states` states without deciding: too many to look at all.
    case unknown(states: Int)

    /// The states a hint may visit before it gives up.
    public static let stateBudget = 200_000

    /// Looks ahead from `world` (which must be a world of `engine`'s program).
    public static func look(_ engine: Engine, from world: World, maxStates: Int = Foresight.stateBudget) -> Foresight {
        let known = world.findings.count
        // What goes wrong in a state, if anything does: the page's words for it.
        func failure(_ world: World) -> String? { StateSpace.Failure.of(world, engine, known: known)?.text }
        // Each waiting state carries the first step of the way to it.
        var states = ReachableStates(program: engine.program, start: world, mark: -1 as ThreadID)
        if states.store.count == 0 { return .unknown(states: 0) }
        if let what = failure(world) { return .failure(steps: 0, next: -1, what: what) }
        let log = EventLog(narrate: false)
        while let pending = states.next() {
            let current = pending.world
            states.graph.beginEdges(of: pending.state)
            var bits = current.halted ? 0 : engine.runnableMask(current)
            while bits != 0 {
                let thread = bits.trailingZeroBitCount
                bits &= bits - 1
                var successor = current
                engine.quietStep(&successor, thread: thread, log: log)
                let target: Int
                switch states.reach(successor, from: pending.state, thread: thread, progress: log.progressed) {
                case .new(let stored): target = stored
                case .known, .overBudget: continue
                case .tooManyThreads: return .unknown(states: states.store.count)
                }
                let way = pending.mark < 0 ? thread : pending.mark
                if let what = failure(successor) { return .failure(steps: pending.depth + 1, next: way, what: what) }
                if states.store.count >= maxStates { return .unknown(states: states.store.count) }
                states.enqueue(target, successor, depth: pending.depth + 1, mark: way)
            }
        }
        let graph = states.graph
        let tree = graph.breadthFirst()
        if let (start, cycle) = graph.livelock(tree: tree) {
            let path = tree.path(to: start, in: graph)
            return .livelock(steps: path.count, next: (path + cycle)[0], cycle: cycle.count)
        }
        return .safe(states: states.store.count)
    }
}
