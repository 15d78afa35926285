/// Visits every interleaving of a program, depth first, keeping one world per level
/// of the search (memory grows with depth, not with the number of executions).
///
/// With `.dpor` it runs optimal DPOR (Abdulla, Aronis, Jonsson and Sagonas, POPL
/// 2014): after each step it finds the races of that step with earlier ones
/// (dependent, different threads, not ordered through a third step) and adds the
/// sequence that reverses each race to the wakeup tree where the race began. Sleep
/// sets keep two explored executions from being the same trace; wakeup trees keep
/// the search from running into a state where every thread is asleep.
public struct Explorer {
    public let engine: Engine
    public let config: ExploreConfig
    /// The shared variables (`var` globals) an outcome shows, in declaration order.
    let variables: [Int]

    public init(program: Program, config: ExploreConfig = ExploreConfig()) {
        self.init(engine: Engine(program: program, localBudget: 10_000), config: config)
    }

    init(engine: Engine, config: ExploreConfig) {
        self.engine = engine
        self.config = config
        variables = engine.program.globals.indices.filter { !engine.program.globals[$0].isLet }
    }

    /// Called after every complete execution with the running totals; return false to stop.
    public typealias Progress = (Exploration) -> Bool

    struct Node {
        var world: World
        /// The threads that can run here, as a bit set.
        var enabled: UInt64
        /// What is still to explore from here, leftmost first.
        var pending = WakeupTree()
        var explored = 0
        /// Steps known to lead only to explored traces from here (DPOR): positions in
        /// the search's `sleeping` steps.
        var sleep = BitSet()
        /// How many sleeping steps the search held when this node was made: the ones
        /// from there on went to sleep here, and go when the node does.
        var sleepingStart = 0
        /// The step being explored from here.
        var current: WakeupStep?
        var last: ThreadID?
        var preemptions = 0

        func isAsleep(_ thread: ThreadID, _ sleeping: [WakeupStep]) -> Bool { sleep.contains { sleeping[$0].thread == thread } }

        func isEnabled(_ thread: ThreadID) -> Bool { enabled & (1 << UInt64(thread)) != 0 }

        /// Whether running `thread` here stops the thread that ran last while it could go on.
        func isPreemption(_ thread: ThreadID) -> Bool {
            guard let last, last != thread else { return false }
            return isEnabled(last)
        }

        /// Where the search from here starts: every enabled thread without reduction;
        /// under DPOR, one awake thread (the one that just ran, if it can: fewer
        /// preemptions), or nothing when every enabled thread is asleep.
        mutating func startPending(_ reduction: ExploreConfig.Reduction, sleeping: [WakeupStep]) {
            switch reduction {
            case .none:
                pending = WakeupTree(threads: enabledThreads)
            case .dpor:
                if let last, isEnabled(last), !isAsleep(last, sleeping) {
                    pending = WakeupTree(thread: last)
                    return
                }
                var bits = enabled
                while bits != 0 {
                    let thread = bits.trailingZeroBitCount
                    if !isAsleep(thread, sleeping) {
                        pending = WakeupTree(thread: thread)
                        return
                    }
                    bits &= bits - 1
                }
                pending = WakeupTree()
            }
        }

        /// The enabled threads, in creation order.
        var enabledThreads: [ThreadID] {
            var result: [ThreadID] = []
            var bits = enabled
            while bits != 0 {
                result.append(bits.trailingZeroBitCount)
                bits &= bits - 1
            }
            return result
        }
    }

    /// Explores as `config.search` says: the stateless search (`reduction`) or the
    /// stateful one (`exploreStatefully`). Both fill the same `Exploration`.
    public func explore(progress: Progress? = nil) -> Exploration {
        switch config.search {
        case .stateless: return explore(progress: progress, visit: nil)
        case .stateful: return exploreStatefully(progress: progress)
        }
    }

    /// `visit` sees the trace of every complete execution (the tests' oracle uses it).
    func explore(progress: Progress?, visit: ((Trace) -> Void)?) -> Exploration {
        var result = Exploration(reduction: config.reduction)
        let deadline = config.started().deadline
        var trace = Trace()
        var seenRaces = SeenRaces()
        var outcomeKeys: [OutcomeKey] = []
        /// The steps asleep somewhere on the current path, in the order they went to
        /// sleep; each node's sleep set names some of them.
        var sleeping: [WakeupStep] = []
        let log = EventLog(narrate: false)
        let initial = engine.initialWorld()
        var stack: [Node] = []
        guard initial.threads.count <= 64 else {
            result.cut = .threadLimit(64)
            return result
        }
        var root = Node(world: initial, enabled: engine.runnableMask(initial))
        if root.enabled == 0 {
            result.executions = 1
            record(root.world, trace: trace, into: &result, keys: &outcomeKeys)
            return result
        }
        root.startPending(config.reduction, sleeping: sleeping)
        stack.append(root)
        // Invariant: stack[d] holds the world after the first d steps of the current
        // execution, `trace` those steps (truncated to d when node d is resumed), and
        // each node's sleep set names steps of `sleeping` that lead only to executions
        // already explored from there; a node leaves the stack when its pending tree is
        // empty, and its parent's current step then goes to sleep.
        search: while !stack.isEmpty {
            let depth = stack.count - 1
            trace.truncate(to: depth)
            guard !stack[depth].pending.isEmpty else {
                while sleeping.count > stack[depth].sleepingStart { sleeping.removeLast() }
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
            let accesses = log.accesses, range = log.range
            result.steps += 1
            // The clock is read every 256 steps, so a long execution cannot outrun it.
            if result.steps & 255 == 0, let deadline, deadline.hasPassed(keepingShareForCounterexample: result.shortestFailure != nil) {
                result.cut = .timeLimit(deadline.seconds)
                break search
            }
            trace.append(
                thread: thread, accesses: accesses, halts: world.halted,
                creates: threadCount..<world.threads.count, range: range, detectRaces: config.detectRaces)
            let step = trace.step(depth)
            stack[depth].current = step
            if config.detectRaces {
                recordRaces(depth, trace: trace, world: world, seen: &seenRaces, into: &result)
                if accesses.contains(where: { $0.kind == .acquire }) {
                    recordLockOrder(
                        heldBefore: stack[depth].world.headers, after: world, thread: thread, accesses: accesses,
                        line: range?.start.line, into: &result)
                }
            }
            if config.reduction == .dpor {
                addReversals(for: depth, trace: trace, stack: &stack, sleeping: sleeping, reversalSteps: &result.reversalSteps, log: log)
            }

            if world.threads.count > 64 {
                result.cut = .threadLimit(64)
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
                if world.halted && config.reduction == .dpor {
                    addReversalsOfHalt(by: thread, at: depth, stack: &stack, sleeping: sleeping, log: log)
                }
                result.executions += 1
                record(world, trace: trace, into: &result, keys: &outcomeKeys)
                visit?(trace)
                finish(&stack[depth], sleeping: &sleeping)
            } else {
                // Built in place on the stack: a node is large, and copying one in costs a
                // retain of each of its arrays.
                let preemptions = stack[depth].preemptions + (stack[depth].isPreemption(thread) ? 1 : 0)
                stack.append(Node(world: consume world, enabled: enabled, last: thread, preemptions: preemptions))
                let child = depth + 1
                if config.reduction == .dpor {
                    stack[child].sleepingStart = sleeping.count
                    for position in stack[depth].sleep where !sleeping[position].isDependent(step) {
                        stack[child].sleep.insert(position)
                    }
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
                    result.estimate = guess > 1e15 ? Int(1e15) : Int(guess)
                }
                if let progress, !progress(result) {
                    result.cut = .stopped
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
            }
        }
        return result
    }

    /// The step explored from a node is done; under DPOR it goes to sleep there.
    func finish(_ node: inout Node, sleeping: inout [WakeupStep]) {
        guard let current = node.current else { return }
        node.explored += 1
        if config.reduction == .dpor {
            sleeping.append(current)
            node.sleep.insert(sleeping.count - 1)
        }
        node.current = nil
    }
}
