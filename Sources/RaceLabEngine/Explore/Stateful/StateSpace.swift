/// The reachable states of a program from a world, each once, with the steps between
/// them: what a page needs to let a reader be the scheduler with no engine of its own.
/// Breadth first, so a budget keeps the states nearest the start; runs named by their
/// schedules (a story, a counterexample) are kept whole, and the budget then keeps the
/// states nearest the start and those runs.
public struct StateSpace: Sendable {
    public struct Edge: Sendable {
        public var thread: ThreadID
        public var target: Int
        /// What the step did, in the trace's sentences.
        public var events: [Event]
        /// Whether it ran a `progress` statement.
        public var progressed: Bool
    }

    /// How a thread stands in a state, as step mode shows it.
    public enum Standing: Sendable, Equatable {
        case finished
        case canRun
        /// What it waits for ("waits for lock1, held by B"), or "cannot run".
        case waiting(String)
    }

    /// The states, the start first.
    public var worlds: [World] = []
    /// Each state's threads, as they stand there.
    public var standings: [[Standing]] = []
    /// The budget the space was explored with: past it, states were left out.
    public var maxStates = 0
    /// Each state's steps out, by thread.
    public var edges: [[Edge]] = []
    /// What went wrong in a state: a finding, a deadlock, a failed check.
    public struct Failure: Sendable, Equatable {
        public var kind: Finding.Kind
        /// "deadlock: main waits for …", "expectation failed: one instance".
        public var text: String

        /// What went wrong in `world` since a world with `known` findings: a new
        /// finding, or, once no thread can run, a deadlock or a check that fails.
        static func of(_ world: World, _ engine: Engine, known: Int) -> Failure? {
            if world.findings.count > known {
                let finding = world.findings[known]
                return Failure(kind: finding.kind, text: finding.kind.rawValue + ": " + finding.message)
            }
            guard engine.runnableMask(world) == 0 else { return nil }
            let ending = engine.conclude(world)
            if let deadlock = ending.deadlock { return Failure(kind: .deadlock, text: "deadlock: " + deadlock.message) }
            guard ending.isFailure else { return nil }
            let failed = ending.failedChecks.map { "expectation failed: " + engine.program.expectations[$0].message }
            if !failed.isEmpty { return Failure(kind: .expectation, text: failed.joined(separator: "; ")) }
            return Failure(kind: ending.kinds.first ?? .expectation, text: ending.kinds.map({ $0.rawValue }).joined(separator: ", "))
        }
    }

    /// What went wrong in each state, if anything.
    public var failures: [Failure?] = []
    /// A loop the threads can go round forever, each taking its turn, without
    /// progress (a livelock): the thread that goes first, and its steps.
    public struct Loop: Sendable, Equatable {
        public var next: ThreadID
        public var length: Int
    }

    /// Per state, when the space is complete: the loop from it, as the step-mode
    /// hint would find it there; nil where there is none.
    public var loops: [Loop?] = []
    /// True for a state some of whose steps the budget left out.
    public var cut: [Bool] = []
    /// False when the budget stopped the search: some states' steps lead nowhere known.
    public var isComplete: Bool { !cut.contains(true) }

    /// The states from `world`; past `maxStates` the search stops adding states, but
    /// every state along `keeping` (schedules of thread names, followed from `world` as
    /// far as they go) is in. Once `deadline` has passed it adds no more states either:
    /// the clock only cuts, and the states it leaves out are marked so.
    public static func explore(
        _ engine: Engine, from world: World, maxStates: Int, keeping paths: [Schedule] = [], deadline: Deadline? = nil
    ) -> StateSpace {
        var space = StateSpace()
        space.maxStates = maxStates
        let known = world.findings.count
        func failure(_ world: World) -> Failure? { Failure.of(world, engine, known: known) }
        func standings(_ world: World) -> [Standing] {
            let runnable = engine.runnableThreads(world)
            return world.threads.indices.map { thread in
                if world.threads[thread].isFinished { return .finished }
                if runnable.contains(thread) { return .canRun }
                return .waiting(engine.waitDescription(world, thread)?.text ?? "cannot run")
            }
        }
        func add(_ world: World) {
            space.worlds.append(world)
            space.standings.append(standings(world))
            space.edges.append([])
            space.cut.append(false)
            space.failures.append(failure(world))
        }
        // The walk: its graph is kept for the livelock check.
        var states = ReachableStates(program: engine.program, start: world, mark: ())
        add(world)
        guard states.store.count > 0 else {
            space.cut[0] = true
            space.loops = [nil]
            return space
        }
        // The kept runs' states come first after the start, so the breadth-first walk
        // below grows from all of them at once.
        for path in paths {
            var current = world
            following: for name in path {
                guard !current.halted, failure(current) == nil, let thread = current.thread(named: name),
                    engine.runnableMask(current) & (1 << UInt64(thread)) != 0
                else { break }
                current = engine.step(current, thread: thread).0
                switch states.reach(current, from: nil, thread: thread, progress: false) {
                case .new(let state):
                    add(current)
                    states.enqueue(state, current, depth: 0, mark: ())
                case .known: continue
                case .tooManyThreads, .overBudget: break following
                }
            }
        }
        var late = false
        while let pending = states.next() {
            let state = pending.state, current = pending.world
            if state & 63 == 0, let deadline, deadline.hasPassed { late = true }
            states.graph.beginEdges(of: state)
            var bits = current.halted || space.failures[state] != nil ? 0 : engine.runnableMask(current)
            while bits != 0 {
                let thread = bits.trailingZeroBitCount
                bits &= bits - 1
                var successor = current
                let (events, progressed) = engine.narratedStep(&successor, thread: thread)
                // Past the budget a new state is left out, and so is every step to it.
                let budget = late ? 0 : max(maxStates, 1)
                let target: Int
                switch states.reach(successor, from: state, thread: thread, progress: progressed, maxStates: budget) {
                case .new(let stored):
                    target = stored
                    add(successor)
                    states.enqueue(target, successor, depth: pending.depth + 1, mark: ())
                case .known(let stored): target = stored
                case .overBudget, .tooManyThreads:
                    space.cut[state] = true
                    continue
                }
                space.edges[state].append(Edge(thread: thread, target: target, events: events, progressed: progressed))
            }
        }
        space.loops =
            space.isComplete
            ? states.graph.livelockLoops().map { $0.map { Loop(next: $0.next, length: $0.length) } }
            : Array(repeating: nil, count: space.worlds.count)
        return space
    }

    /// A schedule of thread names as the threads that take its steps, from the start
    /// as far as the space has its steps.
    public func moves(_ schedule: Schedule) -> [ThreadID] {
        var state = 0
        var moves: [ThreadID] = []
        for name in schedule {
            guard let thread = worlds[state].thread(named: name), let edge = edges[state].first(where: { $0.thread == thread }) else { break }
            moves.append(thread)
            state = edge.target
        }
        return moves
    }

    /// The state a run of moves from the start reaches.
    public func state(after moves: [ThreadID]) -> Int {
        moves.reduce(0) { state, thread in edges[state].first { $0.thread == thread }?.target ?? state }
    }
}
