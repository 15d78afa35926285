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
        let explorer = Explorer(engine: engine, config: ExploreConfig())
        let known = world.findings.count
        // What goes wrong in a state, if anything does: the page's words for it.
        func failure(_ world: World) -> String? { StateSpace.Failure.of(world, engine, explorer, known: known)?.text }
        if world.threads.count > 64 { return .unknown(states: 0) }
        if let what = failure(world) { return .failure(steps: 0, next: -1, what: what) }
        var encoder = StateEncoder(program: engine.program, initial: world)
        var store = StateStore()
        encoder.encode(world)
        _ = store.insert(encoder.bytes.raw)
        let log = EventLog(narrate: false)
        // The steps between states, kept for the livelock check: each state's steps
        // are added when it is expanded, breadth first, so states are numbered in order.
        var graph = StateGraph()
        graph.addState()
        var level: [(world: World, state: Int, first: ThreadID)] = [(world, 0, -1)]
        var depth = 0
        while !level.isEmpty {
            depth += 1
            var next: [(world: World, state: Int, first: ThreadID)] = []
            for (current, state, first) in level {
                graph.beginEdges(of: state)
                var bits = current.halted ? 0 : engine.runnableMask(current)
                while bits != 0 {
                    let thread = bits.trailingZeroBitCount
                    bits &= bits - 1
                    var successor = current
                    engine.quietStep(&successor, thread: thread, log: log)
                    if successor.threads.count > 64 { return .unknown(states: store.count) }
                    encoder.encode(successor)
                    let (target, isNew) = store.insert(encoder.bytes.raw)
                    graph.addEdge(from: state, to: target, thread: thread, progress: log.progressed)
                    guard isNew else { continue }
                    graph.addState()
                    let way = first < 0 ? thread : first
                    if let what = failure(successor) { return .failure(steps: depth, next: way, what: what) }
                    if store.count >= maxStates { return .unknown(states: store.count) }
                    next.append((successor, target, way))
                }
            }
            level = next
        }
        let tree = graph.breadthFirst()
        if let (start, cycle) = graph.livelock(tree: tree) {
            let path = tree.path(to: start, in: graph)
            return .livelock(steps: path.count, next: (path + cycle)[0], cycle: cycle.count)
        }
        return .safe(states: store.count)
    }
}
