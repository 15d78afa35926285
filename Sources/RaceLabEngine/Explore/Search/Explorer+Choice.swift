/// Choosing between the two searches. Neither is always cheaper: DPOR runs one
/// execution per Mazurkiewicz trace and stores nothing, which is best when threads
/// touch little in common; the stateful search visits each world once, which is best
/// when many traces reach the same worlds (a counter three threads increment: 1.8
/// million traces, 15,388 states) and the only way when a program may never end.
/// Which one a program needs cannot be read off its text; so both run, in turns, each
/// going on where it stopped (`StatelessSearch.Run`, `StatefulSearch.Run`), and the
/// first to finish wins: 5,000 steps each in the first round, DPOR first (a small
/// program's report, with its executions and traces, is DPOR's; an execution that
/// never ends shows in the first). After each round each says how much it has left, from numbers alone
/// (never the clock: the winner decides what the report prints): DPOR from its place
/// in its tree (`StatelessSearch.Run.fraction`), the stateful search from the sizes
/// of its breadth-first levels and DPOR's longest execution
/// (`StatefulSearch.Run.estimatedStates`); both in steps, a stateful step costing one
/// more for each 512 bytes it encodes (`StatefulSearch.Run.work`). The one with less
/// left goes first in the next round, with twice the steps it has taken; the other
/// gets an eighth of what that adds, so a wrong guess costs a few rounds, never the
/// thousandfold of the wrong search (docs/PERFORMANCE.md measures the cost).
extension Explorer {
    /// The steps each search may take in the first round.
    static let choiceBudget = 5_000

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
        func chosen(_ result: Exploration, _ reason: SearchReason) -> Exploration {
            var result = result
            result.searchReason = reason
            return result
        }
        func graphToTheEnd() -> Exploration {
            graph.resume(progress: progress)
            return stateful.completed(graph.result, progress: progress)
        }
        var dporBudget = Self.choiceBudget, graphBudget = Self.choiceBudget
        /// DPOR's turn: the result, if the choice is made.
        func dporTurn() -> Exploration? {
            var reachedStepBound = false
            stateless.resume(&dpor, progress: progress) { result in
                // An execution that reached the step bound may loop forever: no use going on.
                if case .stepBound = result.cut {
                    reachedStepBound = true
                    return true
                }
                return result.steps + result.reversalSteps >= dporBudget
            }
            if reachedStepBound {
                return chosen(graphToTheEnd(), .stepBound(config.maxSteps))
            }
            guard dpor.ended else { return nil }
            // A bound of DPOR's own may have cut it (the execution bound): the stateful
            // search may still finish.
            if case .executionBound = dpor.result.cut, dpor.result.failingExecutions == 0 {
                let result = graphToTheEnd()
                if result.cut == nil || result.failingExecutions > 0 {
                    return chosen(result, .statelessCut(dpor.result.cut!, statefulStates: result.states))
                }
            }
            return chosen(dpor.result, dporReason(dpor.result, statefulCut: nil))
        }
        /// The stateful search's turn: the result, if the choice is made.
        func graphTurn() -> Exploration? {
            graph.resume(progress: progress, until: graphBudget)
            guard graph.ended else { return nil }
            let racesAlone = graph.result.failsByRacesAlone, failed = graph.result.hasFailed
            switch graph.result.cut {
            case .stateBound where !failed, .memoryBound where !failed:
                // Out of room for states before any failure: DPOR, which stores none, is
                // what is left. (A failing outcome found stands, cut or not: it is the
                // verdict.)
                stateless.resume(&dpor, progress: progress)
                return chosen(dpor.result, dporReason(dpor.result, statefulCut: graph.result.cut))
            case .afterFailure where racesAlone, .stateBound where racesAlone, .memoryBound where racesAlone:
                // Stopped with a data race and no failing final state (breadth first,
                // final states come last): DPOR, depth first, reaches outcomes at once,
                // and stops past the race too. Its report, with the outcomes it saw, wins
                // if it fails too; else the stateful search's race stands.
                stateless.resume(&dpor, progress: progress)
                if dpor.result.hasFailed {
                    return chosen(dpor.result, dporReason(dpor.result, statefulCut: graph.result.cut))
                }
                let result = stateful.completed(graph.result, progress: progress)
                return chosen(result, .statefulWon(states: result.states, cut: result.cut, statelessExecutions: dpor.result.executions))
            default:
                // A bound of its own (time, say) may have cut it: say so.
                let result = stateful.completed(graph.result, progress: progress)
                return chosen(result, .statefulWon(states: result.states, cut: result.cut, statelessExecutions: dpor.result.executions))
            }
        }
        var statefulFirst = false
        while true {
            if statefulFirst {
                if let result = graphTurn() ?? dporTurn() { return result }
            } else {
                if let result = dporTurn() ?? graphTurn() { return result }
            }
            // What each has left, in steps, as far as it can tell.
            let dporSteps = dpor.result.steps + dpor.result.reversalSteps, graphSteps = graph.work
            let dporLeft = Double(dporSteps) * (1 / min(max(dpor.fraction, 1e-6), 1) - 1)
            let statesLeft = Double(graph.estimatedStates(longest: dpor.longest)) - Double(graph.store.count)
            let graphLeft = max(0, statesLeft) * Double(graphSteps) / Double(max(1, graph.store.count))
            statefulFirst = graphLeft < dporLeft
            let (taken, other) = statefulFirst ? (graphSteps, dporSteps) : (dporSteps, graphSteps)
            let lead = taken > Int.max / 2 ? Int.max : max(2 * taken, taken + Self.choiceBudget)
            let follow = other &+ (lead - taken) / 8
            (graphBudget, dporBudget) = statefulFirst ? (lead, follow) : (follow, lead)
        }
    }

    private func dporReason(_ result: Exploration, statefulCut: Cut?) -> SearchReason {
        .statelessWon(config.reduction, executions: result.executions, cut: result.cut, statefulCut: statefulCut)
    }
}
