import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab verify NAME`: the broken version and every fix in one table.
struct VerifyCommand {
    var locator: ScenarioLocator
    var progress: (@Sendable (String) -> Void)?

    static let spec = CommandSpec(
        name: "verify",
        abstract: "The broken version and every fix side by side, each explored exhaustively.",
        usage: "racelab verify <name> [--reduction dpor|none] [--format text|json] [bounds]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [.textOrJSON] + ExploreCommand.boundOptions,
        discussion: """
        Exit status: 0 only if every fix is proven (and every fix marked as failing
        does fail), 1 otherwise, 2 if a bound cut a search, 64 usage error, 65 script error.
        """
    )

    func run(_ arguments: [String]) throws(UsageError) -> CommandOutput {
        let parsed = try Self.spec.parse(arguments)
        if parsed.wantsHelp { return CommandOutput(stdout: Self.spec.help) }
        let config = try ExploreCommand.config(parsed, Self.spec)
        let wantsJSON = try parsed.wantsJSON(Self.spec)
        let scenario: Scenario
        switch try loadOne(parsed, Self.spec, locator) {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        var rows: [[String]] = [["version", "interleavings", "executions", "failing", "outcomes", "races", "findings", "verdict"]]
        var exit = ExitCode.success
        var versions: [JSON] = []
        for fix in [nil] + scenario.fixes.map(\.name) {
            let program: Program
            do throws(ScriptError) {
                program = try scenario.program(fix: fix)
            } catch {
                return CommandOutput(stderr: error.rendered, exitCode: ExitCode.scriptError)
            }
            let result = Explorer(program: program, config: config).explore(progress: ProgressLine(sink: progress).callback)
            let declared = fix.flatMap { scenario.fix(named: $0) }
            let failing = result.outcomes.filter(\.outcome.isFailure).map(\.interleavings).reduce(0, +)
            let kinds = result.findingKinds.map(\.rawValue)
            var verdict: String
            if !result.isExhaustive && failing == 0 {
                verdict = "not exhaustive"
                exit = max(exit, ExitCode.notExhaustive)
            } else if fix == nil || declared?.variant != nil {
                verdict = failing > 0 ? "fails (broken)" : "passes, but it is the broken version"
            } else if declared?.expectedFailure != nil {
                verdict = failing > 0 ? "fails, as expected" : "passes, though marked as failing"
                if failing == 0 { exit = max(exit, ExitCode.finding) }
            } else {
                verdict = failing > 0 ? "FAILS" : "proven"
                if failing > 0 { exit = max(exit, ExitCode.finding) }
            }
            let name = fix == nil ? "broken" : declared?.variant != nil ? "\(fix!) (variant)" : fix!
            let role = fix == nil ? "broken" : declared?.variant != nil ? "variant" : declared?.expectedFailure != nil ? "expected to fail" : "fix"
            versions.append(.object([
                ("version", .string(fix ?? "broken")),
                ("role", .string(role)),
                ("interleavings", .int(result.interleavings)),
                ("interleavingsExact", .bool(result.interleavingsExact)),
                ("executions", .int(result.executions)),
                ("failingInterleavings", .int(failing)),
                ("outcomes", .int(result.outcomes.count)),
                ("dataRaces", .int(result.dataRaces.count)),
                ("findings", .array(kinds.map(JSON.string))),
                ("exhaustive", .bool(result.isExhaustive)),
                ("cut", result.cut.map(JSON.string) ?? .null),
                ("verdict", .string(verdict)),
            ]))
            rows.append([name, String(result.interleavings), String(result.executions), String(failing),
                         String(result.outcomes.count), String(result.dataRaces.count), kinds.isEmpty ? "-" : kinds.joined(separator: ", "), verdict])
        }
        if wantsJSON {
            let json = JSON.object([
                ("scenario", .string(scenario.name)), ("title", .string(scenario.title)),
                ("reduction", .string(config.reduction.rawValue)),
                // The exit status in words: every fix proven (and every fix marked as
                // failing fails), or a fix fails, or a bound cut a search.
                ("verdict", .string(exit == ExitCode.notExhaustive ? "not exhaustive" : exit != ExitCode.success ? "a fix fails"
                    : scenario.fixes.isEmpty ? "no fixes" : "fixes proven")),
                ("versions", .array(versions)),
            ])
            return CommandOutput(stdout: json.serialized() + "\n", exitCode: exit)
        }
        var out = "\(scenario.name): \(scenario.title)\n"
        out += "Every version explored (\(config.reduction == .dpor ? "DPOR" : "no reduction")); counts are interleavings.\n\n"
        out += table(rows)
        return CommandOutput(stdout: out, exitCode: exit)
    }

    func table(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                let fill = String(repeating: " ", count: widths[column] - cell.count)
                return (1...5).contains(column) ? fill + cell : cell + fill
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }
}
