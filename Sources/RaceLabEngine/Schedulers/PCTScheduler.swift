/// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte,
/// "A Randomized Scheduler with Probabilistic Guarantees of Finding Bugs",
/// ASPLOS 2010).
///
/// Each thread gets a random priority when it appears; the highest-priority
/// runnable thread always runs. At `depth - 1` random steps (out of an expected
/// `length`), the running thread's priority drops below every other. A bug that
/// needs `d` ordering constraints is found with probability at least 1/(n·k^(d-1)).
public struct PCTScheduler: Scheduler {
    private var random: SplitMix64
    private var priorities: [Int] = []
    private var changePoints: [Int]
    private var step = 0
    private var lowered = 0

    /// - Parameters:
    ///   - seed: the seed of the run.
    ///   - depth: the bug depth `d` to aim for (at least 1).
    ///   - length: the expected number of steps `k`.
    public init(seed: UInt64, depth: Int = 3, length: Int = 60) {
        random = SplitMix64(seed: seed)
        var points: [Int] = []
        for _ in 0..<max(0, depth - 1) { points.append(1 + random.below(max(1, length))) }
        changePoints = points
    }

    public mutating func next(runnable: [ThreadID], world: World) throws(ScheduleError) -> ThreadID {
        while priorities.count < world.threads.count {
            // Fresh threads get distinct priorities above every lowered one.
            priorities.append(1_000 + random.below(1_000_000))
        }
        step += 1
        let pick = runnable.max { priorities[$0] < priorities[$1] || (priorities[$0] == priorities[$1] && $0 > $1) }!
        if changePoints.contains(step) {
            lowered += 1
            priorities[pick] = -lowered
            return runnable.max { priorities[$0] < priorities[$1] || (priorities[$0] == priorities[$1] && $0 > $1) }!
        }
        return pick
    }
}
