import RaceLabEngine

/// What a student may not see: the answer of a break-it exercise (a schedule that
/// breaks it) or of a predict-it exercise (its outcomes). Commands that would print
/// one hold it back, unless the teacher switch is on: `--teacher`, or
/// `RACELAB_TEACHER=1` in the environment (docs/TEACHING.md). Fix-it exercises keep
/// their counterexamples: finding out why a fix fails is the lesson.
enum Spoilers {
    static let option = CommandSpec.Option(
        name: "teacher", value: nil,
        help: "Show the answers of break-it and predict-it exercises too\n(or set RACELAB_TEACHER=1).")

    static let environmentVariable = "RACELAB_TEACHER"

    /// Whether the teacher switch is on.
    static func teacher(_ parsed: ParsedArguments, _ environment: [String: String]) -> Bool {
        parsed.flags.contains("teacher") || ["1", "yes", "true"].contains(environment[environmentVariable]?.lowercased() ?? "")
    }

    enum Kind: String {
        case breakIt = "break it"
        case predictIt = "predict it"
    }

    /// The kind of exercise whose answer `scenario` holds, or nil for a scenario, a
    /// fix-it exercise, or a teacher.
    static func guarded(_ scenario: Scenario, teacher: Bool) -> Kind? {
        guard !teacher else { return nil }
        var isExercise = false
        var kind: Kind?
        for declaration in scenario.declarations {
            guard case .metadata(let key, let value) = declaration.kind else { continue }
            if key == "exercise" { isExercise = true }
            if key == "kind" { kind = Kind(rawValue: value) }
        }
        return isExercise ? kind : nil
    }

    /// What a student is told instead of the answer. `own`: the command would choose
    /// a schedule itself; the student may run one of their own.
    static func refusal(_ command: String, _ scenario: Scenario, _ kind: Kind, own: Bool = false) -> CommandOutput {
        let what =
            own
            ? "it picks the schedule, and the one it picks may be the answer"
            : kind == .predictIt ? "its outcomes are the answer you are asked to predict" : "a schedule that breaks it is the answer"
        let instead =
            own
            ? (command.hasPrefix("export")
                ? "Draw a schedule of your own (racelab export \(scenario.name) --schedule 'A B …'), or step through it with 'racelab step \(scenario.name)'."
                : "Run a schedule of your own (racelab run \(scenario.name) --schedule 'A B …'), or step through it with 'racelab step \(scenario.name)'.")
            : "Work it out with 'racelab step \(scenario.name)', then check it with 'racelab grade FILE'."
        return CommandOutput(
            stderr: """
                error: '\(scenario.name)' is a \(kind.rawValue.replacingOccurrences(of: " ", with: "-")) exercise: 'racelab \(command)' would show its answer (\(what)).
                \(instead)
                (A teacher sees everything with --teacher, or with \(environmentVariable)=1.)

                """, status: .usage)
    }

    /// The line that stands for a break-it exercise's counterexample.
    static let hiddenCounterexample =
        "\nCounterexample: hidden: a failing schedule is this break-it exercise's answer. Find one with 'racelab step', then hand it in.\n"
}
