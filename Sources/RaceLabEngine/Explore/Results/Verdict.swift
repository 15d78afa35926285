/// What an exploration proved about one version of a scenario: the one verdict that
/// every renderer, `verify`, `step`'s debrief and the grader read.
public enum Verdict: Hashable, Sendable {
    /// Every interleaving passes, and the search was exhaustive.
    case proven
    /// Some interleaving fails, and the version was meant to work.
    case fails
    /// Some interleaving fails, as it should: the broken version, a broken variant, or
    /// a fix that is marked as one that cannot work.
    case failsAsExpected
    /// Every interleaving passes, though the version was meant to fail.
    case passesUnexpectedly
    /// No failure found, but a bound cut the search: not a proof.
    case notExhaustive(Cut)

    /// True for the two verdicts that say the version behaves as its role says.
    public var isAsExpected: Bool {
        switch self {
        case .proven, .failsAsExpected: return true
        case .fails, .passesUnexpectedly, .notExhaustive: return false
        }
    }

    /// True when some interleaving failed.
    public var foundFailure: Bool {
        self == .fails || self == .failsAsExpected
    }

    /// What `racelab explore` exits with, and the playground's status: 1 when some
    /// interleaving failed, 2 when a bound cut a search that found no failure, else 0.
    public var exitStatus: Int32 {
        switch self {
        case .fails, .failsAsExpected: return 1
        case .notExhaustive: return 2
        case .proven, .passesUnexpectedly: return 0
        }
    }
}

/// Which bound cut a search, so that its result is not a proof.
public enum Cut: Hashable, Sendable, CustomStringConvertible {
    /// An execution reached the step bound (it may loop forever).
    case stepBound(Int)
    /// The search stopped after this many executions.
    case executionBound(Int)
    /// Some interleaving needed more preemptions than the bound allows.
    case preemptionBound(Int)
    /// The wall-clock limit, in seconds.
    case timeLimit(Int)
    /// An execution started more threads than the explorer can track.
    case threadLimit(Int)
    /// The caller asked the search to stop.
    case stopped
    /// The stateful search stored this many states, its budget.
    case stateBound(Int)
    /// The stateful search's states took this many bytes, its budget.
    case memoryBound(Int)
    /// The stateful search explored every state within this many steps of the start
    /// and left further ones unexpanded (the step bound, read as a depth).
    case depthBound(Int)
    /// The search stopped this many states (the stateful search) or steps (DPOR)
    /// after its first failure (`ExploreConfig.failureMargin`): the failure stands,
    /// the outcomes and races are those seen so far.
    case afterFailure(Int, Work)

    /// What a bound counts.
    public enum Work: Hashable, Sendable {
        case states, steps
    }

    /// Whether the search stopped past a failure (not for want of room or time).
    public var isAfterFailure: Bool {
        if case .afterFailure = self { return true }
        return false
    }

    /// `an execution reached the step bound (2000 steps)`.
    public var description: String {
        switch self {
        case .stepBound(let n): return "an execution reached the step bound (\(n) steps)"
        case .executionBound(let n): return "stopped after \(n) executions (the execution bound)"
        case .preemptionBound(let n): return "preemption bound \(n)"
        case .timeLimit(let n): return "stopped at the time limit (\(n) seconds)"
        case .threadLimit(let n): return "an execution started more than \(n) threads"
        case .stopped: return "stopped"
        case .stateBound(let n): return "stopped after \(n) states (the state budget; --max-states raises it)"
        case .memoryBound(let n): return "stopped when the search held \(n >> 20) MB (the memory budget: do values grow every step?)"
        case .depthBound(let n):
            return "every state within \(n) steps of the start was explored, and some go further (the step bound; --max-steps raises it)"
        case .afterFailure(let n, let work):
            let (unit, all) = work == .states ? ("states", "state") : ("steps", "interleaving")
            let when = n == 0 ? "at the first failure" : "\(n) \(unit) after the first failure"
            return "stopped \(when), so the outcomes are partial (--all-outcomes explores every \(all))"
        }
    }

    /// The bound's name, for JSON: `steps`, `executions`, `preemptions`, `time`, `threads`, `stopped`,
    /// `states`, `memory`, `depth`, `failure`.
    public var bound: String {
        switch self {
        case .stepBound: return "steps"
        case .executionBound: return "executions"
        case .preemptionBound: return "preemptions"
        case .timeLimit: return "time"
        case .threadLimit: return "threads"
        case .stopped: return "stopped"
        case .stateBound: return "states"
        case .memoryBound: return "memory"
        case .depthBound: return "depth"
        case .afterFailure: return "failure"
        }
    }
}
