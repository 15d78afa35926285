import RaceLabEngine
import RaceLabGrading
import RaceLabPresentation

/// `racelab list`: every shipped scenario with its title and fixes.
struct ListCommand: Command {

    static let spec = CommandSpec(
        name: "list",
        abstract: "List the shipped scenarios and their fixes, and the exercises.",
        usage: "racelab list [--exercises <folder>]",
        options: [ScenarioLocator.exercisesOption]
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let locator = context.locator
        if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'", command: Self.spec) }
        let names = locator.names()
        guard !names.isEmpty else {
            return CommandOutput(
                stderr: "error: \(ScenarioLocator.noScenarios)\n",
                status: .noInput)
        }
        var rows: [(String, String, String)] = []
        var errors = ""
        for name in names {
            switch loadScenario(name, locator) {
            case .success(let scenario):
                let fixes = scenario.fixes.map { fix in
                    fix.variant != nil ? "\(fix.name) (broken variant)" : fix.expectedFailure == nil ? fix.name : "\(fix.name) (fails, as expected)"
                }
                rows.append((name, scenario.title, fixes.joined(separator: ", ")))
            case .failure(let output):
                errors += output.stderr
            }
        }
        let nameWidth = max(4, rows.map { $0.0.count }.max() ?? 0) + 2
        let titleWidth = max(5, rows.map { $0.1.count }.max() ?? 0) + 2
        var out = "NAME".padded(nameWidth) + "TITLE".padded(titleWidth) + "FIXES\n"
        for row in rows { out += row.0.padded(nameWidth) + row.1.padded(titleWidth) + row.2 + "\n" }
        var exercises: [Exercise] = []
        var warnings = ""
        switch locator.exercises() {
        case .success(let found):
            exercises = found.exercises
            warnings = found.warnings
        case .failure(let failure):
            // A folder asked for by name must be there; the shipped one may be missing.
            if !locator.extraExercises.isEmpty { throw UsageError(failure.message, command: Self.spec) }
        }
        if !exercises.isEmpty {
            let idWidth = exercises.map { $0.id.count }.max()! + 2
            out += "\nEXERCISES (\(locator.exerciseFolderNames.joined(separator: ", ")); see docs/TEACHING.md)\n"
            for exercise in exercises {
                let kind = "\(exercise.kind.rawValue), \(exercise.level), \(exercise.points) points"
                out += exercise.id.padded(idWidth) + kind.padded(30) + exercise.title + "\n"
            }
        }
        return CommandOutput(stdout: out, stderr: errors + warnings, status: errors.isEmpty ? .success : .scriptError)
    }
}
