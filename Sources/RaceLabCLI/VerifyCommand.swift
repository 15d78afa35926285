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
        options: [.textOrJSON, Spoilers.option, ScenarioLocator.exercisesOption] + ExploreCommand.boundOptions,
        discussion: """
            Exit status: 0 only if every fix is proven (and every fix marked as failing
            does fail), 1 otherwise, 2 if a bound cut a search, 64 usage error, 65 script error.
            """
    )

    func run(_ arguments: [String]) throws(UsageError) -> CommandOutput {
        let parsed = try Self.spec.parse(arguments)
        if parsed.wantsHelp { return CommandOutput(stdout: Self.spec.help) }
        let locator = self.locator.adding(exercises: parsed.values["exercises"])
        let config = try ExploreCommand.config(parsed, Self.spec).started()
        let wantsJSON = try parsed.wantsJSON(Self.spec)
        let scenario: Scenario
        switch try loadOne(parsed, Self.spec, locator) {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        // The outcome count and the findings of a predict-it exercise are its answer.
        if Spoilers.guarded(scenario, teacher: Spoilers.teacher(parsed, locator.environment)) == .predictIt {
            return Spoilers.refusal("verify", scenario, .predictIt)
        }
        var rows: [[String]] = [["version", "search", "interleavings", "executions", "failing", "outcomes", "races", "findings", "verdict"]]
        var statesCounted = false
        var exit = ExitCode.success
        var versions: [JSON] = []
        for fix in [nil] + scenario.fixes.map(\.name) {
            let program: Program
            do throws(ScriptError) {
                program = try scenario.program(fix: fix)
            } catch {
                return CommandOutput(stderr: error.rendered, exitCode: ExitCode.scriptError)
            }
            let explorer = Explorer(program: program, config: config)
            let line = ProgressLine(sink: progress).callback
            let result =
                try ExploreCommand.choosesSearch(parsed, Self.spec) ? explorer.exploreChoosing(progress: line).result : explorer.explore(progress: line)
            let role = scenario.role(of: fix)
            let failing = result.failingInterleavings
            let kinds = result.findingKinds.map(\.rawValue)
            let verdict = result.verdict(as: role)
            switch verdict {
            case .notExhaustive: exit = max(exit, ExitCode.notExhaustive)
            case .fails: exit = max(exit, ExitCode.finding)
            // The broken version passing is worth a look, but the fixes decide the exit code.
            case .passesUnexpectedly where role == .expectedToFail: exit = max(exit, ExitCode.finding)
            case .proven, .failsAsExpected, .passesUnexpectedly: break
            }
            let words = Self.words(verdict, role)
            let name = fix.map { role == .variant ? "\($0) (variant)" : $0 } ?? "broken"
            let counts =
                ExplorationJSON.fields("interleavings", result.interleavings) + [("executions", .int(result.executions))]
                + ExplorationJSON.fields("failingInterleavings", failing)
            versions.append(
                .object(
                    [
                        ("version", .string(fix ?? "broken")),
                        ("role", .string(role.rawValue)),
                    ] + counts + [
                        ("outcomes", .int(result.outcomes.count)),
                        ("dataRaces", .int(result.dataRaces.count)),
                        ("findings", .array(kinds.map(JSON.string))),
                        ("search", .string(result.search == .stateful ? "stateful" : "dpor")),
                        ("exhaustive", .bool(result.isExhaustive)),
                        ("cut", result.cut.map { .string("not exhaustive: \($0)") } ?? .null),
                        ("verdict", .string(words)),
                    ]))
            // Where runs go on forever the stateful search counts final states.
            let unit = result.countsInterleavings ? "" : " states"
            statesCounted = statesCounted || !result.countsInterleavings
            rows.append([
                name, result.search == .stateful ? "stateful" : "dpor", result.interleavings.description + unit, String(result.executions),
                failing.description + unit,
                String(result.outcomes.count), String(result.dataRaces.count), kinds.isEmpty ? "-" : kinds.joined(separator: ", "), words,
            ])
        }
        if wantsJSON {
            let json = JSON.object([
                ("scenario", .string(scenario.name)), ("title", .string(scenario.title)),
                ("reduction", .string(config.reduction.rawValue)),
                // The exit status in words: every fix proven (and every fix marked as
                // failing fails), or a fix fails, or a bound cut a search.
                (
                    "verdict",
                    .string(
                        exit == ExitCode.notExhaustive
                            ? "not exhaustive"
                            : exit != ExitCode.success
                                ? "a fix fails"
                                : scenario.fixes.isEmpty ? "no fixes" : "fixes proven")
                ),
                ("versions", .array(versions)),
            ])
            return CommandOutput(stdout: json.serialized() + "\n", exitCode: exit)
        }
        var out = "\(scenario.name): \(scenario.title)\n"
        out += "Every version explored (\(config.reduction == .dpor ? "DPOR" : "no reduction") or stateful, as the search column says); "
        out += statesCounted ? "counts are interleavings, or final states where runs can go on forever.\n\n" : "counts are interleavings.\n\n"
        out += table(rows)
        return CommandOutput(stdout: out, exitCode: exit)
    }

    /// A version's verdict in the table's words.
    static func words(_ verdict: Verdict, _ role: VersionRole) -> String {
        switch (verdict, role) {
        case (.notExhaustive, _): return "not exhaustive"
        case (.proven, _): return "proven"
        case (.fails, _): return "FAILS"
        case (.failsAsExpected, .expectedToFail): return "fails, as expected"
        case (.failsAsExpected, _): return "fails (broken)"
        case (.passesUnexpectedly, .expectedToFail): return "passes, though marked as failing"
        case (.passesUnexpectedly, _): return "passes, but it is the broken version"
        }
    }

    func table(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                let fill = String(repeating: " ", count: widths[column] - cell.count)
                return (2...6).contains(column) ? fill + cell : cell + fill
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }
}
