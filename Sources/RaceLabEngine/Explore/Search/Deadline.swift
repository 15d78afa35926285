/// When a command's searches must stop: one clock for the whole command, so that
/// `--time-limit` bounds the exploration and the counterexample search together.
/// The only reader of the clock (`HostClock`); a search it stops says so (`Cut.timeLimit`).
public struct Deadline: Sendable, Equatable {
    /// The limit as given, in seconds (for the report).
    public let seconds: Int
    /// When it was set and when it passes, in the host clock's nanoseconds.
    let start: Int64
    let end: Int64

    /// A deadline `seconds` from now (a limit too far off to count is never reached).
    public init(seconds: Int) {
        self.seconds = seconds
        start = HostClock.nanoseconds()
        let (span, tooLong) = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, tooLate) = start.addingReportingOverflow(span)
        end = tooLong || tooLate ? .max : sum
    }

    public var hasPassed: Bool { HostClock.nanoseconds() >= end }

    /// The share of the time kept for the counterexample search once an exploration
    /// has found a failure: it stops at three quarters of the limit, so the command
    /// can still look for the simplest failing schedule within the limit.
    public static let counterexampleShare = 0.25

    /// Whether the time is up for an exploration that has (or has not) found a failure.
    func hasPassed(keepingShareForCounterexample keep: Bool) -> Bool {
        guard keep else { return hasPassed }
        let kept = Double(end - start) * (1 - Self.counterexampleShare)
        return HostClock.nanoseconds() >= start + Int64(kept)
    }
}
