import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// `racelab verify NAME`: the broken version and every fix in one table.
struct VerifyCommand: Command {
    var progress: (@Sendable (String) -> Void)?

    static let spec = CommandSpec(
        name: "verify",
        abstract: "The broken version and every fix side by side, each explored exhaustively.",
        usage: "racelab verify <name> [--reduction dpor|none] [--format \(TextOrJSON.usage)] [bounds]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [.textOrJSON, Spoilers.option, ScenarioLocator.exercisesOption] + ExploreCommand.boundOptions,
        discussion: """
            Exit status: 0 only if every fix is proven (and every fix marked as failing
            does fail), 1 otherwise, 2 if a bound cut a search, 64 usage error, 65 script error.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let config = try ExploreCommand.config(parsed, Self.spec).started()
        let wantsJSON = try parsed.wantsJSON(Self.spec)
        let scenario: Scenario
        switch try context.scenario() {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        // The outcome count and the findings of a predict-it exercise are its answer.
        if let held = context.guarded(scenario, scenario.versions), held.kind == .predictIt {
            return Spoilers.refusal("verify", scenario, as: parsed.positionals[0], held)
        }
        var exit = ExitCode.success
        var versions: [VerifyTable.Row] = []
        for version in scenario.versions {
            let analysis = Analysis.of(version.program, config: config, needs: .init(counterexample: false), progress: ProgressLine(sink: progress).callback)
            let result = analysis.exploration
            let role = version.role
            switch result.verdict(as: role) {
            case .notExhaustive: exit = ExitCode.worse(exit, ExitCode.notExhaustive)
            case .fails: exit = ExitCode.worse(exit, ExitCode.finding)
            // The broken version passing is worth a look, but the fixes decide the exit code.
            case .passesUnexpectedly where role == .expectedToFail: exit = ExitCode.worse(exit, ExitCode.finding)
            case .proven, .failsAsExpected, .passesUnexpectedly: break
            }
            versions.append(VerifyTable.Row(version: version, result: result))
        }
        let report = VerifyTable(scenario: scenario, reduction: config.reduction, versions: versions)
        if wantsJSON {
            // The exit status in words: every fix proven (and every fix marked as
            // failing fails), or a fix fails, or a bound cut a search.
            let verdict =
                exit == ExitCode.notExhaustive
                ? "not exhaustive" : exit != ExitCode.success ? "a fix fails" : scenario.fixes.isEmpty ? "no fixes" : "fixes proven"
            return CommandOutput(stdout: report.json(verdict: verdict), status: exit)
        }
        return CommandOutput(stdout: report.text(), status: exit)
    }
}
