/// Choosing between the two searches. Neither is always cheaper: DPOR runs one
/// execution per Mazurkiewicz trace and stores nothing, which is best when threads
/// touch little in common; the stateful search visits each world once, which is best
/// when many traces reach the same worlds (a counter three threads increment: 1.8
/// million traces, 15,388 states) and the only way when a program may never end.
/// Which one a program needs cannot be read off its text, and estimating a state
/// space's size is as hard as exploring it; so both run, in turns, each going on
/// where it stopped (`StatelessSearch.Run`, `StatefulSearch.Run`), with equal
/// budgets of steps that double each round, and the first to finish wins: it has
/// taken at most about as many steps as the other (docs/PERFORMANCE.md measures the
/// cost), never the thousandfold of the wrong one.
extension Explorer {
    /// The steps each search may take in the first round.
    static let choiceBudget = 50_000

    /// Explores with the search that finishes first (see above); the result's
    /// `searchReason` says which and why. One whose DPOR execution reaches the step
    /// bound may loop forever: it gets the stateful search alone from then on. (What a
    /// program's features force is decided before, by `SearchPlan`.)
    func exploreChoosing(progress: Progress? = nil) -> Exploration {
        var statefulConfig = config
        statefulConfig.search = .stateful
        var statelessConfig = config
        statelessConfig.search = .stateless
        let stateless = StatelessSearch(explorer: Explorer(engine: engine, config: statelessConfig))
        let stateful = StatefulSearch(explorer: Explorer(engine: engine, config: statefulConfig))
        var dpor = stateless.start()
        var graph = stateful.start()
        func chosen(_ result: Exploration, _ reason: String) -> Exploration {
            var result = result
            result.searchReason = reason
            return result
        }
        func graphToTheEnd() -> Exploration {
            graph.resume(progress: progress)
            return stateful.completed(graph.result, progress: progress)
        }
        var budget = Self.choiceBudget
        while true {
            var reachedStepBound = false
            stateless.resume(&dpor, progress: progress) { result in
                // An execution that reached the step bound may loop forever: no use going on.
                if case .stepBound = result.cut {
                    reachedStepBound = true
                    return true
                }
                return result.steps + result.reversalSteps >= budget
            }
            if reachedStepBound {
                return chosen(
                    graphToTheEnd(),
                    "stateful search: an execution reached the step bound (\(config.maxSteps) steps), so the program may never end; "
                        + "the stateful search follows loops without a bound"
                )
            }
            if dpor.ended {
                // A bound of DPOR's own may have cut it (the execution bound): the
                // stateful search may still finish.
                if case .executionBound = dpor.result.cut, dpor.result.failingExecutions == 0 {
                    let result = graphToTheEnd()
                    if result.cut == nil || result.failingExecutions > 0 {
                        return chosen(result, "stateful search: DPOR \(dpor.result.cut!), and the stateful search finished (\(result.states) states)")
                    }
                }
                return chosen(dpor.result, dporReason(dpor.result))
            }
            graph.resume(progress: progress) { $0.steps >= budget }
            if graph.ended {
                switch graph.result.cut {
                case .stateBound, .memoryBound:
                    // Out of room for states: DPOR, which stores none, is what is left.
                    stateless.resume(&dpor, progress: progress)
                    return chosen(dpor.result, dporReason(dpor.result) + "; the stateful search reached its budget (\(graph.result.cut!))")
                default:
                    // A bound of its own (time, say) may have cut it: say so.
                    let result = stateful.completed(graph.result, progress: progress)
                    let how = result.cut.map { "a bound cut it first (\($0))" } ?? "it finished first (\(result.states) states)"
                    return chosen(result, "stateful search: \(how), while DPOR had run \(dpor.result.executions) executions without finishing")
                }
            }
            budget = budget.multipliedReportingOverflow(by: 2).overflow ? .max : budget * 2
        }
    }

    private func dporReason(_ result: Exploration) -> String {
        let name = config.reduction == .dpor ? "DPOR" : "every interleaving"
        if let cut = result.cut { return "\(name), cut: \(cut)" }
        return "\(name): it finished first (\(result.executions) execution\(result.executions == 1 ? "" : "s"))"
    }
}
