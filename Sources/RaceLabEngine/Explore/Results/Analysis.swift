/// Everything a report on one program shows, built by the engine under the command's
/// deadline: the exploration, the counterexample and its run, the runs a reader can
/// watch, and (for the lesson page) the reachable states. The commands and the grader
/// build it (`Analysis.of`, `Lesson.of`; the grader caches a fix's); the renderers
/// (the explore report, verify's table, the lesson page) read it and run nothing, so
/// a test can hand any of them a model made by hand.
public struct Analysis: Sendable {
    /// A run the reader can watch, and the moves that play it in the state space.
    public struct Watch: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// The scenario's `schedule story`.
            case story
            /// The counterexample: the shortest (or simplest) failing run.
            case shortestFailure
        }

        public var kind: Kind
        public var schedule: Schedule
        /// The threads that take its steps, from the start, as far as the state space
        /// follows it (to its end, or to its failure).
        public var moves: [ThreadID]

        public init(kind: Kind, schedule: Schedule, moves: [ThreadID]) {
            self.kind = kind
            self.schedule = schedule
            self.moves = moves
        }
    }

    /// What to build besides the exploration.
    public struct Needs: Sendable {
        /// The counterexample, replayed to its run, when some interleaving fails (the
        /// state space keeps it whole as a run to watch).
        public var counterexample = true
        /// The state space, with this budget (`StateSpace.explore`), and the runs to
        /// watch in it; nil for none.
        public var maxStates: Int?

        public init(counterexample: Bool = true, maxStates: Int? = nil) {
            self.counterexample = counterexample
            self.maxStates = maxStates
        }
    }

    public var exploration: Exploration
    public var counterexample: Counterexample?
    /// The counterexample's run (nil when it could not be replayed).
    public var counterexampleRun: Run?
    /// The counterexample with its run, when it replays: what a report shows.
    public var replayedCounterexample: (example: Counterexample, run: Run)? {
        counterexample.flatMap { example in counterexampleRun.map { (example, $0) } }
    }
    /// The runs to watch, each one the state space can follow (with a state space).
    public var watch: [Watch]
    public var space: StateSpace?

    public init(
        exploration: Exploration, counterexample: Counterexample? = nil, counterexampleRun: Run? = nil, watch: [Watch] = [],
        space: StateSpace? = nil
    ) {
        self.exploration = exploration
        self.counterexample = counterexample
        self.counterexampleRun = counterexampleRun
        self.watch = watch
        self.space = space
    }

    /// The analysis of `program` under `config` (started by the caller: one deadline
    /// bounds every search of a command); `story` is the run the scenario tells.
    public static func of(
        _ program: Program, story: Schedule? = nil, config: ExploreConfig, needs: Needs = Needs(), progress: Explorer.Progress? = nil
    ) -> Analysis {
        let explorer = Explorer(program: program, config: config)
        var analysis = Analysis(exploration: explorer.explore(progress: progress))
        if needs.counterexample, let example = explorer.counterexample(for: analysis.exploration) {
            analysis.counterexample = example
            var scheduler = FixedScheduler(example.schedule)
            analysis.counterexampleRun = try? Runner(program: program, maxSteps: config.maxSteps).run(&scheduler)
        }
        guard let maxStates = needs.maxStates else { return analysis }
        // The runs worth watching, kept whole however many states the program has.
        var runs: [(Watch.Kind, Schedule)] = []
        if let story { runs.append((.story, story)) }
        if let example = analysis.counterexample { runs.append((.shortestFailure, example.schedule)) }
        let engine = Engine(program: program)
        let space = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: maxStates, keeping: runs.map { $0.1 }, deadline: config.deadline)
        analysis.space = space
        // A run the program cannot follow to its end or its failure (a story written
        // for another version) is not offered.
        analysis.watch = runs.compactMap { kind, schedule in
            let moves = space.moves(schedule)
            guard moves.count == schedule.count || space.failures[space.state(after: moves)] != nil else { return nil }
            return Watch(kind: kind, schedule: schedule, moves: moves)
        }
        return analysis
    }
}

/// A scenario and the analysis of each of its versions: what the lesson page shows.
public struct Lesson: Sendable {
    public var scenario: Scenario
    public var versions: [(version: Version, analysis: Analysis)]

    public init(scenario: Scenario, versions: [(version: Version, analysis: Analysis)]) {
        self.scenario = scenario
        self.versions = versions
    }

    /// Every version's analysis with its state space (`maxStates` a version), under
    /// `config`'s one deadline.
    public static func of(_ scenario: Scenario, maxStates: Int, config: ExploreConfig) -> Lesson {
        let config = config.started()
        let versions = scenario.versions.map { version -> (version: Version, analysis: Analysis) in
            let story = scenario.schedules(fix: version.fix).first { $0.name == "story" }.flatMap { try? Schedule(parsing: $0.steps, limit: 10_000) }
            return (version, Analysis.of(version.program, story: story, config: config, needs: Analysis.Needs(maxStates: maxStates)))
        }
        return Lesson(scenario: scenario, versions: versions)
    }
}
