/// The simplest failing interleaving, and why it fails.
public struct Counterexample: Sendable {
    /// The schedule, by thread name: feed it to `racelab run --schedule`.
    public var schedule: Schedule
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
    /// True when it is the shortest failing schedule of a stateful search (fewest
    /// steps, breadth first), which may preempt more than the simplest one.
    public var isShortest = false
    /// True when it is the shortest failing schedule of the graph a stateful search
    /// with sleep sets left: a shorter one may take steps they skipped.
    public var isShortestReduced = false
}

extension Explorer {
    /// A counterexample for an exploration that found a failure: the simplest one
    /// (fewest preemptions, then fewest steps) when its search finishes within the
    /// deadline and budget, else the best one found: a short failure the search's
    /// first, cheap pass found, or the shortest failing execution the exploration saw.
    /// nil only when nothing failed: a failing verdict always has a counterexample.
    public func counterexample(for result: Exploration, maxPreemptions: Int = 6, budget: Int = 200_000) -> Counterexample? {
        guard let seen = result.shortestFailure else { return nil }
        // The stateful search found the shortest failure breadth first: a search by
        // preemption bounds, over a program that may never end, is only slower.
        if result.search == .stateful {
            var example = Counterexample(schedule: seen, preemptions: preemptions(seen), why: decisivePair(seen))
            example.isShortest = !result.sleepSets
            example.isShortestReduced = result.sleepSets
            return example
        }
        switch simplestCounterexample(maxPreemptions: maxPreemptions, budget: budget) {
        case .found(let example):
            return example
        case .notFound(let cut, let short):
            let schedule = short.map { $0.count < seen.count ? $0 : seen } ?? seen
            return Counterexample(schedule: schedule, preemptions: preemptions(schedule), why: decisivePair(schedule), notSimplest: cut)
        }
    }

    enum SimplestSearch {
        case found(Counterexample)
        /// Not found within the bounds: the bound that stopped it, and a short failing
        /// schedule found on the way, if any.
        case notFound(Cut, Schedule?)
    }

    /// The step bounds of the first, cheap pass of `simplestCounterexample`.
    static let shortStepBounds = [16, 64]

    /// Searches with preemption bound 0, 1, 2, … (iterative context bounding, as CHESS
    /// does) and, within each, step bound 16, 64, 256, … (iterative deepening), and
    /// returns the shortest failing execution of the first pair of bounds that has
    /// one: the fewest preemptions, then the fewest steps. Each search with step
    /// bound L sees every execution of at most L steps in full, so the shortest
    /// failure of at most L steps is among them.
    ///
    /// A thread that never stops makes every bound climb to the step limit, and a
    /// search to 2,000 steps with one preemption is long. So a first pass looks for a
    /// failure within short step bounds (16, then 64) at preemption bound 0, 1, 2, …,
    /// spending at most a quarter of the budget; one it finds caps the preemption
    /// bounds the full search has to try, and stands in if that search is cut (a
    /// failure of 4 steps, not one of 2,000).
    /// - Parameter budget: executions in all before giving up.
    /// - Complexity: about twice the search of the last pair of bounds.
    func simplestCounterexample(maxPreemptions: Int, budget: Int) -> SimplestSearch {
        var spent = 0
        let deadline = config.started().deadline
        func search(_ bound: Int, _ steps: Int, budget: Int) -> Exploration {
            var config = self.config
            // Every interleaving within the bounds, one by one: preemptions are a
            // property of schedules, which only the stateless search walks.
            config.search = .stateless
            config.reduction = .none
            config.preemptionBound = bound
            config.maxSteps = steps
            config.detectRaces = false
            // Every execution within the bounds: the shortest failure may come last.
            config.failureMargin = nil
            config.maxExecutions = max(1, budget - spent)
            config.deadline = deadline
            let result = Explorer(engine: engine, config: config).explore()
            spent += result.executions
            return result
        }
        var short: Schedule?
        var most = maxPreemptions
        // The first pass spends at most a quarter of the budget.
        let cheapBudget = budget / 4
        cheap: for bound in 0...maxPreemptions {
            for steps in Self.shortStepBounds where steps <= config.maxSteps {
                if let deadline, deadline.hasPassed { return .notFound(.timeLimit(deadline.seconds), short) }
                if spent >= cheapBudget { break cheap }
                let result = search(bound, steps, budget: cheapBudget)
                if let schedule = result.shortestFailure {
                    short = schedule
                    most = preemptions(schedule)
                    break cheap
                }
                // Every execution within this preemption bound was seen in full.
                if result.cut == nil { break }
            }
        }
        for bound in 0...most {
            var steps = min(16, config.maxSteps)
            while true {
                if let deadline, deadline.hasPassed { return .notFound(.timeLimit(deadline.seconds), short) }
                let result = search(bound, steps, budget: budget)
                if let schedule = result.shortestFailure {
                    return .found(Counterexample(schedule: schedule, preemptions: bound, why: decisivePair(schedule)))
                }
                switch result.cut {
                case .executionBound:
                    // What is left of the budget stopped it: say the whole budget.
                    return .notFound(.executionBound(budget), short)
                case .timeLimit, .threadLimit, .stopped, .stateBound, .memoryBound, .depthBound, .afterFailure:
                    return .notFound(result.cut!, short)
                case nil:
                    // Every execution was seen in full, and none failed.
                    return .notFound(.preemptionBound(bound), short)
                case .preemptionBound, .stepBound:
                    break
                }
                if spent >= budget { return .notFound(.executionBound(budget), short) }
                // Longer executions exist only when the step bound cut one.
                guard result.outcomes.contains(where: { $0.outcome.end == .stepLimit }), steps < config.maxSteps else { break }
                steps = min(steps * 4, config.maxSteps)
            }
        }
        return .notFound(.preemptionBound(maxPreemptions), short)
    }

    /// How many times `schedule` switches away from a thread that could have gone on.
    func preemptions(_ schedule: Schedule) -> Int {
        var last: ThreadID?
        var count = 0
        engine.follow(schedule) { world, thread, _ in
            if let last, last != thread, engine.isRunnable(world, last) { count += 1 }
            last = thread
            return true
        }
        return count
    }
}
