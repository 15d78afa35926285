import RaceLabEngine

/// A run replayed step by step, for the pictures: the world before each step, so a
/// picture can show who was blocked, spinning, or holding which lock at every row.
/// The engine is deterministic, so replaying the run's schedule gives its worlds.
struct RunReplay {
    let engine: Engine
    /// `worlds[i]`: the world before step i; the last one is the run's final world.
    let worlds: [World]
    /// Each step's thread.
    let threads: [ThreadID]

    init(_ run: Run) {
        engine = Engine(program: run.program)
        var world = engine.initialWorld()
        var worlds = [world]
        var threads: [ThreadID] = []
        for name in run.schedule {
            guard let thread = world.thread(named: name) else { break }
            world = engine.step(world, thread: thread).0
            worlds.append(world)
            threads.append(thread)
        }
        self.worlds = worlds
        self.threads = threads
    }

    enum Lane { case ready, blocked, spinning }

    /// How a thread stood before step `step`.
    func lane(_ thread: ThreadID, before step: Int) -> Lane {
        let world = worlds[step]
        guard thread < world.threads.count, let wait = world.threads[thread].waiting else { return .ready }
        if case .spin = wait { return .spinning }
        // Waiting on a condition counts as blocked, though a spurious wakeup may come.
        return engine.isRunnable(world, thread) && !engine.canOnlyWakeSpuriously(world, thread) ? .ready : .blocked
    }

    /// The locks (by object) each thread holds before step `step`, in object order.
    func held(before step: Int) -> [(lock: ObjectID, owner: ThreadID)] {
        let world = worlds[step]
        return world.heap.indices.compactMap { id in world.headers[id].owner.map { (id, $0) } }
    }
}
