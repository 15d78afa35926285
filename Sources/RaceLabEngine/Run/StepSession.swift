/// A run taken one step at a time by a person: the worlds so far (so undo is
/// popping one), the thread that took each step, and what each step did.
///
///     var session = StepSession(program: program)
///     try session.step(session.world.thread(named: "A")!)
///     session.undo()   // back to the initial world, exactly
public struct StepSession: Sendable {
    public let engine: Engine
    /// The most steps a session may take (a runaway loop stops here).
    public let maxSteps: Int
    /// `worlds[0]` is the initial world; `worlds[k]` the world after k steps.
    public private(set) var worlds: [World]
    /// The thread that took each step.
    public private(set) var schedule: [ThreadID] = []
    /// The events of each step.
    public private(set) var steps: [[Event]] = []
    /// Whether each step ran a `progress` statement.
    public private(set) var progressed: [Bool] = []

    /// Why a thread cannot take a step now.
    public struct Refusal: Error, Equatable, Sendable {
        public var message: String
    }

    public init(program: Program, maxSteps: Int = 10_000) {
        engine = Engine(program: program)
        self.maxSteps = maxSteps
        worlds = [engine.initialWorld()]
    }

    public var world: World { worlds[worlds.count - 1] }

    /// Threads that can take the next step (none once the run is over).
    public var runnable: [ThreadID] {
        world.stepCount >= maxSteps ? [] : engine.runnableThreads(world)
    }

    public var isOver: Bool { runnable.isEmpty }

    /// The schedule so far, by thread name, as `--schedule` takes it.
    public var scheduleNames: Schedule { Schedule(schedule.map { world.threadNames[$0] }) }

    /// Runs one step of `thread`.
    /// - Throws: `Refusal` saying why, when the thread cannot run now.
    public mutating func step(_ thread: ThreadID) throws(Refusal) {
        guard world.threads.indices.contains(thread) else { throw Refusal(message: "there is no thread \(thread + 1)") }
        let name = world.threadNames[thread]
        if world.halted { throw Refusal(message: "the run is over: it crashed") }
        if world.stepCount >= maxSteps { throw Refusal(message: "the run is over: it reached the step limit (\(maxSteps) steps)") }
        guard engine.isSchedulable(world, thread) else {
            let reason = engine.waitDescription(world, thread)?.text ?? "cannot run"
            throw Refusal(message: "\(name) can't run now: it \(reason)")
        }
        var next = world
        let (events, progress) = engine.narratedStep(&next, thread: thread)
        worlds.append(next)
        schedule.append(thread)
        steps.append(events)
        progressed.append(progress)
    }

    /// Takes back the last step; false when there is none.
    @discardableResult
    public mutating func undo() -> Bool {
        guard !schedule.isEmpty else { return false }
        worlds.removeLast()
        schedule.removeLast()
        steps.removeLast()
        progressed.removeLast()
        return true
    }

    /// Back to the initial world.
    public mutating func restart() {
        worlds.removeSubrange(1...)
        schedule = []
        steps = []
        progressed = []
    }

    /// The thread Enter runs: the one that ran last if it still can (no preemption),
    /// else the first runnable one.
    public var defaultChoice: ThreadID? {
        let runnable = runnable
        if let last = schedule.last, runnable.contains(last) { return last }
        return runnable.first
    }

    /// The finished run, as `racelab run --schedule` would report it: the final checks,
    /// deadlock and findings. nil while the run can go on.
    public func outcome() -> Run? {
        guard isOver else { return nil }
        var scheduler = FixedScheduler(scheduleNames)
        return try? Runner(program: engine.program, maxSteps: maxSteps).run(&scheduler)
    }

    /// How many steps ago the session was in the state it is in now, nearest first,
    /// with no step since running a `progress` statement: each a loop the threads
    /// went round and got nowhere. Empty when there is none.
    public func loopsBack() -> [Int] {
        var encoder = StateEncoder(program: engine.program, initial: worlds[0])
        encoder.encode(world)
        let now = Array(encoder.bytes.raw)
        var loops: [Int] = []
        for back in 1..<worlds.count {
            if progressed[schedule.count - back] { break }
            encoder.encode(worlds[worlds.count - 1 - back])
            if encoder.bytes.raw.elementsEqual(now) { loops.append(back) }
        }
        return loops
    }

    // MARK: - What the screen shows of each thread

    /// A thread's next step, seen before it is taken.
    public struct Preview: Sendable {
        /// The first thing the step would do (nil for a step that emits nothing).
        public var event: Event?
        /// Its priority, when a strict-priority scheduler decides who runs.
        public var priority: Int?
    }

    /// What `thread` would do if it ran next; nil when it cannot run now. The world
    /// is a value: the step is taken on a copy and thrown away.
    public func preview(_ thread: ThreadID) -> Preview? {
        guard world.threads.indices.contains(thread), engine.isSchedulable(world, thread) else { return nil }
        let (_, events) = engine.step(world, thread: thread)
        return Preview(event: events.first, priority: engine.program.strictPriority ? engine.effectivePriority(world, thread) : nil)
    }

    /// Why `thread` cannot run now ("waits for lock1, held by A"), and whether it is
    /// blocked, rather than idle (a main thread with nothing queued) or outranked
    /// under strict priority; nil when it can run or has finished.
    public func wait(_ thread: ThreadID) -> (text: String, blocked: Bool)? {
        guard world.threads.indices.contains(thread), let wait = engine.waitDescription(world, thread) else { return nil }
        let idle = world.threads[thread].frames.isEmpty || engine.isRunnable(world, thread)
        return (wait.text, !idle)
    }
}
