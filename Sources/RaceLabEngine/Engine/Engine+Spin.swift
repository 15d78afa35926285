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
    /// Plain numbers, but for `roundStart`: holding its frames would make the step
    /// copy them.
    struct Position {
        var depth: Int
        var code: Int
        var pc: Int
        /// The thread's frames, when it stands at the start of a loop's round
        /// (`Code.roundStarts`) with no watch current: where a watch would begin.
        var roundStart: [Frame]?
    }

    /// Before a step: a thread woken from a spin runs again. Returns where it stands,
    /// for `watchSpin`.
    func startStep(_ world: inout World, _ thread: ThreadID) -> Position {
        if case .spin = world.threads[thread].waiting { world.threads[thread].waiting = nil }
        let depth = world.threads[thread].frames.count
        guard depth > 0 else { return Position(depth: 0, code: -1, pc: -1) }
        let code = world.threads[thread].frames[depth - 1].code, pc = world.threads[thread].frames[depth - 1].pc
        var position = Position(depth: depth, code: code, pc: pc)
        if spinWaits, code >= 0, program.codes[code].roundStarts.contains(pc),
            world.threads[thread].spin.map({ $0.isStale(in: world) }) ?? true
        {
            position.roundStart = world.threads[thread].frames
        }
        return position
    }

    /// After a step of `thread` (from `before`) that made `accesses`: keeps watching a
    /// thread that only reads, and blocks it when it has come round. A watch starts
    /// with a read-only step from the start of a loop's round (`Code.roundStarts`),
    /// anchored where the step began, so a spin blocks after one unchanged round;
    /// where no start is known (locals that decide before the first shared read), at
    /// the next read-only step whose top frame went back, anchored after it.
    /// Straight-line reads cost nothing. A watch that something it read was written
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
        var watch: SpinWatch
        if let current = state.spin, !current.isStale(in: world) {
            watch = current
        } else if let anchor = before.roundStart {
            watch = SpinWatch(anchor: anchor, reads: [], steps: 0)
        } else {
            // A round start is watched from itself (above): no watch begins where one will.
            var wentBack = false
            if let top = state.frames.last, state.frames.count == before.depth, top.code == before.code, top.code >= 0 {
                wentBack = top.pc <= before.pc && !program.codes[top.code].roundStarts.contains(top.pc)
            }
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
