import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// What a student may not see: the answer of a break-it exercise (a schedule that
/// breaks it) or of a predict-it exercise (its outcomes). Commands that would print
/// one hold it back, for the exercise's own file and for any program that behaves as
/// it (`Behaviour`: a copy without its header, renamed, reordered or padded). Fix-it
/// exercises keep their counterexamples: finding out why a fix fails is the lesson.
/// The teacher's switch (`--teacher`, or `RACELAB_TEACHER=1`) shows everything; it is
/// hidden, named only in docs/TEACHING.md and `racelab help teaching`.
enum Spoilers {
    static let option = CommandSpec.Option(
        name: "teacher", value: nil, help: "Show the answers of break-it and predict-it exercises too.", hidden: true)

    static let environmentVariable = "RACELAB_TEACHER"

    /// Whether the teacher switch is on.
    static func teacher(_ parsed: ParsedArguments, _ environment: [String: String]) -> Bool {
        parsed.flags.contains("teacher") || ["1", "yes", "true"].contains(environment[environmentVariable]?.lowercased() ?? "")
    }

    /// What is held back of one program: the kind of answer it holds, and the
    /// exercise whose answer that is when the program is not the exercise's file but
    /// behaves as it.
    struct Guard: Equatable {
        var kind: Exercise.Kind
        var resembles: String?
    }

    /// The answer `programs` (versions of `scenario`) hold, or nil for none: a
    /// break-it or predict-it exercise by its header, else a program whose behaviour
    /// is a guarded exercise's: a shipped one (`ShippedBehaviours`, built in, so no
    /// folder on disk can hide one) or one of `exercises` (the folders' own). A
    /// shipped scenario, word for word, is tested to behave as no exercise, and is
    /// explored without a guard.
    static func guarded(_ scenario: Scenario, _ programs: [Program], exercises: () -> [Exercise]) -> Guard? {
        var isExercise = false
        var kind: Exercise.Kind?
        for declaration in scenario.declarations {
            guard case .metadata(let key, let value) = declaration.kind else { continue }
            if key == "exercise" { isExercise = true }
            if key == "kind" { kind = Exercise.Kind(rawValue: value) }
        }
        if isExercise, let kind, kind.answerIsSecret { return Guard(kind: kind, resembles: nil) }
        guard !ShippedBehaviours.scenarios.contains(Behaviour.textHash(scenario.file.text)) else { return nil }
        let own = exercises().filter { $0.kind.answerIsSecret }.compactMap { exercise in
            exerciseBehaviours.of(exercise).map { (id: exercise.id, kind: exercise.kind, behaviour: $0) }
        }
        let guarded = ShippedBehaviours.exercises + own
        let room = Behaviour.Size.room(for: guarded.map { $0.behaviour.size })
        let behaviours = programs.compactMap { Behaviour.of($0, within: room) }
        return guarded.first { behaviours.contains($0.behaviour) }.map { Guard(kind: $0.kind, resembles: $0.id) }
    }

    /// The guarded exercises' behaviours, each worked out once a process (by the
    /// exercise's text): a command that checks several versions, or a test that runs
    /// many commands, explores each exercise once.
    static let exerciseBehaviours = ExerciseBehaviours()

    final class ExerciseBehaviours: @unchecked Sendable {
        private let lock = CacheLock()
        private var known: [String: Behaviour?] = [:]

        func of(_ exercise: Exercise) -> Behaviour? {
            let key = exercise.scenario.file.text
            if let behaviour = lock.withLock({ known[key] }) { return behaviour }
            let behaviour = Behaviour.of(exercise.program)
            lock.withLock { known[key] = behaviour }
            return behaviour
        }
    }

    /// What a student is told instead of the answer. `argument`: the scenario as the
    /// student named it (an ID or a path), for the commands suggested. `own`: the
    /// command would choose a schedule itself; the student may run one of their own.
    static func refusal(_ command: String, _ scenario: Scenario, as argument: String, _ held: Guard, own: Bool = false) -> CommandOutput {
        let kind = held.kind
        let what =
            own
            ? "it picks the schedule, and the one it picks may be the answer"
            : kind == .predictIt ? "its outcomes are the answer you are asked to predict" : "a schedule that breaks it is the answer"
        let exercise = "a \(kind.rawValue.replacingAll(" ", with: "-")) exercise"
        let which =
            held.resembles.map { "'\(scenario.name)' behaves as \(exercise), '\($0)'" } ?? "'\(scenario.name)' is \(exercise)"
        let instead =
            own
            ? (command.hasPrefix("export")
                ? "Draw a schedule of your own (racelab export \(argument) --schedule 'A B …'), or step through it with 'racelab step \(argument)'."
                : "Run a schedule of your own (racelab run \(argument) --schedule 'A B …'), or step through it with 'racelab step \(argument)'.")
            : "Work it out with 'racelab step \(argument)', then check it with 'racelab grade FILE'."
        return CommandOutput(
            stderr: """
                error: \(which): 'racelab \(command)' would show its answer (\(what)).
                \(instead)

                """, status: .usage)
    }

    /// The line that stands for a break-it exercise's counterexample.
    static func hiddenCounterexample(_ held: Guard) -> String {
        let whose = held.resembles.map { "the answer of the break-it exercise '\($0)', which this program behaves as" } ?? "this break-it exercise's answer"
        return "\nCounterexample: hidden: a failing schedule is \(whose). Find one with 'racelab step', then hand it in.\n"
    }

    /// `racelab help teaching`: the teacher's topic, listed in no other help screen.
    static let teachingHelp = """
        OVERVIEW: What a teacher can do that a student is not told about.

        THE TEACHER'S SWITCH:
          --teacher              On explore, verify, run, step, export and grade: show the
                                 answers of break-it and predict-it exercises too (and of
                                 any program that behaves as one), and tell a wrong
                                 prediction which values it missed, with a schedule each.
          \(environmentVariable)=1       The same, for every command in this environment.

          Use it to project or check answers, never in a folder handed to students: no
          help screen, refusal or README section names it, but docs/TEACHING.md does,
          and the guard is no security boundary (see "What the guard holds" there).

        GRADING A CLASS:
          racelab grade FOLDER --roster roster.txt --csv grades.csv
          racelab grade --check-solution SOLUTION.race...
          racelab new exercise ID --kind fix|break|predict

          See docs/TEACHING.md for exercises, grading, Gradescope and GitHub Classroom.

        """
}
