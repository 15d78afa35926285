import Foundation
import RaceLabCLI
import Testing

struct CLITests {
    let racelab = RaceLab(environment: [:])

    @Test func nearMissOptionGetsASuggestionAndExit64() {
        let output = racelab.main(["run", "singleton-race", "--sed", "3"])
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("error: unknown option '--sed'. Did you mean '--seed'?\n"))
    }

    @Test func unknownScenarioAndFix() {
        #expect(racelab.main(["run", "singelton-race"]).stderr == "error: unknown scenario 'singelton-race'. Did you mean 'singleton-race'? (see 'racelab list')\n")
        let fix = racelab.main(["run", "singleton-race", "--fix", "mutx"])
        #expect(fix.exitCode == 64)
        #expect(fix.stderr.contains("has no fix 'mutx'. Did you mean 'mutex'?"))
    }

    @Test func storyFailsAndMutexPasses() {
        let story = racelab.main(["run", "singleton-race", "--schedule", "story"])
        #expect(story.exitCode == 1)
        #expect(story.stdout.contains("   6  B         24  B writes singleton = MySingle#2"))
        let mutex = racelab.main(["run", "singleton-race", "--fix", "mutex", "--schedule", "story"])
        #expect(mutex.exitCode == 0)
        #expect(mutex.stdout.contains("B blocks on token, held by A"))
        #expect(mutex.stdout.contains("objects: MySingle#1 (retain count 3)\n"))
    }

    /// `verify --format json` is the table as data: it parses, has a row per version
    /// with the text table's numbers, and exits as the text does.
    @Test(arguments: ["singleton-race", "array-mutation", "stale-results", "dealloc-wrong-thread", "deadlock"])
    func verifyJSONMatchesTheTable(_ name: String) throws {
        let text = racelab.main(["verify", name])
        let json = racelab.main(["verify", name, "--format", "json"])
        #expect(json.exitCode == text.exitCode)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let versions = try #require(object["versions"] as? [[String: Any]])
        let rows = text.stdout.split(separator: "\n").drop { !$0.hasPrefix("version") }.dropFirst()
        #expect(versions.count == rows.count)
        for (version, row) in zip(versions, rows) {
            #expect(row.hasPrefix(version["version"] as? String ?? "?"))
            // The first five whole numbers of a row: interleavings, executions, failing, outcomes, races.
            let numbers = row.split(separator: " ").compactMap { Int($0) }.prefix(5)
            let keys = ["interleavings", "executions", "failingInterleavings", "outcomes", "dataRaces"]
            #expect(Array(numbers) == keys.map { version[$0] as? Int ?? -1 }, "\(name) \(row)")
            #expect(row.hasSuffix(version["verdict"] as? String ?? "?"))
        }
        #expect(object["verdict"] as? String == (text.exitCode == 0 ? "fixes proven" : "a fix fails"))
    }

    @Test func sameInputSameOutput() {
        #expect(racelab.main(["run", "stale-results", "--seed", "9", "--format", "json"])
            == racelab.main(["run", "stale-results", "--seed", "9", "--format", "json"]))
    }

    @Test func helpTopicAndHelpFlagAgree() {
        for command in ["list", "show", "run"] {
            let topic = racelab.main(["help", command])
            #expect(topic == racelab.main([command, "--help"]))
            #expect(topic == racelab.main([command, "-h"]))
            #expect(topic.stdout.hasPrefix("OVERVIEW: "))
            #expect(topic.exitCode == 0)
        }
    }

    @Test func listShowsFiveScenariosThenTheExercises() {
        let sections = racelab.main(["list"]).stdout.components(separatedBy: "\n\n")
        #expect(sections.count == 2)
        #expect(sections[0].split(separator: "\n").count == 6)
        #expect(sections[1].hasPrefix("EXERCISES"))
        #expect(sections[1].split(separator: "\n").count == 12)
    }
}

/// Counts past Int.max saturate in every command: no trap, and the report says "more than".
struct HugeCountTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/huge-count.race").path

    @Test func exploreVerifyAndJSONSaturate() throws {
        let explore = racelab.main(["explore", Self.fixture])
        #expect(explore.exitCode == 1)
        #expect(explore.stdout.contains("  FAIL more than 9,223,372,036,854,775,807    n/a  x = 2  (breaks: x is three)\n"))
        #expect(explore.stdout.contains("standing for more than 9,223,372,036,854,775,807 interleavings"))
        #expect(explore.stdout.contains("[FAILS in more than 9,223,372,036,854,775,807 of more than 9,223,372,036,854,775,807 interleavings] x is three"))
        let verify = racelab.main(["verify", Self.fixture])
        #expect(verify.exitCode == 0)
        #expect(verify.stdout.contains("fails (broken)"))
        let json = racelab.main(["verify", Self.fixture, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let version = try #require((object["versions"] as? [[String: Any]])?.first)
        #expect(version["failingInterleavings"] as? Int == Int.max)
        #expect(version["failingInterleavingsExact"] as? Bool == false)
        #expect(racelab.main(["explore", Self.fixture, "--format", "json"]).exitCode == 1)
    }
}

/// A script's control characters never reach the terminal: every command's output
/// (and every report format) shows them escaped.
struct TerminalSafetyTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/escapes.race").path

    static func isSafe(_ text: String) -> Bool {
        !text.unicodeScalars.enumerated().contains { index, c in
            let scalars = Array(text.unicodeScalars)
            if c == "\r" { return index + 1 >= scalars.count || scalars[index + 1] != "\n" }
            return c != "\n" && c != "\t" && (c.value < 0x20 || (0x7F...0x9F).contains(c.value) || c == "\u{202E}")
        }
    }

    @Test(arguments: [
        ["run", fixture, "--schedule", "A A B B"], ["run", fixture, "--schedule", "A A B B", "--format", "json"],
        ["explore", fixture], ["explore", fixture, "--format", "json"], ["verify", fixture], ["show", fixture],
        ["run", fixture, "--schedule", "A A B B B B B"],
    ])
    func everyOutputIsSafeForATerminal(_ arguments: [String]) {
        let output = racelab.main(arguments)
        #expect(Self.isSafe(output.stdout), "\(arguments)")
        #expect(Self.isSafe(output.stderr), "\(arguments)")
        #expect(!(output.stdout + output.stderr).isEmpty)
    }

    @Test func theEscapesAreShownNotDropped() {
        let run = racelab.main(["run", Self.fixture, "--schedule", "A A B B"])
        #expect(run.stdout.contains("Escapes \\u{1B}[2J\\u{1B}[H in the title\\u{8}\\u{8}OVERWRITTEN"), "\(run.stdout)")
        #expect(run.stdout.contains(#"prints "\u{1B}[31mred\u{7}\u{8}""#), "\(run.stdout)")
        let json = racelab.main(["explore", Self.fixture, "--format", "json"])
        #expect(json.stdout.contains(#"x is \u001b[1Aone\u202e"#), "\(json.stdout)")
    }
}
