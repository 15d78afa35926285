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
        static func of(_ world: World, _ engine: Engine, _ explorer: Explorer, known: Int) -> Failure? {
            if world.findings.count > known {
                let finding = world.findings[known]
                return Failure(kind: finding.kind, text: finding.kind.rawValue + ": " + finding.message)
            }
            guard engine.runnableMask(world) == 0 else { return nil }
            if let deadlock = engine.deadlock(world) { return Failure(kind: .deadlock, text: "deadlock: " + deadlock.message) }
            let ending = explorer.ending(of: world)
            guard ending.isFailure else { return nil }
            let failed = ending.failedChecks.map { "expectation failed: " + engine.program.expectations[$0].message }
            if !failed.isEmpty { return Failure(kind: .expectation, text: failed.joined(separator: "; ")) }
            return Failure(kind: ending.kinds.first ?? .expectation, text: ending.kinds.map(\.rawValue).joined(separator: ", "))
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
        let explorer = Explorer(engine: engine, config: ExploreConfig())
        let known = world.findings.count
        func failure(_ world: World) -> Failure? { Failure.of(world, engine, explorer, known: known) }
        var encoder = StateEncoder(program: engine.program, initial: world)
        var store = StateStore()
        encoder.encode(world)
        _ = store.insert(encoder.bytes.raw)
        space.maxStates = maxStates
        func standings(_ world: World) -> [Standing] {
            let runnable = engine.runnableThreads(world)
            return world.threads.indices.map { thread in
                if world.threads[thread].isFinished { return .finished }
                if runnable.contains(thread) { return .canRun }
                return .waiting(engine.waitDescription(world, thread)?.text ?? "cannot run")
            }
        }
        space.worlds = [world]
        space.standings = [standings(world)]
        space.edges = [[]]
        space.cut = [false]
        space.failures = [failure(world)]
        // The kept runs' states come first after the start, so the breadth-first search
        // below grows from all of them at once.
        for path in paths {
            var current = world
            for name in path {
                guard !current.halted, failure(current) == nil, let thread = current.thread(named: name),
                    engine.runnableMask(current) & (1 << UInt64(thread)) != 0
                else { break }
                current = engine.step(current, thread: thread).0
                encoder.encode(current)
                if store.insert(encoder.bytes.raw).isNew {
                    space.worlds.append(current)
                    space.standings.append(standings(current))
                    space.edges.append([])
                    space.cut.append(false)
                    space.failures.append(failure(current))
                }
            }
        }
        // The steps between states, numbers only, for the livelock check.
        var graph = StateGraph()
        for _ in space.worlds { graph.addState() }
        var next = 0
        var late = false
        while next < space.worlds.count {
            if next & 63 == 0, let deadline, deadline.hasPassed { late = true }
            graph.beginEdges(of: next)
            let current = space.worlds[next]
            // Past 64 threads the searches cannot follow who may run: the page stops here.
            if current.threads.count > 64 {
                space.cut[next] = true
                next += 1
                continue
            }
            var bits = current.halted || space.failures[next] != nil ? 0 : engine.runnableMask(current)
            while bits != 0 {
                let thread = bits.trailingZeroBitCount
                bits &= bits - 1
                var successor = current
                let (events, progressed) = engine.narratedStep(&successor, thread: thread)
                encoder.encode(successor)
                let (index, isNew) = store.insert(encoder.bytes.raw)
                // Past the budget a new state is left out, and so is every step to it.
                if isNew && (late || space.worlds.count >= max(maxStates, 1)) || index >= space.worlds.count && !isNew {
                    space.cut[next] = true
                    continue
                }
                if isNew {
                    space.worlds.append(successor)
                    space.standings.append(standings(successor))
                    space.edges.append([])
                    space.cut.append(false)
                    space.failures.append(failure(successor))
                    graph.addState()
                }
                space.edges[next].append(Edge(thread: thread, target: index, events: events, progressed: progressed))
                graph.addEdge(from: next, to: index, thread: thread, progress: progressed)
            }
            next += 1
        }
        space.loops =
            space.isComplete
            ? graph.livelockLoops().map { $0.map { Loop(next: $0.next, length: $0.length) } } : Array(repeating: nil, count: space.worlds.count)
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
