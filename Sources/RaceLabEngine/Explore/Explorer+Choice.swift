/// Choosing between the two searches. Neither is always cheaper: DPOR runs one
/// execution per Mazurkiewicz trace and stores nothing, which is best when threads
/// touch little in common; the stateful search visits each world once, which is best
/// when many traces reach the same worlds (a counter three threads increment: 1.8
/// million traces, 15,388 states) and the only way when a program may never end.
/// Which one a program needs cannot be read off its text, and estimating a state
/// space's size is as hard as exploring it; so both are tried, in turns, with equal
/// budgets of steps that grow fourfold each round, and the first to finish wins: at
/// most a few times the cost of the cheaper one, never the thousandfold of the wrong one.
extension Explorer {
    /// The budget of steps of the first round.
    static let choiceBudget = 50_000

    /// Explores with the search that finishes first (see above); the result's
    /// `searchReason` says which and why. One whose DPOR execution reaches the step
    /// bound may loop forever: it gets the stateful search at once. (What a program's
    /// features force is decided before, by `SearchPlan`.)
    func exploreChoosing(progress: Progress? = nil) -> Exploration {
        var stateful = config
        stateful.search = .stateful
        var stateless = config
        stateless.search = .stateless
        func chosen(_ result: Exploration, _ reason: String) -> Exploration {
            var result = result
            result.searchReason = reason
            return result
        }
        var budget = Self.choiceBudget
        while true {
            let over = Overrun()
            let dpor = Explorer(engine: engine, config: stateless).explore(progress: Self.within(budget, over, progress))
            if over.cutByStepBound {
                return chosen(
                    Explorer(engine: engine, config: stateful).explore(progress: progress),
                    "stateful search: an execution reached the step bound (\(config.maxSteps) steps), so the program may never end; "
                        + "the stateful search follows loops without a bound"
                )
            }
            if !over.happened {
                // DPOR ended within the round, but a bound of its own may have cut it
                // (the execution bound): the stateful search may still finish.
                if case .executionBound = dpor.cut, dpor.failingExecutions == 0 {
                    let graph = Explorer(engine: engine, config: stateful).explore(progress: progress)
                    if graph.cut == nil || graph.failingExecutions > 0 {
                        return chosen(graph, "stateful search: DPOR \(dpor.cut!), and the stateful search finished (\(graph.states) states)")
                    }
                }
                return chosen(dpor, dporReason(dpor))
            }
            let graphOver = Overrun()
            let graph = Explorer(engine: engine, config: stateful).explore(progress: Self.within(budget, graphOver, progress))
            switch graph.cut {
            case .stateBound, .memoryBound:
                // Out of room for states: DPOR, which stores none, is what is left.
                let rest = Explorer(engine: engine, config: stateless).explore(progress: progress)
                return chosen(rest, dporReason(rest) + "; the stateful search reached its budget (\(graph.cut!))")
            default: break
            }
            if !graphOver.happened {
                // A bound of its own (time, say) may have cut it: say so.
                let how = graph.cut.map { "a bound cut it first (\($0))" } ?? "it finished first (\(graph.states) states)"
                return chosen(graph, "stateful search: \(how), while DPOR had run \(dpor.executions) executions without finishing")
            }
            budget = budget.multipliedReportingOverflow(by: 4).overflow ? .max : budget * 4
        }
    }

    private func dporReason(_ result: Exploration) -> String {
        let name = config.reduction == .dpor ? "DPOR" : "every interleaving"
        if let cut = result.cut { return "\(name), cut: \(cut)" }
        return "\(name): it finished first (\(result.executions) execution\(result.executions == 1 ? "" : "s"))"
    }

    /// A progress callback that stops a search past `budget` steps (and says so in
    /// `over`), and passes the totals on to `progress` (which may stop it too).
    static func within(_ budget: Int, _ over: Overrun, _ progress: Progress?) -> Progress {
        { result in
            // An execution that reached the step bound may loop forever: no use going on.
            if case .stepBound = result.cut, result.search == .stateless {
                over.happened = true
                over.cutByStepBound = true
                return false
            }
            guard result.steps + result.reversalSteps <= budget else {
                over.happened = true
                return false
            }
            return progress?(result) ?? true
        }
    }

    /// Whether a search of one round ran out of its budget.
    final class Overrun {
        var happened = false
        var cutByStepBound = false
    }
}
