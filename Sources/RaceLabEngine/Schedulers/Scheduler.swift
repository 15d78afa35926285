/// Picks the thread that takes the next step.
///
/// A scheduler is called at every choice point with the runnable threads (never
/// empty) in creation order, and must return one of them. Every strategy is
/// deterministic given its inputs: the same scenario, scheduler and seed always give
/// the same run.
public protocol Scheduler {
    mutating func next(runnable: [ThreadID], world: World) throws(ScheduleError) -> ThreadID
    /// Steps the scheduler was told to take and has not: a written schedule longer
    /// than the run. Empty for every strategy that decides as it goes.
    var unused: [String] { get }
}

extension Scheduler {
    public var unused: [String] { [] }
}

/// A schedule that cannot be followed.
public struct ScheduleError: Error, Equatable, Sendable {
    public var message: String
    /// The thread a schedule picked when it could not run (the runner says why).
    public var blocked: ThreadID?
    /// The run up to where the schedule could not be followed (set by the runner).
    public var partial: Run?

    public init(_ message: String, blocked: ThreadID? = nil) {
        self.message = message
        self.blocked = blocked
    }

    public static func == (a: ScheduleError, b: ScheduleError) -> Bool { a.message == b.message && a.blocked == b.blocked }
}
