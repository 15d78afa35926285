/// The bounds of an exploration, with their defaults. When one cuts the search, the
/// result says which (`Exploration.cut`) and is not a proof.
public struct ExploreConfig: Sendable, Equatable {
    public enum Reduction: String, Sendable, CaseIterable {
        /// Every interleaving, one execution each: the counts people check by hand.
        case none
        /// Optimal dynamic partial-order reduction (source sets, sleep sets and wakeup
        /// trees): one execution per Mazurkiewicz trace (happens-before order).
        case dpor
    }

    /// How the search tells what it has seen (see `Search`), or that the choice is
    /// left to `SearchPlan` and `Explorer.exploreChoosing`.
    public enum Search: String, Sendable, CaseIterable {
        /// The program's features decide, else both searches in turns, the first to
        /// finish winning (`Explorer.exploreChoosing`). What every command asks for
        /// unless told otherwise.
        case automatic
        /// One execution after another, remembering nothing but the current one
        /// (`reduction` picks which): every execution must end.
        case stateless
        /// Every distinct world once (`StatefulSearch`): any program with
        /// finitely many states, loops or not; finds livelock.
        case stateful
    }

    public var search = Search.stateless
    /// Whether the stateful search skips steps with sleep sets (`StateSleepSets`).
    public var sleepSets = false
    public var reduction = Reduction.dpor
    /// Distinct worlds the stateful search may store before it stops.
    public var maxStates = 5_000_000
    /// Bytes a search may hold before it stops: the stateful search's states, graph
    /// and waiting worlds; the stateless search's stack of worlds, its trace and sleep
    /// sets (estimated: `World.estimatedBytes`, and the collections each step copied).
    /// A stored state is a few dozen bytes, but one holding an array that grows every
    /// step is as large as the array.
    public var maxStateMemory = 1 << 30
    /// Steps one execution may take; a longer one is cut (a thread may loop forever).
    /// The stateful search reads it as a depth: it expands no state this many steps
    /// from the start.
    public var maxSteps = 2_000
    /// How far a search goes on past its first failure (a failing outcome or a data
    /// race) before it stops with the outcomes it has (`Cut.afterFailure`: the verdict
    /// needs only the failure): states the stateful search stores, steps DPOR takes.
    /// 0 stops at the failure (`--first-failure`); nil explores everything
    /// (`--all-outcomes`). Counted in states and steps, so what is printed never
    /// depends on the machine.
    public var failureMargin: Int? = 100_000
    /// Complete executions before the search stops.
    public var maxExecutions = 1_000_000
    /// Preemptions one execution may make (switching away from a thread that could
    /// go on); nil for no bound.
    public var preemptionBound: Int?
    /// Wall-clock seconds before the search stops; nil for no limit. Only this bound
    /// depends on the machine, so a search it cuts is reported as such.
    public var timeLimit: Int? = 60
    /// The running clock of `timeLimit`, shared by every search of one command (the
    /// exploration, then its counterexample search). When nil, a search starts its own.
    public var deadline: Deadline?

    /// This configuration with its deadline started, unless it already runs.
    public func started() -> ExploreConfig {
        var config = self
        if config.deadline == nil, let timeLimit { config.deadline = Deadline(seconds: timeLimit) }
        return config
    }
    /// Count the interleavings each DPOR execution stands for (its linearizations).
    /// Costs time on long traces; the benchmark turns it off.
    public var countInterleavings = true
    /// Look for data races (conflicting accesses that no synchronization orders).
    public var detectRaces = true

    public init() {}

    /// This configuration made to find every outcome and no more: past the first
    /// failure, with no race detection. What a prediction is graded on, and what a
    /// program's behaviour and reached lines are read from.
    public var everyOutcome: ExploreConfig {
        var config = self
        config.detectRaces = false
        config.failureMargin = nil
        return config
    }

    /// The defaults, with the search chosen by `SearchPlan`: what a command runs.
    public static var automatic: ExploreConfig {
        var config = ExploreConfig()
        config.search = .automatic
        return config
    }

    /// The bounds a command accepts. An exploration keeps the happens-before order of
    /// the execution it is in (three bit matrices, n² bits each for n steps), so the
    /// step bound stops at 20,000 steps (about 150 MB); 50,000 took 1.3 GB.
    public static let limits = (
        maxSteps: 1...20_000, maxExecutions: 1...1_000_000_000, preemptionBound: 0...1_000, maxStates: 1...100_000_000, timeLimit: 1...86_400
    )
}
