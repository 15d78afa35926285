/// A run as a sequence of thread names, one per step: what `--schedule` takes, what
/// every run prints, and what a counterexample, an outcome's first run and a
/// livelock's steps are. One type parses, prints and bounds it, so no command can
/// accept a schedule longer than the run may be, and every report writes it alike.
///
///     let schedule = try Schedule(parsing: "A*2 B main", limit: 2_000)
///     schedule.steps  // ["A", "A", "B", "main"]
///     schedule.text   // "A A B main"
public struct Schedule: Hashable, Sendable, CustomStringConvertible, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// Thread names, one per step.
    public var steps: [String]

    public init<Names: Sequence<String>>(_ steps: Names) {
        self.steps = Array(steps)
    }

    public init(arrayLiteral steps: String...) {
        self.steps = steps
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { steps.count }
    public subscript(step: Int) -> String { steps[step] }

    public mutating func append(_ name: String) { steps.append(name) }

    public static func + (a: Schedule, b: Schedule) -> Schedule { Schedule(a.steps + b.steps) }

    /// Parses `"A A B main"`: names separated by spaces, commas or line breaks; a run
    /// of one thread may be written `NAME*COUNT`.
    /// - Parameter limit: the most steps the schedule may have (the run's step limit).
    ///   A longer schedule could never be followed; it is refused before any of it is
    ///   expanded, so a short text with huge counts costs nothing.
    /// - Throws: `ScheduleError` for a malformed word or a schedule over the limit.
    /// - Complexity: O(n) in the text, plus the steps up to `limit`.
    public init(parsing text: String, limit: Int) throws(ScheduleError) {
        var steps: [String] = []
        // Any white space separates (a Character test: "\r\n" is one Character).
        for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "," }) {
            let parts = word.split(separator: "*", omittingEmptySubsequences: false)
            var count = 1
            if parts.count == 2 {
                // A count too large for an Int is a count over the limit, not a typo.
                let digits = !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
                guard let n = Int(parts[1]) ?? (digits ? Int.max : nil), n >= 1, !parts[0].isEmpty else {
                    throw ScheduleError("bad repeat '\(word)' in the schedule: write NAME*COUNT, like A*3")
                }
                count = n
            } else if parts.count != 1 {
                throw ScheduleError("bad step '\(word)' in the schedule")
            }
            guard count <= limit - steps.count else {
                throw ScheduleError("the schedule has more than \(limit) steps, the most a run may take (raise it with --max-steps)")
            }
            steps += repeatElement(String(parts[0]), count: count)
        }
        self.steps = steps
    }

    /// The text every report prints and `init(parsing:limit:)` reads back: a name per
    /// step ("A A B main"); past 64 steps, runs of three or more steps of one thread
    /// written `NAME*COUNT` ("A B*40"), so a 20,000-step run stays a line.
    public var text: String {
        guard steps.count > 64 else { return steps.joined(separator: " ") }
        var words: [String] = []
        var index = 0
        while index < steps.count {
            var end = index + 1
            while end < steps.count && steps[end] == steps[index] { end += 1 }
            let count = end - index
            words += count >= 3 ? ["\(steps[index])*\(count)"] : Array(repeating: steps[index], count: count)
            index = end
        }
        return words.joined(separator: " ")
    }

    public var description: String { text }
}
