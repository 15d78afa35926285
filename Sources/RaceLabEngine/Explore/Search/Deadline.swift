/// When a command's searches must stop: one clock for the whole command, so that
/// `--time-limit` bounds the exploration and the counterexample search together.
/// The only clock in the engine; a search it stops says so (`Cut.timeLimit`).
public struct Deadline: Sendable, Equatable {
    /// The limit as given, in seconds (for the report).
    public let seconds: Int
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant

    /// A deadline `seconds` from now.
    public init(seconds: Int) {
        self.seconds = seconds
        start = ContinuousClock.now
        end = start.advanced(by: .seconds(seconds))
    }

    public var hasPassed: Bool { ContinuousClock.now >= end }

    /// The share of the time kept for the counterexample search once an exploration
    /// has found a failure: it stops at three quarters of the limit, so the command
    /// can still look for the simplest failing schedule within the limit.
    public static let counterexampleShare = 0.25

    /// Whether the time is up for an exploration that has (or has not) found a failure.
    func hasPassed(keepingShareForCounterexample keep: Bool) -> Bool {
        guard keep else { return hasPassed }
        return ContinuousClock.now >= start.advanced(by: (end - start) * (1 - Self.counterexampleShare))
    }
}
