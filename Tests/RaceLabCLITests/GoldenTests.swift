import Foundation
import RaceLabCLI
import RaceLabTestSupport
import Testing

/// Whole outputs of `racelab` compared with files under `Golden/`. After an intended
/// change of output, re-record them with `RACELAB_RECORD=1 swift test --filter Golden`
/// and read the diff before committing.
struct GoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["RACELAB_RECORD"] == "1"

    static let scenarios = Shipped.canonical
    static let variants = ["array-mutation": ["forIn"], "deadlock": ["mainSync"]]

    /// Every scenario, broken and with each fix and variant, under its story.
    static let stories: [[String]] = scenarios.flatMap { name in
        [["run", name, "--schedule", "story"]]
            + (["confinement", "mutex", "operations"] + (variants[name] ?? [])).map { ["run", name, "--fix", $0, "--schedule", "story"] }
    }

    static let screens: [[String]] =
        [
            [], ["--help"], ["help", "list"], ["help", "show"], ["help", "run"], ["run", "--help"], ["--version"],
            ["list"],
            ["run", "singleton-race", "--schedule", "story", "--format", "json"],
            ["run", "deadlock", "--seed", "3"],
            ["run", "stale-results", "--fix", "operations", "--strategy", "pct", "--seed", "7"],
            ["run", "singleton-race", "--strategy", "round-robin"],
            // Wrong input: each gets a clear message and its exit code.
            ["runn"], ["run"], ["run", "singleton-race", "--schedul", "story"], ["run", "singleton-race", "--fix", "mutx"],
            ["run", "singleton-race", "--schedule", "A A Q"], ["run", "singleton-race", "--schedule", "main"],
            ["run", "singleton-race", "--strategy", "fastest"], ["run", "singleton-race", "--seed", "x"],
            ["run", "singleton-race", "--format", "xml"], ["run", "singleton-race", "--max-steps", "0"],
            ["run", "singleton-race", "--schedule", "story", "--seed", "1"], ["show"], ["help", "explode"],
            ["run", "no/such/file.race"],
            // Pictures: one scenario in each format, and the counterexample with its arrow.
            ["help", "export"], ["export", "deadlock", "--format", "svg"], ["export", "deadlock", "--format", "mermaid"],
            ["export", "deadlock", "--format", "dot"], ["export", "singleton-race", "--counterexample", "--format", "svg"],
            ["export", "deadlock", "--fix", "mutex", "--format", "dot"], ["export", "deadlock", "--format", "png"],
            ["export", "deadlock", "--schedule", "A*6 B*6", "--format", "dot"], ["export", "deadlock", "--format", "html"],
            // An actor program: a lane per actor, who holds it and who waits in its mailbox.
            ["export", "actor-reentrancy", "--format", "svg"],
            // A run's final state shows an actor's state beside the shared variables.
            ["run", "cross-actor-update", "--schedule", "story"],
            // Exploration.
            ["help", "explore"], ["help", "verify"],
            ["explore", "singleton-race", "--reduction", "none"], ["explore", "singleton-race", "--fix", "mutex"],
            ["explore", "deadlock", "--all-fixes"], ["explore", "stale-results", "--fix", "mutex"],
            ["explore", "singleton-race", "--reduction", "partial"], ["explore", "singleton-race", "--max-executions", "0"],
            ["explore", "singleton-race", "--max-steps", "-5"], ["explore", "singleton-race", "--preemption-bound", "99999999999999999999"],
            ["explore", "singleton-race", "--fix", "mutex", "--all-fixes"], ["explore", "singleton-race", "--fix", "mutx"],
            ["explore", "singleton-race", "--max-executions", "3"], ["explore", "singleton-race", "--fix", "mutex", "--preemption-bound", "0"],
            ["explore", "Tests/RaceLabCLITests/Fixtures/explode.race", "--max-executions", "500"],
            ["verify", "Tests/RaceLabCLITests/Fixtures/explode.race", "--max-executions", "200"],
            ["explore", "singleton-race", "--format", "json"], ["explore", "deadlock", "--all-fixes", "--format", "json"],
            ["explore", "singleton-race", "--format", "yaml"], ["help", "step"], ["help", "grade"], ["help", "hint"],
            ["verify", "deadlock", "--format", "json"], ["verify", "stale-results", "--format", "json"],
            ["verify", "Tests/RaceLabCLITests/Fixtures/explode.race", "--max-executions", "200", "--format", "json"],
            ["verify", "deadlock", "--format", "xml"],
        ] + scenarios.map { ["explore", $0] }
        // Every shipped scenario, found in its folder: a new one gets its golden files.
        + Shipped.scenarioNames.flatMap { [["show", $0], ["verify", $0]] }

    @Test(arguments: stories + screens)
    func output(arguments: [String]) throws {
        let output = RaceLab(environment: [:]).main(arguments)
        var text = "$ racelab " + arguments.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: " ") + "\n"
        text += output.stdout
        if !output.stderr.isEmpty { text += "[stderr]\n" + output.stderr }
        text += "[exit \(output.exitCode)]\n"
        let name = (arguments.isEmpty ? ["no-arguments"] : arguments)
            .map { String($0.split(separator: "/").last ?? "").replacingOccurrences(of: ".race", with: "") }
            .map { String($0.drop { $0 == "-" }.filter { $0.isLetter || $0.isNumber || $0 == "-" }) }
            .filter { !$0.isEmpty }.joined(separator: "_")
        try Self.compare(text, toFile: name)
    }

    /// Checks `text` against `Golden/<name>.txt`, or writes it there when recording.
    static func compare(_ text: String, toFile name: String) throws {
        let file = folder.appendingPathComponent(name + ".txt")
        if recording {
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOf: file, encoding: .utf8)
        guard let expected else {
            Issue.record("no golden file \(file.lastPathComponent); record it with RACELAB_RECORD=1 swift test --filter Golden")
            return
        }
        if expected != text { Issue.record(Comment(rawValue: firstDifference(expected: expected, actual: text, file: file.lastPathComponent))) }
    }

    /// The first line that differs, with its neighbours, so a failure reads like a diff.
    static func firstDifference(expected: String, actual: String, file: String) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        var out = "\(file) differs at line \(line + 1):\n"
        for index in max(0, line - 2)..<min(max(a.count, b.count), line + 3) {
            let old = index < a.count ? String(a[index]) : "<end>"
            let new = index < b.count ? String(b[index]) : "<end>"
            out += old == new ? "    \(old)\n" : "  - \(old)\n  + \(new)\n"
        }
        return out
    }
}
