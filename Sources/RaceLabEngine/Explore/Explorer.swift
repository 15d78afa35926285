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

    public func explore(progress: Progress? = nil) -> Exploration {
        explore(progress: progress, visit: nil)
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

    /// The races of the step at `index` with earlier steps: each one's reversal goes
    /// into the wakeup tree where the race began, unless a sleeping step covers it.
    func addReversals(
        for index: Int, trace: Trace, stack: inout [Node], sleeping: [WakeupStep], reversalSteps: inout Int,
        log: EventLog
    ) {
        for race in trace.races(of: index) {
            let steps = trace.reversal(of: race, with: index)
            // Built by hand: a closure would capture (and so copy) the trace.
            var sequence: [WakeupStep] = []
            sequence.reserveCapacity(steps.count)
            for step in steps { sequence.append(trace.step(step)) }
            if !trace.info[race].halts && trace.onlyReads(race) {
                // The earlier step only read: without it, every step of the reversal
                // sees the same state and takes the same step.
                insert(sequence, at: race, stack: &stack, sleeping: sleeping)
                continue
            }
            // A thread woken by the earlier step (it waited for a lock that step let
            // go of) cannot run before it: the steps in between leave the lock alone.
            // It could have run before the step that took the lock again, though.
            let thread = trace.threads[index]
            if let wait = stack[index].world.threads[thread].waiting, !engine.isSatisfied(stack[race].world, wait, for: thread) {
                if let taken = lastDisabling(of: thread, before: race, stack: stack) {
                    addReversal(of: taken, with: index, trace: trace, stack: &stack, sleeping: sleeping, reversalSteps: &reversalSteps, log: log)
                }
                continue
            }
            // A thread that takes a lock another thread holds there blocks: no replay.
            if let blocked = blockingStep(at: index, race: race, trace: trace, stack: stack) {
                assert(replay(sequence.lazy.map(\.thread), from: stack[race].world, log: log) == blocked)
                sequence[sequence.count - 1] = blocked
                insert(sequence, at: race, stack: &stack, sleeping: sleeping)
                continue
            }
            replayAndInsert(&sequence, at: race, stack: &stack, sleeping: sleeping, reversalSteps: &reversalSteps, log: log)
        }
    }

    /// Inserts a reversal whose last step is not known yet at node `race`: it is
    /// computed by a replay. Often the sequence is one the search will explore anyway,
    /// and that can be seen without its last step: then that step need not be
    /// computed. Until it is, the last step stands in with its thread alone.
    func replayAndInsert(
        _ sequence: inout [WakeupStep], at race: Int, stack: inout [Node], sleeping: [WakeupStep], reversalSteps: inout Int, log: EventLog
    ) {
        sequence[sequence.count - 1] = .pending(sequence[sequence.count - 1].thread)
        if isCovered(sequence, at: race, stack: stack, sleeping: sleeping) { return }
        reversalSteps += sequence.count
        guard let last = replay(sequence.lazy.map(\.thread), from: stack[race].world, log: log) else { return }
        sequence[sequence.count - 1] = last
        insert(sequence, at: race, stack: &stack, sleeping: sleeping)
    }

    /// The step that last kept waiting `thread` from running before node `race`,
    /// where it is waiting and cannot run: the latest earlier node where it was
    /// already waiting but could run (the lock it waits for was free) and another
    /// thread took the step that took the lock. Nil if it was not waiting yet.
    ///
    /// Taking a lock, or adding an operation to a queue a thread waits to see empty,
    /// makes the waiting thread unable to run, so the two steps are in a race that
    /// the steps in between hide: the thread's step is ordered after the taker's
    /// release only because it had to wait for it.
    func lastDisabling(of thread: ThreadID, before race: Int, stack: [Node]) -> Int? {
        var node = race
        while node > 0 {
            node -= 1
            let world = stack[node].world
            guard world.threads[thread].waiting != nil else { return nil }
            if engine.isRunnable(world, thread) { return node }
        }
        return nil
    }

    /// Adds the reversal of the race of step `race` with step `index`, whose thread
    /// can run at `race`'s node: the steps between them that do not depend on `race`,
    /// then `index`'s thread, whose step there is found by a replay.
    func addReversal(
        of race: Int, with index: Int, trace: Trace, stack: inout [Node], sleeping: [WakeupStep], reversalSteps: inout Int,
        log: EventLog
    ) {
        var sequence: [WakeupStep] = []
        for step in trace.reversal(of: race, with: index) { sequence.append(trace.step(step)) }
        replayAndInsert(&sequence, at: race, stack: &stack, sleeping: sleeping, reversalSteps: &reversalSteps, log: log)
    }

    /// The step of step `index`'s thread in the reversal of its race with step `race`,
    /// when it is sure to block: step `index` only takes a lock, its thread was not
    /// waiting, and another thread holds the lock where the race began. No step of the
    /// reversal before it takes or lets go of the lock (each would be ordered after
    /// step `race`, which touched the lock), so the holder still holds it at the
    /// thread's turn, and the thread, in the same state of its own as in the trace,
    /// blocks: a step that reads the lock and does nothing else. Known without a replay.
    func blockingStep(at index: Int, race: Int, trace: Trace, stack: [Node]) -> WakeupStep? {
        let accesses = trace.info[index].accesses
        guard !trace.info[race].halts, accesses.count == 1 else { return nil }
        let access = trace.accessList[accesses.lowerBound]
        guard access.kind == .acquire, case .lock(let lock) = access.target else { return nil }
        let thread = trace.threads[index]
        guard stack[index].world.threads[thread].waiting == nil,
            let owner = stack[race].world.headers[lock].owner, owner != thread
        else { return nil }
        return WakeupStep(thread: thread, accesses: [Access(.lock(lock), .read)], halts: false, spawns: 0)
    }

    /// Whether inserting `sequence` at `depth` would add nothing, whatever its last step
    /// (known only by its thread) is: a sleeping step or the wakeup tree covers it.
    func isCovered(_ sequence: [WakeupStep], at depth: Int, stack: [Node], sleeping: [WakeupStep]) -> Bool {
        var undecided = false
        for position in stack[depth].sleep {
            switch WakeupTree.start(sequence, lastKnown: false, without: BitSet(), with: sleeping[position]) {
            case .yes: return true
            case .unknown: undecided = true
            case .no: break
            }
        }
        return !undecided && stack[depth].pending.covers(sequence)
    }

    /// Runs `threads` in order from `world` and returns the last one's step, or nil if
    /// one of them cannot run at its turn. Reversing a race runs the later step in
    /// another state, where it may touch other things (no release of a value the
    /// earlier step wrote, say), and a thread waiting for a lock that only the
    /// earlier step would free cannot run at all. The steps before it do not depend
    /// on the earlier step, so they take the same steps as in the trace.
    func replay(_ threads: some Sequence<ThreadID>, from world: World, log: EventLog) -> WakeupStep? {
        var world = world
        var remaining = threads.makeIterator()
        var next = remaining.next()
        while let thread = next {
            guard engine.isRunnable(world, thread) else { return nil }
            let count = world.threads.count
            engine.quietStep(&world, thread: thread, log: log)
            next = remaining.next()
            if next == nil {
                let spawned = (count..<world.threads.count).reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
                return WakeupStep(thread: thread, accesses: StepAccesses(log.accesses), halts: world.halted, spawns: spawned)
            }
        }
        return nil
    }

    /// An execution cut at the step bound still has the next steps of its enabled
    /// threads: each is raced against the trace as if it ran next, so the search
    /// backtracks to try it earlier (a thread that loops forever must not hide a
    /// three-step failure of another). Each pending step goes on the trace and the
    /// final world on the stack for as long as its races are added.
    func addReversalsOfCut(
        _ world: World, enabled: UInt64, trace: inout Trace, stack: inout [Node], sleeping: [WakeupStep],
        reversalSteps: inout Int, log: EventLog
    ) {
        let depth = stack.count - 1
        stack.append(Node(world: world, enabled: enabled))
        for thread in stack[depth + 1].enabledThreads {
            var next = world
            engine.quietStep(&next, thread: thread, log: log)
            trace.append(
                thread: thread, accesses: log.accesses, halts: next.halted,
                creates: world.threads.count..<next.threads.count, range: log.range, detectRaces: false)
            addReversals(for: depth + 1, trace: trace, stack: &stack, sleeping: sleeping, reversalSteps: &reversalSteps, log: log)
            trace.truncate(to: depth + 1)
        }
        stack.removeLast()
    }

    /// A halting step stops every other thread: each one's pending step is in a race
    /// with it, so try running that step first.
    func addReversalsOfHalt(by thread: ThreadID, at depth: Int, stack: inout [Node], sleeping: [WakeupStep], log: EventLog) {
        for other in stack[depth].enabledThreads where other != thread {
            if let step = replay(CollectionOfOne(other), from: stack[depth].world, log: log) {
                insert([step], at: depth, stack: &stack, sleeping: sleeping)
            }
        }
    }

    func insert(_ sequence: [WakeupStep], at depth: Int, stack: inout [Node], sleeping: [WakeupStep]) {
        guard !stack[depth].sleep.contains(where: { WakeupTree.start(sequence, without: BitSet(), with: sleeping[$0]) != nil })
        else { return }
        stack[depth].pending.insert(sequence)
    }
}
