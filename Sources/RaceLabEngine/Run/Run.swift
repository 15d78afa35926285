/// Everything one run produced: what renderers read. Nothing here points back into
/// the engine; the program is kept for source lines and names.
public struct Run: Sendable {
    public enum End: String, Sendable {
        case completed = "completed"
        case crashed = "crashed"
        case deadlocked = "deadlocked"
        case stepLimit = "stopped at the step limit"
        /// Every thread left waits where it may rest for ever (`Engine.isIdle`): a
        /// server with no more work. The program did what it does.
        case idle = "ended idle"

        /// Whether the program got to its end (completed, or idle), so that its
        /// end checks (`expect`) are evaluated.
        public var ranToTheEnd: Bool { self == .completed || self == .idle }
    }

    public struct ExpectationResult: Sendable, Equatable {
        public var message: String
        /// nil when the run did not complete, or the check itself failed to evaluate.
        public var passed: Bool?
        public var note: String?
    }

    public var program: Program
    /// The thread that took each step, by name: feed it back to replay the run.
    public var schedule: Schedule
    public var events: [Event]
    public var world: World
    public var end: End
    public var findings: [Finding]
    public var expectations: [ExpectationResult]
    /// For a run that ended idle: where each thread left rests ("server waits on
    /// jobs (count 0)").
    public var resting: [String] = []

    /// "The run ended idle after 6 steps: server waits on jobs (count 0)."
    public var endSentence: String {
        let steps = "\(schedule.count) step\(schedule.count == 1 ? "" : "s")"
        return "The run \(end.rawValue) after \(steps)" + (resting.isEmpty ? "." : ": " + resting.joined(separator: "; ") + ".")
    }

    public var failed: Bool { !findings.isEmpty }
}
