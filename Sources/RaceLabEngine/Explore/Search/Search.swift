/// A search over a program's executions: it explores what its `Explorer` holds (the
/// engine and the configuration) and fills one `Exploration`, the result model every
/// report reads. The two searches are peers behind it:
///
/// - `StatelessSearch` (Stateless/): one execution after another, remembering only
///   the current one; every interleaving, or one per trace under DPOR. Needs every
///   execution to end (the step bound cuts one that does not).
/// - `StatefulSearch` (Stateful/): every distinct world once, whether runs end or not;
///   finds livelock.
///
/// `Explorer.explore` runs the one `SearchPlan` decides for `ExploreConfig.search`;
/// `exploreChoosing` runs both in turns.
protocol Search {
    var explorer: Explorer { get }
    /// Explores, calling `progress` with the running totals now and then (it may stop
    /// the search by returning false: the result is then cut, `.stopped`).
    func run(progress: Explorer.Progress?) -> Exploration
}
