import RaceLabLanguage

/// The stateless search: every interleaving, depth first, keeping one world per level
/// of the search (memory grows with depth, not with the number of executions).
///
/// With `.dpor` it runs optimal DPOR (Abdulla, Aronis, Jonsson and Sagonas, POPL
/// 2014): after each step it finds the races of that step with earlier ones
/// (dependent, different threads, not ordered through a third step) and adds the
/// sequence that reverses each race to the wakeup tree where the race began
/// (StatelessSearch+Reversals, WakeupTree). Sleep sets (SleepSets) keep two explored
/// executions from being the same trace; wakeup trees keep the search from running
/// into a state where every thread is asleep.
struct StatelessSearch: Search {
    let explorer: Explorer
    /// Sees the trace of every complete execution (the tests' oracle uses it).
    var visit: ((Trace) -> Void)?

    // Kept, not read through `explorer` at every step (a copy of the configuration each time).
    let engine: Engine
    let config: ExploreConfig

    /// Runs `explorer`'s configuration as it is: `SearchPlan` has decided it (a program
    /// whose threads' ability to run depends on the others gets no reduction).
    init(explorer: Explorer, visit: ((Trace) -> Void)? = nil) {
        self.visit = visit
        self.explorer = explorer
        engine = explorer.engine
        config = explorer.config
    }

    /// A search under way: all it holds between two executions, so that it can stop
    /// at the end of one and go on later where it stopped (`Explorer.exploreChoosing`
    /// takes turns between the two searches without starting either again).
    struct Run {
        var result: Exploration
        /// Whether it is over: explored to the end, or cut by a bound.
        var ended = false
        fileprivate var trace = Trace()
        fileprivate var seenRaces = Explorer.SeenRaces()
        fileprivate var outcomeKeys: [Explorer.OutcomeKey] = []
        fileprivate var sleeping = SleepSets()
        fileprivate var stack: [Node] = []
        fileprivate let deadline: Deadline?
        /// The most steps an execution has taken so far.
        var longest = 0
        /// How much of the search is done, as the current execution's place in the
        /// tree says (each node's explored branches over all it knows of, weighted by
        /// the share of the tree above): set when it pauses. Wakeup trees learn of
        /// branches late, so it runs ahead of the truth, which `exploreChoosing` allows for.
        var fraction = 0.0
        /// The steps taken (both kinds) when the first failure (a failing execution
        /// or a data race) was met.
        var failedAt: Int?
    }

    /// `visit` sees the trace of every complete execution (the tests' oracle uses it).
    func run(progress: Explorer.Progress?) -> Exploration {
        var run = start()
        resume(&run, progress: progress)
        return run.result
    }

    /// A search before its first execution (or over at once: no thread can run).
    func start() -> Run {
        var run = Run(result: Exploration(reduction: config.reduction), deadline: config.started().deadline)
        let initial = engine.initialWorld()
        guard initial.threads.count <= Engine.threadCap else {
            run.result.cut = .threadLimit(Engine.threadCap)
            run.ended = true
            return run
        }
        var root = Node(world: initial, enabled: engine.runnableMask(initial))
        if root.enabled == 0 {
            run.result.executions = 1
            explorer.record(root.world, trace: run.trace, into: &run.result, keys: &run.outcomeKeys)
            run.ended = true
            return run
        }
        root.startPending(config.reduction, sleeping: run.sleeping)
        run.stack.append(root)
        return run
    }

    /// Goes on with `run` until it is over, or until `pause` (asked at the end of each
    /// execution) says to stop there; `progress` may cut it (`.stopped`).
    func resume(_ run: inout Run, progress: Explorer.Progress?, pause: ((Exploration) -> Bool)? = nil) {
        guard !run.ended else { return }
        // Taken out of `run` while the search works (and put back however it leaves),
        // so that no array is shared, and none is copied, on its first change.
        var result = Exploration(reduction: config.reduction), trace = Trace(), seenRaces = Explorer.SeenRaces(), outcomeKeys: [Explorer.OutcomeKey] = []
        var sleeping = SleepSets(), stack: [Node] = []
        func exchange() {
            swap(&result, &run.result)
            swap(&trace, &run.trace)
            swap(&seenRaces, &run.seenRaces)
            swap(&outcomeKeys, &run.outcomeKeys)
            swap(&sleeping, &run.sleeping)
            swap(&stack, &run.stack)
        }
        exchange()
        var paused = false
        defer {
            exchange()
            run.ended = !paused
        }
        let deadline = run.deadline
        let log = EventLog(narrate: false)
        // Invariant: stack[d] holds the world after the first d steps of the current
        // execution, `trace` those steps (truncated to d when node d is resumed), and
        // each node's sleep set names steps of `sleeping` that lead only to executions
        // already explored from there; a node leaves the stack when its pending tree is
        // empty, and its parent's current step then goes to sleep.
        search: while !stack.isEmpty {
            let depth = stack.count - 1
            trace.truncate(to: depth)
            guard !stack[depth].pending.isEmpty else {
                sleeping.wake(downTo: stack[depth].sleepingStart)
                stack.removeLast()
                if let parent = stack.indices.last { finish(&stack[parent], sleeping: &sleeping) }
                continue
            }
            let branch = stack[depth].pending.branches.removeFirst()
            let thread = branch.step.thread
            guard stack[depth].isEnabled(thread) else { continue }
            if let bound = config.preemptionBound, stack[depth].isPreemption(thread), stack[depth].preemptions >= bound {
                if result.cut == nil { result.cut = .preemptionBound(bound) }
                continue
            }
            var world = stack[depth].world
            let threadCount = world.threads.count
            engine.quietStep(&world, thread: thread, log: log)
            let accesses = log.accesses, range = log.range, copied = log.copied
            result.steps += 1
            // The clock and the memory are read every 256 steps, so a long execution
            // cannot outrun them, and the memory after any step that copied much.
            if result.steps & 255 == 0, let deadline, deadline.hasPassed(keepingShareForCounterexample: result.shortestFailure != nil) {
                result.cut = .timeLimit(deadline.seconds)
                break search
            }
            if result.steps & 255 == 0 || copied >= 1_024 {
                let held = stack.reduce(trace.estimatedBytes + sleeping.estimatedBytes) { $0 &+ $1.bytes }
                result.memory = max(result.memory, held)
                if held > config.maxStateMemory {
                    result.cut = .memoryBound(config.maxStateMemory)
                    break search
                }
            }
            trace.append(
                thread: thread, accesses: accesses, halts: world.halted,
                creates: threadCount..<world.threads.count, range: range, detectRaces: config.detectRaces)
            let step = trace.step(depth)
            stack[depth].current = step
            if config.detectRaces {
                explorer.recordRaces(depth, trace: trace, world: world, seen: &seenRaces, into: &result)
                if accesses.contains(where: { $0.kind == .acquire }) {
                    explorer.recordLockOrder(
                        heldBefore: stack[depth].world.headers, after: world, thread: thread, accesses: accesses,
                        line: range?.start.line, into: &result)
                }
            }
            if config.reduction == .dpor {
                addReversals(for: depth, trace: trace, stack: &stack, sleeping: sleeping, reversalSteps: &result.reversalSteps, log: log)
            }

            if world.threads.count > Engine.threadCap {
                result.cut = .threadLimit(Engine.threadCap)
                break search
            }
            let enabled = engine.runnableMask(world)
            let terminal = enabled == 0 || world.halted || depth + 1 >= config.maxSteps
            if terminal {
                if depth + 1 >= config.maxSteps && enabled != 0 && !world.halted {
                    result.cut = .stepBound(config.maxSteps)
                    if config.reduction == .dpor {
                        addReversalsOfCut(
                            world, enabled: enabled, trace: &trace, stack: &stack, sleeping: sleeping,
                            reversalSteps: &result.reversalSteps, log: log)
                    }
                }
                if config.reduction == .dpor {
                    addReversalsOfWaitingMain(
                        world, trace: &trace, stack: &stack, sleeping: sleeping, reversalSteps: &result.reversalSteps, log: log)
                }
                if world.halted && config.detectRaces {
                    explorer.recordRacesOfHalt(at: depth, trace: trace, from: stack[depth], log: log, seen: &seenRaces, into: &result)
                }
                if world.halted && config.reduction == .dpor {
                    addReversalsOfHalt(by: thread, at: depth, stack: &stack, sleeping: sleeping, log: log)
                }
                result.executions += 1
                if depth + 1 > run.longest { run.longest = depth + 1 }
                explorer.record(world, trace: trace, into: &result, keys: &outcomeKeys)
                if run.failedAt == nil, result.hasFailed {
                    run.failedAt = result.steps + result.reversalSteps
                }
                visit?(trace)
                finish(&stack[depth], sleeping: &sleeping)
            } else {
                // Built in place on the stack: a node is large, and copying one in costs a
                // retain of each of its arrays.
                let preemptions = stack[depth].preemptions + (stack[depth].isPreemption(thread) ? 1 : 0)
                let bytes = world.estimatedBytes &+ copied &* MemoryLayout<Value>.stride
                stack.append(Node(world: consume world, enabled: enabled, last: thread, preemptions: preemptions, bytes: bytes))
                let child = depth + 1
                if config.reduction == .dpor {
                    stack[child].sleepingStart = sleeping.count
                    stack[child].sleep = sleeping.inherited(from: stack[depth], after: step)
                }
                if branch.tree.isEmpty {
                    stack[child].startPending(config.reduction, sleeping: sleeping)
                } else {
                    stack[child].pending = branch.tree
                }
                if stack[child].pending.isEmpty {
                    result.sleepBlocked += 1
                    stack.removeLast()
                    finish(&stack[depth], sleeping: &sleeping)
                }
            }
            if terminal {
                if progress != nil {
                    var guess = 1.0
                    for node in stack { guess *= Double(max(1, node.explored + node.pending.branches.count)) }
                    result.estimate = Int(min(guess, min(1e15, Double(Int.max))))
                }
                if let progress, !progress(result) {
                    result.cut = .stopped
                    break search
                }
                if let margin = config.failureMargin, let at = run.failedAt, result.steps + result.reversalSteps - at >= margin {
                    result.cut = .afterFailure(margin, .steps)
                    break search
                }
                if result.executions >= config.maxExecutions {
                    result.cut = .executionBound(config.maxExecutions)
                    break search
                }
                if let deadline, result.executions % 64 == 0, deadline.hasPassed(keepingShareForCounterexample: result.shortestFailure != nil) {
                    result.cut = .timeLimit(deadline.seconds)
                    break search
                }
                if let pause, !stack.isEmpty, pause(result) {
                    var share = 1.0
                    run.fraction = 0
                    for node in stack {
                        let known = Double(node.explored + node.pending.branches.count + 1)
                        run.fraction += share * Double(node.explored) / known
                        share /= known
                    }
                    paused = true
                    break search
                }
            }
        }
    }

    /// The step explored from a node is done; under DPOR it goes to sleep there.
    func finish(_ node: inout Node, sleeping: inout SleepSets) {
        guard let current = node.current else { return }
        node.explored += 1
        if config.reduction == .dpor {
            sleeping.putToSleep(current, in: &node)
        }
        node.current = nil
    }
}
