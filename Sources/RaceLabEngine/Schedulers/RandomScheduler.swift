/// Picks a runnable thread uniformly at random at every step, from a seeded
/// SplitMix64: the same seed gives the same run.
public struct RandomScheduler: Scheduler {
    private var random: SplitMix64

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    public mutating func next(runnable: [ThreadID], world: World) throws(ScheduleError) -> ThreadID {
        runnable[random.below(runnable.count)]
    }
}
