/// The cooperative pool (`pool N`): a task running a job off the main actor holds
/// one of its threads, blocked or not; and the forward-progress rule, which a task
/// that blocks its thread breaks.
extension Machine {
    /// Under `pool N`, whether the running task must take a pool thread before its
    /// next instruction: it runs a job off the main actor, and holds none.
    var mustTakePoolThread: Bool {
        guard program.poolWidth != nil, state.task != nil, !state.onPool else { return false }
        // Ready to run, or resuming from a suspension it may now leave.
        switch state.waiting {
        case nil, .pool, .task, .continuation, .stream: break
        default: return false
        }
        return state.executor == nil || state.executor != world.mainActor
    }

    /// Takes a thread of the cooperative pool, or waits for one.
    mutating func takePoolThread() {
        range = code.ranges[frame.pc] ?? (frame.pc > 0 ? code.ranges[frame.pc - 1] : nil)
        let busy = world.threads.count { $0.onPool }
        let width = program.poolWidth ?? Int.max
        let woken = wokenAccess.map { [$0] } ?? []
        guard busy < width else {
            state.waiting = .pool
            emit("waits for a thread of the cooperative pool: all \(width) are busy", [Access(.pool, .read)] + woken)
            return
        }
        state.waiting = nil
        state.onPool = true
        emit("runs its job on a thread of the cooperative pool (\(busy + 1) of \(width) busy)", [Access(.pool, .write)] + woken)
    }

    /// Gives back the pool thread the running task holds (it suspends, waits for an
    /// actor, moves to the main actor, or finishes).
    mutating func leavePool() {
        guard state.onPool else { return }
        state.onPool = false
        touch(.pool, .write)
    }

    /// A task that blocks its thread (`what`: a semaphore's or a group's wait): the
    /// thread is the cooperative pool's, and the work that would wake it may need
    /// one too. Reported whenever it happens, whatever else runs (the rule is never
    /// to block on work that is not already running, and a semaphore cannot tell);
    /// it depends on nothing but the step, so every search sees the same.
    mutating func checkForwardProgress(_ what: String) {
        guard state.task != nil else { return }
        report(
            .forwardProgress,
            "\(threadName) blocks its thread in \(what): a thread of the cooperative pool, held until other work signals; if that work needs a thread of the pool too, with one thread (or every thread so blocked) it never runs"
        )
    }
}
