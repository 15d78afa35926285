import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab show NAME`: the story, the broken code, and each fix as a diff.
struct ShowCommand: Command {

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show a scenario's story, its code, and each fix as a diff.",
        usage: "racelab show <name> [--exercises <folder>]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [ScenarioLocator.exercisesOption]
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let scenario: Scenario
        switch try context.scenario() {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        return CommandOutput(stdout: ScenarioOverview.render(scenario))
    }
}
