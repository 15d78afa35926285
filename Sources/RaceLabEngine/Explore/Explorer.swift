/// Explores a program: every interleaving, or every state, as `config` says. The
/// searches are its peers behind one interface (`Search`): `StatelessSearch`
/// (Stateless/: DPOR or none, one execution after another) and `StatefulSearch`
/// (Stateful/: every distinct world once). What both need lives in extensions of
/// this type: outcomes (+Outcomes), races (RaceDetector), lock order (LockOrder),
/// DPOR's reversals (+Reversals), counterexamples and the choice of search.
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

    /// Explores as `config.search` says: the stateless search (`reduction` picks
    /// which) or the stateful one. Both are a `Search` and fill the same `Exploration`.
    public func explore(progress: Progress? = nil) -> Exploration {
        switch config.search {
        case .stateless: return StatelessSearch(explorer: self).run(progress: progress)
        case .stateful: return StatefulSearch(explorer: self, sleepSets: config.sleepSets).run(progress: progress)
        }
    }
}
