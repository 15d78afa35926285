import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// `racelab hint FILE [N]`: an exercise's task and its first N hints.
struct HintCommand: Command {

    static let spec = CommandSpec(
        name: "hint",
        abstract: "Show an exercise's task and its hints, one more each time you ask.",
        usage: "racelab hint <file-or-id> [<count>] [--exercises <folder>]",
        arguments: [
            ("file-or-id", "Your exercise file, or an exercise ID."),
            ("count", "How many hints to show (default 1)."),
        ],
        options: [ScenarioLocator.exercisesOption]
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let locator = context.locator
        guard (1...2).contains(parsed.positionals.count) else {
            throw UsageError(
                parsed.positionals.isEmpty ? "name your exercise file or an exercise ID" : "unexpected argument '\(parsed.positionals[2])'",
                command: Self.spec)
        }
        var count = 1
        if parsed.positionals.count == 2 {
            guard let n = Int(parsed.positionals[1]), n >= 1 else {
                throw UsageError("the hint count must be a whole number from 1, not '\(parsed.positionals[1])'", command: Self.spec)
            }
            count = n
        }
        let (exercises, warnings) = try locator.exercises().mapError { UsageError($0.message, command: Self.spec) }.get()
        var id = parsed.positionals[0]
        // An exercise file of one's own is its own exercise: its task and hints are in it.
        var fromFile: Exercise?
        if id.contains("/") || id.hasSuffix(".race") {
            let path = id
            switch locator.read(path) {
            case .failure(let failure):
                return CommandOutput(stderr: "error: \(failure.message)\n", status: .noInput)
            case .success(let file):
                guard let declared = Exercise.declaredID(in: file) else {
                    return CommandOutput(stderr: "error: \(path) is not an exercise: it has no 'exercise \"ID\"' line\n", status: .usage)
                }
                id = declared
                if !exercises.contains(where: { $0.id == declared }) {
                    do throws(GradingError) {
                        fromFile = try ScenarioLocator.exercise(file)
                    } catch {
                        return CommandOutput(stderr: "error: \(path): \(error.message)\n", status: .scriptError)
                    }
                }
            }
        }
        guard let exercise = fromFile ?? exercises.first(where: { $0.id == id }) else {
            throw UsageError("unknown exercise '\(id)'" + suggestion(id, exercises.map { $0.id }), command: Self.spec)
        }
        var out = "\(exercise.id): \(exercise.title) (\(exercise.kind.rawValue), \(exercise.level), \(exercise.points) points)\n\n"
        out +=
            exercise.task.split(separator: "\n", omittingEmptySubsequences: false).flatMap { String($0).wordWrapped(80, hanging: 0) }.joined(separator: "\n")
            + "\n"
        if exercise.hints.isEmpty {
            out += "\nThis exercise has no hints.\n"
        }
        for (index, hint) in exercise.hints.prefix(count).enumerated() {
            out += "\nHint \(index + 1) of \(exercise.hints.count):\n"
            out += hint.wordWrapped(76, hanging: 0).map { "  \($0)\n" }.joined()
        }
        if count < exercise.hints.count {
            out += "\nMore: racelab hint \(parsed.positionals[0]) \(count + 1)\n"
        } else if !exercise.hints.isEmpty {
            out += "\nThat is every hint.\n"
        }
        return CommandOutput(stdout: out, stderr: warnings)
    }
}
