import RaceLabLanguage

/// Follows a written schedule: `"A A B main"` (or `"A*2 B main"`), one thread name
/// per step. When the schedule runs out, the run goes on without preemption: the
/// last thread keeps running while it can, then the first runnable thread.
public struct FixedScheduler: Scheduler {
    public private(set) var names: [String]
    public private(set) var position = 0
    private var last: ThreadID?

    /// Parses a schedule string (see `Schedule`).
    /// - Parameter limit: the most steps it may have: the run's step limit.
    /// - Throws: `ScheduleError` for a malformed word or a schedule over the limit.
    public init(_ schedule: String, limit: Int) throws(ScheduleError) {
        names = try Schedule(parsing: schedule, limit: limit).steps
    }

    /// A schedule already split into thread names.
    public init(names: [String]) {
        self.names = names
    }

    public init(_ schedule: Schedule) {
        self.init(names: schedule.steps)
    }

    public var isExhausted: Bool { position >= names.count }

    public var unused: [String] { Array(names[min(position, names.count)...]) }

    public mutating func next(runnable: [ThreadID], world: World) throws(ScheduleError) -> ThreadID {
        guard position < names.count else {
            if let last, runnable.contains(last) { return last }
            last = runnable[0]
            return runnable[0]
        }
        let name = names[position]
        guard let id = world.thread(named: name) else {
            let known = world.threadNames
            let hint = Suggestion.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScheduleError(
                "step \(position + 1) of the schedule names thread '\(name)', which does not exist at that point\(hint); threads: \(known.joined(separator: ", "))"
            )
        }
        guard runnable.contains(id) else {
            // The runner adds why it cannot run, and which threads can.
            throw ScheduleError("step \(position + 1) of the schedule picks \(name), which cannot run then", blocked: id)
        }
        position += 1
        last = id
        return id
    }
}
