/// Explores a program: every interleaving, or every state, as `config` says. The
/// searches are its peers behind one interface (`Search`): `StatelessSearch`
/// (Stateless/: DPOR or none, one execution after another) and `StatefulSearch`
/// (Stateful/: every distinct world once). What both need lives in extensions of
/// this type: outcomes (Results/+Outcomes), races (Detectors/RaceDetector), lock order
/// (Detectors/LockOrder), counterexamples and the choice of search (+Choice). DPOR's
/// race reversals are the stateless search's own (StatelessSearch+Reversals).
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
        variables = engine.program.globals.indices.filter { engine.program.globals[$0].isShown }
    }

    /// Called after every complete execution with the running totals; return false to stop.
    public typealias Progress = (Exploration) -> Bool

    /// Explores as the search plan for `config` and the program says (`SearchPlan`):
    /// the stateless search (`reduction` picks which), the stateful one, or both in
    /// turns (`exploreChoosing`). Each is a `Search` and fills the same `Exploration`,
    /// which says which ran and why (`searchReason`).
    public func explore(progress: Progress? = nil) -> Exploration {
        let plan = SearchPlan.resolve(config, for: engine.program)
        let explorer = plan.config == config ? self : Explorer(engine: engine, config: plan.config)
        var result: Exploration
        switch plan.config.search {
        case .automatic: result = explorer.exploreChoosing(progress: progress)
        case .stateless: result = StatelessSearch(explorer: explorer).run(progress: progress)
        case .stateful: result = StatefulSearch(explorer: explorer).run(progress: progress)
        }
        if plan.config.search != .automatic { result.searchReason = plan.reason }
        result.weakOrderings = engine.program.weakOrderings
        return result
    }
}
