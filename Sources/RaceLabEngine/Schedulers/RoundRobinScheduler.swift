/// Gives each runnable thread one step in turn, in creation order: the most
/// preemptive schedule there is, and a quick way to see threads interleave.
public struct RoundRobinScheduler: Scheduler {
    private var last: ThreadID = -1

    public init() {}

    public mutating func next(runnable: [ThreadID], world: World) throws(ScheduleError) -> ThreadID {
        let pick = runnable.first { $0 > last } ?? runnable[0]
        last = pick
        return pick
    }
}
