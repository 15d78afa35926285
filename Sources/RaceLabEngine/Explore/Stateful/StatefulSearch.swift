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
    /// Data races are found as the stateless searches find them: a step races with
    /// every conflicting access of another thread that happens-before does not order
    /// before it. Two conflicting steps that can both run from one state race (one of
    /// them would be blocked if anything ordered them), as does a step that stops the
    /// program with what another thread would do instead; once the graph is built,
    /// each access is followed along every path from the steps that make it
    /// (`recordOrderedRaces`), which finds the rest: `data` in a flag published with
    /// a plain variable, written and read only on either side of the flag's own race.
    ///
    /// The walk itself (order, storage, the thread cap) is `ReachableStates`'s.
    /// Invariant: every state waiting is in the store and not yet expanded (or, under
    /// sleep sets, to be expanded again); every state in the store is expanded or waiting.
    func run(progress: Explorer.Progress?) -> Exploration {
        completed(searchOnce(progress: progress), progress: progress)
    }

    /// The result of a search that is over. Livelock needs every step of a cycle,
    /// which sleep sets skip: a reduced graph with a cycle that makes no progress is
    /// searched again without them. One with none has no livelock to find: a run
    /// that goes on forever keeps a cycle of its own steps in the reduced graph (see
    /// `StateSleepSets`), so a full graph's cycle without progress leaves one there.
    func completed(_ result: Exploration, progress: Explorer.Progress?) -> Exploration {
        var result = result
        if result.sleepSets, result.cut == nil, result.failingExecutions == 0, result.hasNonProgressCycle {
            let first = (states: result.states, steps: result.steps)
            var full = self
            full.sleepSets = false
            result = full.searchOnce(progress: progress)
            result.sleepSetsRetried = first
        }
        return result
    }

    /// What a state waiting to be expanded carries under sleep sets: the steps asleep
    /// on arrival, and on a revisit the threads to run (the ones asleep at the earlier
    /// visit and awake now).
    struct SleepMark {
        var asleep: [Sleeper] = []
        var revisit: UInt64?
    }

    /// A step asleep in a state (a thread's next step, which another order covers).
    struct Sleeper {
        var step: WakeupStep
        var line: Int?
    }

    /// One search, with or without sleep sets, as `sleepSets` says.
    func searchOnce(progress: Explorer.Progress?) -> Exploration {
        var run = start()
        run.resume(progress: progress)
        return run.result
    }

    /// A search before its first state is expanded (or over at once: too many threads).
    func start() -> Run {
        var result = Exploration(reduction: config.reduction)
        result.search = .stateful
        result.sleepSets = sleepSets
        let initial = engine.initialWorld()
        var run = Run(
            search: self, result: result, deadline: config.started().deadline, initial: initial,
            states: ReachableStates(program: engine.program, start: initial, mark: SleepMark()), growth: GrowthWatch(explorer, initial))
        guard run.states.store.count > 0 else {
            run.result.cut = .threadLimit(Engine.threadCap)
            run.ended = true
            return run
        }
        visit?(initial)
        if sleepSets { run.sleep.addState(asleep: 0) }
        return run
    }

    /// The world a path of the graph leads to, and the threads that ran on the way:
    /// the path's, and under the reduction the blocks each step took with it
    /// (`Engine.takePendingBlocks`).
    func replay(_ path: [ThreadID], from initial: World, reduced: Bool, log: EventLog) -> (World, [ThreadID]) {
        var world = initial
        var taken: [ThreadID] = []
        for thread in path {
            engine.quietStep(&world, thread: thread, log: log)
            taken.append(thread)
            if reduced { taken += engine.takePendingBlocks(&world, log: log).threads }
        }
        return (world, taken)
    }

    /// Reads the report off the graph: depth, schedules, counts and livelock. Counts
    /// and livelock need the whole graph: a cut search keeps final-state counts and
    /// looks for no livelock (an unexpanded state's steps are unknown).
    func finishStateful(
        _ result: inout Exploration, graph: StateGraph, initial: World, complete: Bool, races: (effects: StepEffects, deadline: Deadline?, held: Int),
        seen: inout Explorer.SeenRaces
    ) {
        let tree = graph.breadthFirst()
        result.depth = tree.depth
        if config.detectRaces && needsOrderedRaces(result) {
            recordOrderedRaces(
                graph: graph, tree: tree, effects: races.effects, initial: initial, deadline: races.deadline, held: races.held, seen: &seen,
                into: &result)
        }
        let complete = complete && result.cut == nil
        let log = EventLog(narrate: false)
        // Thread IDs to names, replayed: a spawned thread's name is the world's.
        func names(_ path: [ThreadID]) -> Schedule {
            let (world, taken) = replay(path, from: initial, reduced: result.sleepSets, log: log)
            return Schedule(taken.map { world.threadNames[$0] })
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
        result.hasNonProgressCycle = result.hasCycle && graph.hasNonProgressCycle()
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
        result.interleavings = .sum(result.outcomes.map({ $0.interleavings }))
        if result.hasCycle, !result.sleepSets, let lasso = graph.livelock(tree: tree) {
            let path = tree.path(to: lasso.start, in: graph)
            let all = names(path + lasso.cycle)
            result.livelock = Livelock(
                prefix: Schedule(all.prefix(path.count)), cycle: Schedule(all.dropFirst(path.count)),
                progressMarked: engine.program.marksProgress)
        }
    }
}
