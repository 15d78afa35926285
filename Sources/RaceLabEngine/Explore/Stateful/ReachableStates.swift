/// The distinct worlds reachable from a start, walked breadth first: the one place that
/// encodes and stores a world (`StateEncoder`, `StateStore`), numbers the states in the
/// order they are found, records the steps between them (`StateGraph`), keeps the
/// states waiting to be expanded in order, and stops past `Engine.threadCap` threads. The
/// stateful search, the hint (`Foresight`) and the lesson page's `StateSpace` are its
/// clients: each takes the next state, steps its threads, and says what a state means
/// to it; none encodes, stores or orders states of its own. A change of order, of
/// storage or of the cap is made here, for all three.
///
/// Breadth first, so the first failure a client meets is a nearest one, and a space
/// that grows forever (a counter that keeps counting) still has every state near the
/// start expanded before a budget ends the walk. Only the waiting states' worlds are
/// held whole. `Mark` is what a client carries with a waiting state (the steps asleep
/// there, the first step of the way to it).
///
/// Invariant: every state waiting is in the store; states are numbered 0, 1, 2, … in
/// the order `reach` first stores them, and the graph has a state for each; the
/// waiting states' depths never decrease.
struct ReachableStates<Mark> {
    /// A state waiting to be expanded, with its world.
    struct Pending {
        var state: Int
        var world: World
        var depth: Int
        var mark: Mark
        /// Its world's estimated size (`World.estimatedBytes`), counted in `waitingBytes`.
        var bytes = 0
    }

    /// What `reach` made of a world.
    enum Reached: Equatable {
        /// A state not seen before, now stored with this number.
        case new(Int)
        /// A state seen before.
        case known(Int)
        /// A new state past the budget `reach` was given: not stored, no step to it.
        case overBudget
        /// A world with more than `Engine.threadCap` threads: not stored.
        case tooManyThreads
    }

    private var encoder: StateEncoder
    private(set) var store = StateStore()
    /// The steps between states (each client adds a state's steps in `reach`).
    var graph = StateGraph()
    /// Taken states leave nil behind, so their worlds are freed at once.
    private var pending: [Pending?] = []
    private var head = 0
    /// What the waiting worlds hold, estimated: counted against a memory budget.
    private(set) var waitingBytes = 0
    /// The bytes of every world encoded so far.
    private(set) var encodedBytes = 0

    /// A walk from `start`, stored as state 0 and waiting to be expanded, unless it
    /// has more than `Engine.threadCap` threads (then nothing is stored: `store.count` is 0).
    init(program: Program, start: World, mark: Mark) {
        encoder = StateEncoder(program: program, initial: start)
        guard start.threads.count <= Engine.threadCap else { return }
        encoder.encode(start)
        _ = store.insert(encoder.bytes.raw)
        graph.addState()
        enqueue(0, start, depth: 0, mark: mark)
    }

    /// The bytes the walk holds: the store, the graph and the waiting worlds.
    var bytes: Int { store.bytes + graph.bytes + waitingBytes }

    /// The worlds waiting.
    var waiting: [World] { pending[head...].compactMap { $0?.world } }

    /// The oldest state waiting, or nil when none is left. Expanded states' slots are
    /// dropped once they are half the array, so it holds about the waiting states.
    mutating func next() -> Pending? {
        guard head < pending.count else { return nil }
        let state = pending[head].take()
        head += 1
        waitingBytes -= state?.bytes ?? 0
        if head >= 4_096 && head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return state
    }

    /// Puts a state in line to be expanded (a new one, or, under sleep sets, one to
    /// be expanded again with other steps).
    mutating func enqueue(_ state: Int, _ world: consuming World, depth: Int, mark: Mark) {
        var entry = Pending(state: state, world: world, depth: depth, mark: mark)
        entry.bytes = entry.world.estimatedBytes
        waitingBytes += entry.bytes
        pending.append(entry)
    }

    /// Stores `world`, reached from `state` by `thread`'s step (nil for a world found
    /// on no step: a kept run's, added with its parent's steps unknown), and adds the
    /// step to the graph. A new state past `maxStates` stored is left out.
    mutating func reach(
        _ world: World, from state: Int?, thread: ThreadID, progress: Bool, effect: UInt32 = 0, maxStates: Int = .max
    ) -> Reached {
        guard world.threads.count <= Engine.threadCap else { return .tooManyThreads }
        encoder.encode(world)
        encodedBytes &+= encoder.bytes.count
        let target: Int
        let isNew: Bool
        if store.count >= maxStates {
            guard let known = store.find(encoder.bytes.raw) else { return .overBudget }
            (target, isNew) = (known, false)
        } else {
            (target, isNew) = store.insert(encoder.bytes.raw)
        }
        if isNew { graph.addState() }
        if let state { graph.addEdge(from: state, to: target, thread: thread, progress: progress, effect: effect) }
        return isNew ? .new(target) : .known(target)
    }
}
