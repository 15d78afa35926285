/// Spin loops become waits. A thread whose steps only read shared variables (and
/// compute) and that comes back to the same local state, with nothing it read
/// written since, would repeat those steps forever: it is blocked instead, until
/// another thread writes one of them, and then retries. No behaviour is lost (its
/// further rounds change nothing and see nothing new), a spinning thread that can
/// never be released is reported as a deadlock that names what it spins on, and
/// the search needs no step bound for a busy-wait.
extension Engine {
    /// How many steps a watch lasts before it starts again from where the thread is:
    /// a loop whose round takes more steps is not caught.
    static let spinWindow = 16

    /// Where a thread stands before a step: how deep, and where in its top frame.
    /// Plain numbers: holding its frames would make the step copy them.
    struct Position {
        var depth: Int
        var code: Int
        var pc: Int
    }

    /// Before a step: a thread woken from a spin runs again. Returns where it stands,
    /// for `watchSpin`.
    func startStep(_ world: inout World, _ thread: ThreadID) -> Position {
        if case .spin = world.threads[thread].waiting { world.threads[thread].waiting = nil }
        let depth = world.threads[thread].frames.count
        guard depth > 0 else { return Position(depth: 0, code: -1, pc: -1) }
        return Position(depth: depth, code: world.threads[thread].frames[depth - 1].code, pc: world.threads[thread].frames[depth - 1].pc)
    }

    /// After a step of `thread` (from `before`) that made `accesses`: keeps watching a
    /// thread that only reads, and blocks it when it has come round. A watch starts
    /// where the thread's top frame went back (a loop's next round begins), so that
    /// straight-line reads cost nothing. A watch that something it read was written
    /// under since is dropped as if there were none (it may start again at once):
    /// the thread's future depends only on whether it has a watch still current, so
    /// the stateful search keeps only that (`StateEncoder`). Returns whether it now waits.
    @discardableResult
    func watchSpin(_ world: inout World, _ thread: ThreadID, before: Position, accesses: [Access]) -> Bool {
        guard spinWaits else { return false }
        // The common case first, touching nothing of the thread: a step that writes.
        for access in accesses where !access.isRead || world.version(of: access.target) == nil {
            if world.threads[thread].spin != nil { world.threads[thread].spin = nil }
            return false
        }
        let state = world.threads[thread]
        guard !world.halted, !state.isFinished, state.waiting == nil, !state.frames.isEmpty else {
            if state.spin != nil { world.threads[thread].spin = nil }
            return false
        }
        // A watch something was written under since is no watch: the thread may see
        // something new. (So the stateful search stores the two as one state.)
        guard var watch = state.spin, !watch.isStale(in: world) else {
            let wentBack = state.frames.last.map { state.frames.count == before.depth && $0.code == before.code && $0.pc <= before.pc } ?? false
            world.threads[thread].spin = wentBack ? SpinWatch(anchor: state.frames, reads: [], steps: 0) : nil
            return false
        }
        for access in accesses where !watch.reads.contains(where: { $0.target == access.target }) {
            watch.reads.append(SpinRead(target: access.target, version: world.version(of: access.target)!))
        }
        watch.steps += 1
        // Something it read has changed (it may see something new), or the round is too
        // long to catch: stop watching until it goes back again.
        if watch.steps > Self.spinWindow {
            world.threads[thread].spin = nil
            return false
        }
        guard state.frames == watch.anchor else {
            world.threads[thread].spin = watch
            return false
        }
        world.threads[thread].spin = nil
        world.threads[thread].waiting = .spin(watch.reads)
        return true
    }
}
