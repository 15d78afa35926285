/// Optimal DPOR's reversals (Abdulla et al., POPL 2014): for each race of a new step
/// with an earlier one, the sequence that reverses it goes into the wakeup tree
/// where the race began, unless a sleeping step or a branch there covers it. The
/// search loop (`Explorer.swift`) calls these after every step, at the end of an
/// execution cut at the step bound, and after a step that halts the program.
extension StatelessSearch {
    /// The races of the step at `index` with earlier steps: each one's reversal goes
    /// into the wakeup tree where the race began, unless a sleeping step covers it.
    func addReversals(
        for index: Int, trace: Trace, stack: inout [Node], sleeping: SleepSets, reversalSteps: inout Int,
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
            // One woken by a step in between that does not depend on the earlier one
            // (the task whose value it awaits ending) can: `stillWaits` tells them apart.
            let thread = trace.threads[index]
            if let blocker = Blocker(of: thread, in: stack[index].world),
                stillWaits(thread, on: blocker, after: sequence.dropLast(), from: stack[race].world, log: log)
            {
                if let taken = lastDisabling(of: thread, before: race, stack: stack) {
                    addReversal(of: taken, with: index, trace: trace, stack: &stack, sleeping: sleeping, reversalSteps: &reversalSteps, log: log)
                }
                continue
            }
            // A thread that takes a lock another thread holds there blocks: no replay.
            if let blocked = blockingStep(at: index, race: race, trace: trace, stack: stack) {
                assert(replay(sequence.lazy.map({ $0.thread }), from: stack[race].world, log: log) == blocked)
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
        _ sequence: inout [WakeupStep], at race: Int, stack: inout [Node], sleeping: SleepSets, reversalSteps: inout Int, log: EventLog
    ) {
        sequence[sequence.count - 1] = .pending(sequence[sequence.count - 1].thread)
        if isCovered(sequence, at: race, stack: stack, sleeping: sleeping) { return }
        reversalSteps += sequence.count
        guard let last = replay(sequence.lazy.map({ $0.thread }), from: stack[race].world, log: log) else { return }
        sequence[sequence.count - 1] = last
        insert(sequence, at: race, stack: &stack, sleeping: sleeping)
    }

    /// Whether `thread`, waiting on `wait` before its step in a reversal, still waits
    /// at its turn: from `world` (where the race began), after the reversal's steps
    /// before its own (`steps`, replayed only when the wait holds at `world`). Then
    /// the earlier step of the race, or a step after it, woke the thread. A step in
    /// between that does not depend on the earlier one may have woken it instead (a
    /// task awaiting another's value, woken by its end while a third task holds the
    /// actor): then the thread can run there, and the race is reversed as any other.
    /// A step of the reversal that cannot run leaves the answer to the wait at `world`.
    func stillWaits(
        _ thread: ThreadID, on blocker: Blocker, after steps: some Collection<WakeupStep>, from world: World, log: EventLog
    ) -> Bool {
        if blocker.isOver(in: world, for: thread, engine) { return false }
        guard !steps.isEmpty else { return true }
        var world = world
        for step in steps {
            guard engine.isRunnable(world, step.thread) else { return true }
            engine.quietStep(&world, thread: step.thread, log: log)
        }
        return !blocker.isOver(in: world, for: thread, engine)
    }

    /// What a thread that cannot run at once waits for: its `Wait`, or, for main with
    /// none of its code left, the main actor that its next main-queue block needs
    /// (`Engine.isRunnable`: a task holding the main actor keeps main from taking the
    /// block, as a lock's holder keeps a thread out). Nil for a thread that waits for
    /// nothing.
    enum Blocker: Equatable {
        case wait(Wait)
        case mainActorForBlock

        init?(of thread: ThreadID, in world: World) {
            guard thread < world.threads.count else { return nil }
            let state = world.threads[thread]
            if let wait = state.waiting {
                self = .wait(wait)
            } else if state.isMain, state.frames.isEmpty, !state.isFinished {
                self = .mainActorForBlock
            } else {
                return nil
            }
        }

        /// Whether it no longer keeps `thread` from running in `world`.
        func isOver(in world: World, for thread: ThreadID, _ engine: Engine) -> Bool {
            switch self {
            case .wait(let wait): return engine.isSatisfied(world, wait, for: thread)
            case .mainActorForBlock: return engine.isRunnable(world, thread)
            }
        }
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
    /// Only the same wait counts: a thread woken from a condition wait waits again,
    /// for the lock, only after a step of its own (its blocked attempt), so where it
    /// waited for something else nothing took the lock from it.
    ///
    /// Main waiting to run a queued block may never have been able to: the block came
    /// while another held the main actor. Then the step that took the actor is the
    /// one: had main's block come first, main could have taken the actor instead.
    func lastDisabling(of thread: ThreadID, before race: Int, stack: [Node]) -> Int? {
        guard let blocker = Blocker(of: thread, in: stack[race].world) else { return nil }
        var node = race
        while node > 0 {
            node -= 1
            let world = stack[node].world
            // A task enqueued on an actor as it is made waits from its first state.
            guard Blocker(of: thread, in: world) == blocker else { return nil }
            if engine.isRunnable(world, thread) { return node }
            if blocker == .mainActorForBlock, let actor = world.mainActor, world.headers[actor].owner == nil,
                stack[node + 1].world.headers[actor].owner != nil
            {
                return node
            }
        }
        return nil
    }

    /// An execution that ends with main waiting to run a queued block (a task holds
    /// the main actor, and perhaps never lets go, or a crash ended the program while it
    /// held it): main's step never ran, so no race
    /// of it was seen. It is raced against the trace as if it ran next (taking the
    /// block: the main queue and the main actor), so the search tries the orders in
    /// which main's block comes before the actor was taken.
    func addReversalsOfWaitingMain(
        _ world: World, trace: inout Trace, stack: inout [Node], sleeping: SleepSets, reversalSteps: inout Int, log: EventLog
    ) {
        guard let main = world.threads.firstIndex(where: { $0.isMain }), Blocker(of: main, in: world) == .mainActorForBlock,
            !world.mainQueue.isEmpty, let actor = world.mainActor, world.headers[actor].owner != nil
        else { return }
        let depth = stack.count - 1
        stack.append(Node(world: world, enabled: 0))
        trace.append(thread: main, accesses: [Access(.mainQueue, .write), Access(.queue(actor), .write)], halts: false)
        addReversals(for: depth + 1, trace: trace, stack: &stack, sleeping: sleeping, reversalSteps: &reversalSteps, log: log)
        trace.truncate(to: depth + 1)
        stack.removeLast()
    }

    /// Adds the reversal of the race of step `race` with step `index`, whose thread
    /// can run at `race`'s node: the steps between them that do not depend on `race`,
    /// then `index`'s thread, whose step there is found by a replay.
    func addReversal(
        of race: Int, with index: Int, trace: Trace, stack: inout [Node], sleeping: SleepSets, reversalSteps: inout Int,
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
    func isCovered(_ sequence: [WakeupStep], at depth: Int, stack: [Node], sleeping: SleepSets) -> Bool {
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
        _ world: World, enabled: UInt64, trace: inout Trace, stack: inout [Node], sleeping: SleepSets,
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
    /// with it, so try running that step first, then the halting thread's. The
    /// sequence keeps the halting step: what makes it halt (another thread inside a
    /// critical section, say) is not a conflict with the other thread's step, so a
    /// sequence of that step alone is covered by a sleeping step that only leads to
    /// runs in which the halt never comes (the thread inside leaving first).
    func addReversalsOfHalt(by thread: ThreadID, at depth: Int, stack: inout [Node], sleeping: SleepSets, log: EventLog) {
        let world = stack[depth].world
        for other in stack[depth].enabledThreads where other != thread {
            guard let step = replay(CollectionOfOne(other), from: world, log: log) else { continue }
            if let halting = replay([other, thread], from: world, log: log) {
                insert([step, halting], at: depth, stack: &stack, sleeping: sleeping)
            } else {
                insert([step], at: depth, stack: &stack, sleeping: sleeping)
            }
        }
    }

    func insert(_ sequence: [WakeupStep], at depth: Int, stack: inout [Node], sleeping: SleepSets) {
        guard !stack[depth].sleep.contains(where: { WakeupTree.start(sequence, without: BitSet(), with: sleeping[$0]) != nil })
        else { return }
        stack[depth].pending.insert(sequence)
    }
}
