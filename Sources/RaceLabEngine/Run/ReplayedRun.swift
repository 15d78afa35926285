/// A run replayed step by step, for its pictures: each world along it, how each thread
/// stood before each step, who held which lock, and, at the end, what each waiting
/// thread waits for. The engine is deterministic, so replaying the run's schedule
/// gives its worlds; the pictures that show more than a run's events (`SVGTimeline`,
/// `DOTGraph`) read this and run nothing.
public struct ReplayedRun: Sendable {
    /// How a thread stood before a step.
    public enum Lane: Sendable, Equatable {
        case ready, blocked, spinning
    }

    /// What a thread of the final world waits for (`Engine.waitDescription`).
    public struct Wait: Sendable, Equatable {
        public var thread: ThreadID
        /// Whether the thread itself waits (a strict-priority scheduler can also keep a
        /// thread that could run from running).
        public var waits: Bool
        /// The lock it waits for, when it waits for one.
        public var lock: ObjectID?
        /// "waits for lock1, held by B".
        public var text: String
        public var waitsOn: [ThreadID]
    }

    public let run: Run
    /// The world before each step and, last, after the last one (`threads.count + 1`
    /// worlds): what a picture reads beyond the events, such as who holds each actor.
    public let worlds: [World]
    /// Each step's thread, as far as the replay went.
    public let threads: [ThreadID]
    /// Before each step (and, last, at the end): each thread that existed then.
    public let lanes: [[Lane]]
    /// Before each step (and, last, at the end): the locks held, by object, in object order.
    public let held: [[(lock: ObjectID, owner: ThreadID)]]
    /// In the final world, every thread not finished that waits for something.
    public let waits: [Wait]

    public init(_ run: Run) {
        self.run = run
        let engine = Engine(program: run.program)
        var world = engine.initialWorld()
        var threads: [ThreadID] = []
        var lanes: [[Lane]] = []
        var held: [[(lock: ObjectID, owner: ThreadID)]] = []
        var worlds: [World] = []
        func record(_ world: World) {
            worlds.append(world)
            lanes.append(
                world.threads.indices.map { thread in
                    guard let wait = world.threads[thread].waiting else { return .ready }
                    if case .spin = wait { return .spinning }
                    // Waiting on a condition counts as blocked, though a spurious wakeup may come.
                    return engine.isRunnable(world, thread) && !engine.canOnlyWakeSpuriously(world, thread) ? .ready : .blocked
                })
            held.append(world.heap.indices.compactMap { id in world.headers[id].owner.map { (id, $0) } })
        }
        record(world)
        for name in run.schedule {
            guard let thread = world.thread(named: name) else { break }
            world = engine.step(world, thread: thread).0
            threads.append(thread)
            record(world)
        }
        self.worlds = worlds
        self.threads = threads
        self.lanes = lanes
        self.held = held
        let end = run.world
        let endEngine = engine
        waits = end.threads.indices.compactMap { thread in
            guard !end.threads[thread].isFinished, let (text, on) = endEngine.waitDescription(end, thread) else { return nil }
            var lock: ObjectID?
            if case .lock(let id, _)? = end.threads[thread].waiting { lock = id }
            return Wait(thread: thread, waits: end.threads[thread].waiting != nil, lock: lock, text: text, waitsOn: on)
        }
    }

    /// How `thread` stood before step `step` (ready before it existed).
    public func lane(_ thread: ThreadID, before step: Int) -> Lane {
        thread < lanes[step].count ? lanes[step][thread] : .ready
    }
}
