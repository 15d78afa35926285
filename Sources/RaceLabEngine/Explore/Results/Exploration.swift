/// The final observable state of one execution, as the outcome histogram groups it
/// (jcstress style): the shared variables, how the run ended, what it broke.
public struct Outcome: Hashable, Sendable {
    /// `singleton = MySingle#2, gotA = MySingle#1`: every shared `var`, in declaration order.
    public var state: String
    public var end: Run.End
    /// The kinds of finding the execution made, sorted, each once.
    public var findings: [Finding.Kind]
    /// Indexes of the `expect` checks that failed (or could not be evaluated).
    public var failedChecks: [Int]
    /// What else tells this outcome's final worlds apart from others with the same
    /// variables: how many instances of each class were created
    /// (`2 MySingle created`), and where each instance of a main-thread-only class
    /// was deallocated (`ViewController#1 deallocated on worker`).
    public var facts: [String] = []

    public var isFailure: Bool { !findings.isEmpty }

    public init(state: String, end: Run.End, findings: [Finding.Kind], failedChecks: [Int], facts: [String] = []) {
        self.state = state
        self.end = end
        self.findings = findings
        self.failedChecks = failedChecks
        self.facts = facts
    }
}

/// Everything an exploration found. Deterministic: the same program and bounds give
/// the same value, except when the time limit cut the search.
public struct Exploration: Sendable {
    public struct OutcomeCount: Sendable {
        public var outcome: Outcome
        /// Executions that reached it (Mazurkiewicz traces, under DPOR).
        public var executions: Int
        /// Interleavings those executions stand for.
        public var interleavings: InterleavingCount
        /// The schedule of the first execution that reached it, by thread name.
        public var schedule: Schedule

        public init(outcome: Outcome, executions: Int, interleavings: InterleavingCount, schedule: Schedule) {
            self.outcome = outcome
            self.executions = executions
            self.interleavings = interleavings
            self.schedule = schedule
        }
    }

    /// An empty result of a search with `reduction`: the searches fill it in (and a
    /// test may, by hand).
    public init(reduction: ExploreConfig.Reduction) {
        self.reduction = reduction
    }

    public var reduction: ExploreConfig.Reduction
    /// The search that ran: `.stateless` or `.stateful`, never `.automatic`.
    public var search = ExploreConfig.Search.stateless
    /// Why that search ran, when it was chosen or differs from what was asked
    /// (`SearchPlan`, `Explorer.exploreChoosing`), in a sentence for the report.
    public var searchReason: SearchReason?
    /// The stateful search's graph: distinct worlds, steps between them, and the
    /// longest of the shortest paths from the start (every state is that close).
    public var states = 0
    public var transitions = 0
    public var depth = 0
    /// The most bytes the search held at once (estimated): the stateful search's
    /// store and graph, and the worlds waiting to be expanded; the stateless search's
    /// worlds, trace and sleep sets, read every 256 steps.
    public var memory = 0
    /// Under the stateful search, whether the counts are interleavings (paths from
    /// the start to a final state, when the state graph has no cycle) or, when it
    /// has one and paths are endless, final states.
    public var countsInterleavings = true
    /// Whether the stateful search skipped steps with sleep sets (`StateSleepSets`):
    /// then the counts are final states and the shortest failure is only the
    /// shortest the reduced graph holds.
    public var sleepSets = false
    /// When sleep sets found a cycle, the search was repeated without them (livelock
    /// needs every step): what the first search stored and stepped.
    public var sleepSetsRetried: (states: Int, steps: Int)?
    /// Whether the stateful search's graph has a cycle: some run goes on forever.
    /// Known only when the search finished.
    public var hasCycle = false
    /// Whether the graph has a cycle with no step that makes progress
    /// (`StateGraph.hasNonProgressCycle`): where a livelock is in question.
    var hasNonProgressCycle = false
    /// Whether `livelock` is an answer: the search kept every step, or its reduced
    /// graph has no cycle without progress, so the program has no livelock
    /// (`StatefulSearch.completed`).
    public var livelockChecked: Bool { !sleepSets || !hasNonProgressCycle }
    /// A run that goes on forever without progress, found by the stateful search.
    public var livelock: Livelock?
    /// When a bound cut the stateful search with no failure found: the shared
    /// variables (and "objects") that grew at the search's edge, so the states may
    /// never end (`GrowthWatch`).
    public var growing: [String] = []
    /// Complete executions: each ends, deadlocks, crashes or is cut by the step bound.
    public var executions = 0
    /// DPOR executions abandoned because every enabled thread was asleep (redundant).
    public var sleepBlocked = 0
    /// Interleavings the executions stand for (their linearizations): a lower bound
    /// when an execution had too many to count, or when the sum passed `Int.max`.
    public var interleavings = InterleavingCount.zero
    /// States the interleaving count visited (see `Explorer.countingAllowance`).
    public var countingStates = 0
    /// Steps of the search tree: a prefix that executions share is counted once.
    public var steps = 0
    /// Further steps DPOR took to try each race's reversal from where the race began.
    public var reversalSteps = 0
    /// Outcomes in the order they were first reached.
    public var outcomes: [OutcomeCount] = []
    /// The schedule of the shortest failing execution seen (the first of that length),
    /// by thread name; nil when none failed.
    public var shortestFailure: Schedule?
    /// Lock-order edges seen in any execution (held before taken), each once.
    public var lockOrder: [LockOrderEdge] = []
    /// Data races seen in any execution, each once, in the order first seen.
    public var dataRaces: [DataRace] = []
    /// A rough guess of the executions the whole search needs (Knuth's estimator on
    /// the current path: the product of the choices along it). For progress lines only.
    public var estimate = 0
    /// The bound that cut the search, when one did: the result is then not a proof.
    public var cut: Cut?
    /// The orderings weaker than sequentially consistent the program's atomics use
    /// (`Program.weakOrderings`): races follow them, outcomes do not, and every report
    /// says so (`orderingNote`).
    public var weakOrderings: [MemoryOrdering] = []

    /// The sentence every report gives when the program uses weaker orderings
    /// (`MemoryOrdering.note`), or nil.
    public var orderingNote: String? { MemoryOrdering.note(weakOrderings, "this program") }

    public var failingExecutions: Int {
        outcomes.filter({ $0.outcome.isFailure }).map({ $0.executions }).reduce(0, +) + (livelock == nil ? 0 : 1)
    }
    public var isExhaustive: Bool { cut == nil }
    /// Whether it found a failure: a failing outcome, a livelock or a data race. The
    /// verdict's, and what starts a search's margin (`ExploreConfig.failureMargin`).
    public var hasFailed: Bool {
        !dataRaces.isEmpty || livelock != nil || outcomes.contains { $0.outcome.isFailure }
    }
    /// Every interleaving passes its checks, and only data races fail the program.
    public var failsByRacesAlone: Bool { failingExecutions == 0 && !dataRaces.isEmpty }

    /// The interleavings whose outcome fails.
    public var failingInterleavings: InterleavingCount { interleavings { $0.isFailure } }

    /// The interleavings whose outcome satisfies `predicate`.
    public func interleavings(where predicate: (Outcome) -> Bool) -> InterleavingCount {
        .sum(outcomes.filter { predicate($0.outcome) }.map({ $0.interleavings }))
    }

    /// The verdict for a version with this role: a failure is expected of the broken
    /// version, a variant or a fix marked as failing; a proof of a fix. A data race
    /// fails a program whose every interleaving passes its checks, as it fails a
    /// student's fix: two accesses with nothing ordering them are undefined
    /// behaviour, whatever the outcomes say.
    public func verdict(as role: VersionRole = .fix) -> Verdict {
        if hasFailed { return role.shouldFail ? .failsAsExpected : .fails }
        if let cut { return .notExhaustive(cut) }
        return role.shouldFail ? .passesUnexpectedly : .proven
    }

    /// The kinds of finding some execution made, in `Finding.Kind` order.
    public var findingKinds: [Finding.Kind] {
        Finding.Kind.allCases.filter { kind in
            outcomes.contains { $0.outcome.findings.contains(kind) } || (kind == .livelock && livelock != nil)
        }
    }
}

/// A run that never ends and never progresses: a way from the start to a state, and
/// steps from there that come back to it, so they can repeat forever. Every thread
/// that can run all along the cycle takes a step in it (weak fairness: no thread is
/// simply never scheduled), and no step in it runs a `progress` statement.
public struct Livelock: Hashable, Sendable {
    /// The steps from the start to where the cycle begins, by thread name.
    public var prefix: Schedule
    /// The steps that repeat, by thread name.
    public var cycle: Schedule
    /// Whether the program marks progress (`progress` statements): if not, a round
    /// of a thread's outermost `while true` loop is progress (`Instruction.round`).
    public var progressMarked: Bool
}
