/// The stateful search: every distinct world once, so a program whose threads loop
/// forever is explored exhaustively as long as it has finitely many states.
struct StatefulSearch: Search {
    let explorer: Explorer
    /// Skip steps with sleep sets (`StateSleepSets`).
    var sleepSets = false
    /// Sees every state's world as it is stored (the tests compare them).
    var visit: ((World) -> Void)?

    // Kept, not read through `explorer` at every step (a copy of the configuration each time).
    let engine: Engine
    let config: ExploreConfig

    /// Runs `explorer`'s configuration as it is (`SearchPlan` has decided it: sleep
    /// sets only where DPOR's assumptions hold); `sleepSets` overrides it for the tests.
    init(explorer: Explorer, sleepSets: Bool? = nil, visit: ((World) -> Void)? = nil) {
        self.explorer = explorer
        self.sleepSets = sleepSets ?? explorer.config.sleepSets
        self.visit = visit
        engine = explorer.engine
        config = explorer.config
    }

    /// Visits every world reachable from the start, each once (`StateStore` keeps
    /// their canonical bytes), breadth first: the states one step from the start,
    /// then two, and so on, so the first failure met is a nearest one, and a state
    /// space that grows forever (a counter that keeps counting) still has every state
    /// near the start explored before a budget ends the search. Only the frontier's
    /// worlds are held whole. Every step from every state is taken, so the store ends
    /// up holding the whole state graph (`StateGraph`), and what the report needs is
    /// read off it afterwards, from numbers alone:
    ///
    /// - the outcomes, from the final states (no thread can run, or the program halted);
    /// - the shortest failing schedule, breadth first over the graph (fewest steps);
    /// - the counts: paths from the start to each final state when the graph has no
    ///   cycle (the interleavings, as `--reduction none` counts them), else final states;
    /// - livelock: a cycle that a fair scheduler can keep running with no `progress`.
    ///
    /// Three bounds end it early, each said in the result: a state at `maxSteps` from
    /// the start is stored but not expanded (`depthBound`: every state within that many
    /// steps was explored); past a failure, at most `failureMargin` more states are
    /// stored (`afterFailure`: the failure stands, the outcomes are partial); and the
    /// state, memory and time budgets.
    ///
    /// Data races are two conflicting steps that can both run from one state (no
    /// lock, queue or thread start orders them: one of them would be blocked); a
    /// step that stops the program races so with what another thread would do
    /// instead. Where that can miss every race of a racy program (a relaxed atomic,
    /// a strict-priority scheduler: `HappensBefore.isNeeded`), each visit also
    /// carries what is ordered before each thread, and a step races with every
    /// conflicting access not ordered before it, as in the stateless searches.
    ///
    /// Invariant: every state in `frontier[head...]` is in the store and not yet
    /// expanded; every state in the store is expanded or in the frontier; the
    /// frontier's depths never decrease.
    func run(progress: Explorer.Progress?) -> Exploration {
        var result = searchOnce(progress: progress)
        // Livelock needs every step of a cycle, which sleep sets skip: a graph with a
        // cycle is searched again without them (an acyclic one has no cycle to find:
        // see `StateSleepSets`).
        if result.sleepSets, result.cut == nil, result.failingExecutions == 0, result.hasCycle {
            let first = (states: result.states, steps: result.steps)
            var full = self
            full.sleepSets = false
            result = full.searchOnce(progress: progress)
            result.sleepSetsRetried = first
        }
        return result
    }

    /// A state waiting to be expanded, with its world. Under sleep sets it carries
    /// the steps asleep on arrival, and on a revisit the threads to run: the ones
    /// asleep at the earlier visit and awake now.
    struct PendingState {
        var state: Int
        var world: World
        var depth: Int
        var asleep: [Sleeper] = []
        var revisit: UInt64?
        /// Its world's estimated size, counted in `Frontier.bytes` while it waits.
        var bytes = 0
        /// What the race detector knows here (`HappensBefore`): where it is needed,
        /// and never in a final state.
        var order: HappensBefore?
        /// A visit for the race detector alone: the state was expanded before, with
        /// another order, so its steps are in the graph; they are taken again only for
        /// the races they make, and lead on only to visits not made yet.
        var ordersOnly = false
    }

    /// The states waiting to be expanded, first in first out (breadth first).
    struct Frontier {
        /// Taken states leave nil behind, so their worlds are freed at once.
        private var pending: [PendingState?]
        private var head = 0
        /// What the waiting worlds hold, estimated (`World.estimatedBytes`): counted
        /// against the memory budget with the store and the graph.
        private(set) var bytes = 0

        init(_ first: PendingState) {
            pending = []
            append(first)
        }

        /// The worlds waiting.
        var waiting: [World] { pending[head...].compactMap { $0?.world } }

        mutating func append(_ state: consuming PendingState) {
            state.bytes = state.world.estimatedBytes
            bytes += state.bytes
            pending.append(state)
        }

        /// The oldest state waiting, or nil when none is left. Expanded states' slots
        /// are dropped once they are half the array, so it holds about the frontier.
        mutating func next() -> PendingState? {
            guard head < pending.count else { return nil }
            let state = pending[head].take()
            head += 1
            bytes -= state?.bytes ?? 0
            if head >= 4_096 && head * 2 >= pending.count {
                pending.removeFirst(head)
                head = 0
            }
            return state
        }
    }

    /// A step asleep in a state (a thread's next step, which another order covers).
    struct Sleeper {
        var step: WakeupStep
        var line: Int?
    }

    /// One search, with or without sleep sets, as `sleepSets` says.
    func searchOnce(progress: Explorer.Progress?) -> Exploration {
        var result = Exploration(reduction: config.reduction)
        result.search = .stateful
        result.sleepSets = sleepSets
        let deadline = config.started().deadline
        let log = EventLog(narrate: false)
        let initial = engine.initialWorld()
        guard initial.threads.count <= 64 else {
            result.cut = .threadLimit(64)
            return result
        }
        var encoder = StateEncoder(program: engine.program, initial: initial)
        var store = StateStore()
        // The visits made, by state and order (`PendingState.ordersOnly`).
        var visits = StateStore()
        var graph = StateGraph()
        var sleep = StateSleepSets()
        var keys: [Explorer.OutcomeKey] = []
        var seenRaces = Explorer.SeenRaces()
        let initialOrder =
            config.detectRaces && HappensBefore.isNeeded(for: engine.program)
            ? HappensBefore(threads: initial.threads.count, program: engine.program) : nil
        encoder.encode(initial)
        _ = store.insert(encoder.bytes.raw)
        if let initialOrder {
            encoder.encode(state: 0, order: initialOrder)
            _ = visits.insert(encoder.bytes.raw)
        }
        graph.addState()
        visit?(initial)
        if sleepSets { sleep.addState(asleep: 0) }
        var frontier = Frontier(PendingState(state: 0, world: initial, depth: 0, order: initialOrder))
        var stepped: [(thread: ThreadID, accesses: [Access], line: Int?)] = []
        var expanded = 0
        // The number of states stored when the first failure was met.
        var storedAtFailure: Int?
        // The most the store, graph, sleep sets and waiting worlds held together.
        var peakMemory = 0
        var depthCut = false
        // The sizes the states at the search's edge reach, to name what keeps growing.
        var growth = GrowthWatch(explorer, initial)
        search: while let pending = frontier.next() {
            if let margin = config.failureMargin, let at = storedAtFailure, store.count - at >= margin {
                result.cut = .afterFailure(margin)
                break search
            }
            let state = pending.state, world = pending.world, depth = pending.depth
            let enabled = world.halted ? 0 : engine.runnableMask(world)
            if enabled == 0 {
                // A revisit of a final state has nothing to run (no step sleeps there).
                guard graph.final[state] < 0 else { continue }
                let index = explorer.outcomeIndex(world, explorer.ending(of: world), into: &result, keys: &keys) { [] }
                graph.final[state] = Int32(index)
                result.outcomes[index].executions += 1
                result.executions += 1
                if storedAtFailure == nil, result.outcomes[index].outcome.isFailure { storedAtFailure = store.count }
                continue
            }
            if depth >= config.maxSteps {
                // Every state this near the start is explored; what lies further is not.
                depthCut = true
                growth.add(world)
                continue
            }
            let ordersOnly = pending.ordersOnly
            if !ordersOnly { graph.beginEdges(of: state) }
            stepped.removeAll(keepingCapacity: true)
            // The steps asleep for the children: the ones asleep here, then each step
            // taken here, in the order taken.
            var done = pending.asleep
            var bits = ordersOnly ? enabled : enabled & (pending.revisit ?? ~StateSleepSets.threads(pending.asleep))
            while bits != 0 {
                let thread = bits.trailingZeroBitCount
                bits &= bits - 1
                var next = world
                let threadCount = world.threads.count
                engine.quietStep(&next, thread: thread, log: log)
                result.steps += 1
                if next.threads.count > 64 {
                    result.cut = .threadLimit(64)
                    break search
                }
                let line = log.range?.start.line
                var order: HappensBefore?
                if var known = pending.order {
                    known.forEachRace(of: thread, log.accesses) { other, record, access in
                        explorer.recordOrderedRace(
                            (other, record.access, record.line < 0 ? nil : record.line), (thread, access, line), at: depth, world: next,
                            seen: &seenRaces, into: &result)
                    }
                    if !next.halted && engine.runnableMask(next) != 0 {
                        known.step(thread, log.accesses, line: line, threads: next.threads.count, finished: next.threads[thread].isFinished)
                        order = known
                    }
                }
                if config.detectRaces {
                    if log.accesses.contains(where: Trace.isData) { stepped.append((thread, log.accesses, line)) }
                    if !ordersOnly, log.accesses.contains(where: { $0.kind == .acquire }) {
                        explorer.recordLockOrder(heldBefore: world.headers, after: next, thread: thread, accesses: log.accesses, line: line, into: &result)
                    }
                }
                encoder.encode(next)
                if ordersOnly {
                    // Under sleep sets a step skipped at the state's first visit leads
                    // to no stored state: its races are recorded, and it goes no further.
                    guard let target = store.find(encoder.bytes.raw), let order else { continue }
                    encoder.encode(state: target, order: order)
                    if visits.insert(encoder.bytes.raw).isNew {
                        frontier.append(PendingState(state: target, world: consume next, depth: depth + 1, order: order, ordersOnly: true))
                    }
                    continue
                }
                let (target, isNew) = store.insert(encoder.bytes.raw)
                graph.addEdge(from: state, to: target, thread: thread, progress: log.progressed)
                if isNew {
                    graph.addState()
                    visit?(next)
                }
                // Another order at a state stored before: a visit for the races alone.
                var newOrder = false
                if let order {
                    encoder.encode(state: target, order: order)
                    newOrder = visits.insert(encoder.bytes.raw).isNew && !isNew
                }
                guard sleepSets else {
                    if isNew || newOrder {
                        frontier.append(PendingState(state: target, world: consume next, depth: depth + 1, order: order, ordersOnly: !isNew))
                    }
                    continue
                }
                var spawns: UInt64 = 0
                for spawned in threadCount..<next.threads.count { spawns |= 1 << UInt64(spawned) }
                let step = WakeupStep(thread: thread, accesses: StepAccesses(log.accesses), halts: next.halted, spawns: spawns)
                let asleep = done.filter { !$0.step.isDependent(step) }
                let threads = StateSleepSets.threads(asleep)
                if isNew {
                    sleep.addState(asleep: threads)
                    frontier.append(PendingState(state: target, world: consume next, depth: depth + 1, asleep: asleep, order: order))
                } else if let wake = sleep.revisit(target, asleep: threads) {
                    frontier.append(
                        PendingState(state: target, world: consume next, depth: depth + 1, asleep: asleep, revisit: wake, order: order))
                } else if newOrder {
                    frontier.append(PendingState(state: target, world: consume next, depth: depth + 1, order: order, ordersOnly: true))
                }
                done.append(Sleeper(step: step, line: line))
            }
            if config.detectRaces {
                // A sleeping step can run here too: it races with what it conflicts with.
                for sleeper in pending.asleep where sleeper.step.accesses.contains(where: Trace.isData) {
                    pending.order?.forEachRace(of: sleeper.step.thread, sleeper.step.accesses) { other, record, access in
                        explorer.recordOrderedRace(
                            (other, record.access, record.line < 0 ? nil : record.line), (sleeper.step.thread, access, sleeper.line),
                            at: depth, world: world, seen: &seenRaces, into: &result)
                    }
                    stepped.append((sleeper.step.thread, Array(sleeper.step.accesses), sleeper.line))
                }
                if stepped.count > 1 { explorer.recordCoenabledRaces(stepped, at: depth, world: world, seen: &seenRaces, into: &result) }
            }
            if store.count >= config.maxStates {
                result.cut = .stateBound(config.maxStates)
                break search
            }
            let held = store.bytes + visits.bytes + graph.bytes + sleep.bytes + frontier.bytes
            peakMemory = max(peakMemory, held)
            if held > config.maxStateMemory {
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
        if result.cut == nil, depthCut { result.cut = .depthBound(config.maxSteps) }
        if result.cut != nil, result.failingExecutions == 0 {
            for world in frontier.waiting { growth.add(world) }
            result.growing = growth.grown
        }
        result.states = store.count
        result.transitions = graph.edgeCount
        result.memory = max(peakMemory, store.bytes + visits.bytes + graph.bytes + sleep.bytes)
        assert(graph.isConsistent(complete: result.cut == nil && !sleepSets), "the state graph breaks its invariants")
        assert(store.isConsistent(), "the state store breaks its invariants")
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
        let paths = complete ? graph.pathCounts() : nil
        result.hasCycle = complete && paths == nil
        if let paths, !result.sleepSets {
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
        if result.hasCycle, !result.sleepSets, let lasso = graph.livelock(tree: tree) {
            let path = tree.path(to: lasso.start, in: graph)
            let all = names(path + lasso.cycle)
            result.livelock = Livelock(
                prefix: Array(all.prefix(path.count)), cycle: Array(all.dropFirst(path.count)),
                progressMarked: engine.program.marksProgress)
        }
    }
}
