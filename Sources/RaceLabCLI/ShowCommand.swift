import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab show NAME`: the story, the broken code, and each fix as a diff.
struct ShowCommand: Command {
    var locator: ScenarioLocator

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show a scenario's story, its code, and each fix as a diff.",
        usage: "racelab show <name> [--exercises <folder>]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [ScenarioLocator.exercisesOption]
    )

    func run(_ parsed: ParsedArguments) throws(UsageError) -> CommandOutput {
        let locator = self.locator.adding(exercises: parsed.values["exercises"])
        guard parsed.positionals.count == 1 else {
            throw UsageError(parsed.positionals.isEmpty ? "missing scenario name" : "expected one scenario name", command: Self.spec)
        }
        let scenario: Scenario
        switch loadScenario(parsed.positionals[0], locator) {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        return CommandOutput(stdout: ScenarioOverview.render(scenario))
    }
}
