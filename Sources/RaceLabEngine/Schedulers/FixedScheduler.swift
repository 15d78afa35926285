import RaceLabLanguage

/// Follows a written schedule: `"A A B main"` (or `"A*2 B main"`), one thread name
/// per step. When the schedule runs out, the run goes on without preemption: the
/// last thread keeps running while it can, then the first runnable thread.
public struct FixedScheduler: Scheduler {
    public private(set) var names: [String]
    public private(set) var position = 0
    private var last: ThreadID?

    /// Parses a schedule string.
    /// - Throws: `ScheduleError` for a malformed repeat count.
    public init(_ schedule: String) throws(ScheduleError) {
        names = try FixedScheduler.parse(schedule)
    }

    /// A schedule already split into thread names.
    public init(names: [String]) {
        self.names = names
    }

    public static func parse(_ schedule: String) throws(ScheduleError) -> [String] {
        var names: [String] = []
        for word in schedule.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }) {
            let parts = word.split(separator: "*", omittingEmptySubsequences: false)
            if parts.count == 2 {
                guard let n = Int(parts[1]), n >= 1, n <= 100_000, !parts[0].isEmpty else {
                    throw ScheduleError("bad repeat '\(word)' in the schedule: write NAME*COUNT, like A*3")
                }
                names += Array(repeating: String(parts[0]), count: n)
            } else if parts.count == 1 {
                names.append(String(word))
            } else {
                throw ScheduleError("bad step '\(word)' in the schedule")
            }
        }
        return names
    }

    /// The shortest text for a schedule: runs of three or more steps of one thread
    /// become `NAME*COUNT` ("A B*40"), which `parse` reads back.
    public static func text(_ names: [String]) -> String {
        var words: [String] = []
        var index = 0
        while index < names.count {
            var end = index + 1
            while end < names.count && names[end] == names[index] { end += 1 }
            let count = end - index
            words += count >= 3 ? ["\(names[index])*\(count)"] : Array(repeating: names[index], count: count)
            index = end
        }
        return words.joined(separator: " ")
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
            throw ScheduleError("step \(position + 1) of the schedule names thread '\(name)', which does not exist at that point\(hint); threads: \(known.joined(separator: ", "))")
        }
        guard runnable.contains(id) else {
            throw ScheduleError("step \(position + 1) of the schedule picks \(name), which cannot run then; runnable: \(runnable.map { world.threadNames[$0] }.joined(separator: ", "))")
        }
        position += 1
        last = id
        return id
    }
}
