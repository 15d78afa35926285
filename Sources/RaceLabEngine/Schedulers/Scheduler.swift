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
    public init(_ message: String) { self.message = message }
}
