/// The simplest failing interleaving, and why it fails.
public struct Counterexample: Sendable {
    /// The schedule, by thread name: feed it to `racelab run --schedule`.
    public var schedule: [String]
    /// Times the schedule switches away from a thread that could have gone on.
    public var preemptions: Int
    /// The two conflicting steps (indexes into `schedule`) whose order made the
    /// difference: running the second before the first (and the rest without
    /// preemption) passes. nil when no single reversal fixes the run.
    public var why: (first: Int, second: Int)?
}

extension Explorer {
    /// Searches with preemption bound 0, 1, 2, … (iterative context bounding, as CHESS
    /// does) and returns the first failing execution: one with the fewest preemptions.
    /// - Parameter budget: executions in all before giving up.
    public func simplestCounterexample(maxPreemptions: Int = 6, budget: Int = 200_000) -> Counterexample? {
        var spent = 0
        for bound in 0...maxPreemptions {
            var config = self.config
            config.reduction = .none
            config.preemptionBound = bound
            config.detectRaces = false
            config.maxExecutions = max(1, budget - spent)
            let search = Explorer(engine: engine, config: config)
            let result = search.explore { $0.failingExecutions == 0 }
            spent += result.executions
            if let failing = result.outcomes.first(where: \.outcome.isFailure) {
                let schedule = failing.schedule
                return Counterexample(schedule: schedule, preemptions: bound, why: decisivePair(schedule))
            }
            // The bound cut nothing: the whole space was seen, and nothing failed.
            if result.cut == nil || spent >= budget { return nil }
        }
        return nil
    }

    /// The first pair of conflicting steps (on different threads) whose reversal makes
    /// the run pass: the second step, and whatever does not depend on the first, is
    /// moved before the first; the rest runs without preemption.
    public func decisivePair(_ schedule: [String]) -> (Int, Int)? {
        var world = engine.initialWorld()
        var trace = Trace()
        var worlds: [World] = []
        for name in schedule {
            guard let thread = world.thread(named: name) else { return nil }
            worlds.append(world)
            let (next, accesses) = engine.quietStep(world, thread: thread)
            trace.append(thread: thread, accesses: accesses, halts: next.halted,
                         creates: world.threads.count..<next.threads.count)
            world = next
        }
        for second in trace.threads.indices {
            let previous = trace.threads[..<second].lastIndex(of: trace.threads[second])
            for first in 0..<second where trace.threads[first] != trace.threads[second] && trace.dependent(first, second) {
                // The second step's own thread must be able to reach it without the first.
                if let previous, previous > first, trace.isBefore(first, previous) { continue }
                // Replay up to the race, then the steps that do not depend on the first
                // step, then the second step, and go on without preemption.
                var reordered = Array(trace.threads[..<first])
                reordered += (first + 1..<second).filter { !trace.isBefore(first, $0) }.map { trace.threads[$0] }
                reordered.append(trace.threads[second])
                if passes(reordered.map { world.threadNames[$0] }) { return (first, second) }
            }
        }
        return nil
    }

    /// Whether a run that follows `prefix`, then goes on without preemption (as a
    /// written schedule does when it runs out), passes every check.
    func passes(_ prefix: [String]) -> Bool {
        var scheduler = FixedScheduler(names: prefix)
        guard let run = try? Runner(program: engine.program, maxSteps: config.maxSteps).run(&scheduler) else { return false }
        return !run.failed
    }
}
