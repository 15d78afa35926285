import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab show NAME`: the story, the broken code, and each fix as a diff.
struct ShowCommand: Command {

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show a scenario's story, its code, and each fix as a diff.",
        usage: "racelab show <name> [--format \(TextOrJSON.usage)] [--exercises <folder>]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [.textOrJSON, ScenarioLocator.exercisesOption],
        discussion: """
            With --format json: the scenario's name, title and versions (null for the
            broken one, then each fix's name), for a program that offers them.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let scenario: Scenario
        switch try context.scenario() {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        if try context.parsed.wantsJSON(Self.spec) {
            let versions = scenario.versions.map { $0.fix.map(JSON.string) ?? .null }
            let json = JSON.object([("scenario", .string(scenario.name)), ("title", .string(scenario.title)), ("versions", .array(versions))])
            return CommandOutput(stdout: json.serialized() + "\n")
        }
        return CommandOutput(stdout: ScenarioOverview.render(scenario))
    }
}
