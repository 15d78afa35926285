/// The simplest failing interleaving, and why it fails.
public struct Counterexample: Sendable {
    /// The schedule, by thread name: feed it to `racelab run --schedule`.
    public var schedule: [String]
    /// Times the schedule switches away from a thread that could have gone on.
    public var preemptions: Int
    /// The two conflicting steps whose order made the difference, and why: running
    /// the second before the first (and the rest without preemption) passes. nil
    /// when no single reversal fixes the run.
    public var why: DecisivePair?
    /// Why this is not known to be the simplest, when the search for it was cut (by
    /// the time limit or its budget): it is then the shortest failing execution the
    /// exploration saw. nil for the simplest.
    public var notSimplest: Cut?
}

extension Explorer {
    /// A counterexample for an exploration that found a failure: the simplest one
    /// (fewest preemptions, then fewest steps) when its search finishes within the
    /// deadline and budget, else the shortest failing execution the exploration saw.
    /// nil only when nothing failed: a failing verdict always has a counterexample.
    public func counterexample(for result: Exploration, maxPreemptions: Int = 6, budget: Int = 200_000) -> Counterexample? {
        guard let seen = result.shortestFailure else { return nil }
        switch simplestCounterexample(maxPreemptions: maxPreemptions, budget: budget) {
        case .found(let example):
            return example
        case .notFound(let cut):
            return Counterexample(schedule: seen, preemptions: preemptions(seen), why: decisivePair(seen), notSimplest: cut)
        }
    }

    enum SimplestSearch {
        case found(Counterexample)
        /// Not found within the bounds: the bound that stopped it.
        case notFound(Cut)
    }

    /// Searches with preemption bound 0, 1, 2, … (iterative context bounding, as CHESS
    /// does) and, within each, step bound 16, 64, 256, … (iterative deepening), and
    /// returns the shortest failing execution of the first pair of bounds that has
    /// one: the fewest preemptions, then the fewest steps. Each search with step
    /// bound L sees every execution of at most L steps in full, so the shortest
    /// failure of at most L steps is among them.
    /// - Parameter budget: executions in all before giving up.
    /// - Complexity: about twice the search of the last pair of bounds.
    func simplestCounterexample(maxPreemptions: Int, budget: Int) -> SimplestSearch {
        var spent = 0
        let deadline = config.started().deadline
        for bound in 0...maxPreemptions {
            var steps = min(16, config.maxSteps)
            while true {
                if let deadline, deadline.hasPassed { return .notFound(.timeLimit(deadline.seconds)) }
                var config = self.config
                config.reduction = .none
                config.preemptionBound = bound
                config.maxSteps = steps
                config.detectRaces = false
                config.maxExecutions = max(1, budget - spent)
                config.deadline = deadline
                let result = Explorer(engine: engine, config: config).explore()
                spent += result.executions
                if let schedule = result.shortestFailure {
                    return .found(Counterexample(schedule: schedule, preemptions: bound, why: decisivePair(schedule)))
                }
                switch result.cut {
                case .timeLimit, .executionBound, .threadLimit, .stopped:
                    return .notFound(result.cut!)
                case nil:
                    // Every execution was seen in full, and none failed.
                    return .notFound(.preemptionBound(bound))
                case .preemptionBound, .stepBound:
                    break
                }
                if spent >= budget { return .notFound(.executionBound(budget)) }
                // Longer executions exist only when the step bound cut one.
                guard result.outcomes.contains(where: { $0.outcome.end == .stepLimit }), steps < self.config.maxSteps else { break }
                steps = min(steps * 4, self.config.maxSteps)
            }
        }
        return .notFound(.preemptionBound(maxPreemptions))
    }

    /// How many times `schedule` switches away from a thread that could have gone on.
    func preemptions(_ schedule: [String]) -> Int {
        var world = engine.initialWorld()
        var last: ThreadID?
        var count = 0
        for name in schedule {
            guard let thread = world.thread(named: name), engine.isRunnable(world, thread) else { break }
            if let last, last != thread, engine.isRunnable(world, last) { count += 1 }
            engine.quietStep(&world, thread: thread, log: EventLog(narrate: false))
            last = thread
        }
        return count
    }
}
