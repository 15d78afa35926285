import Testing

@testable import RaceLabCLI
@testable import RaceLabCommands

/// The subcommands come from one registry (`RaceLab.registry`, and the CLI's
/// `grade-worker`): each answers
/// `--help` and `help NAME` with its own help, the root help lists the listed ones in
/// its order, and a misspelt name is matched against them.
struct RegistryTests {
    let racelab = RaceLab(environment: [:])

    @Test(arguments: RaceLab(environment: [:]).entries.map(\.spec.name))
    func everyCommandAnswersHelp(name: String) throws {
        let entry = try #require(racelab.entry(name))
        let help = racelab.main([name, "--help"])
        #expect(help.exitCode == 0 && help.stderr.isEmpty)
        #expect(help.stdout == entry.spec.help)
        #expect(racelab.main([name, "-h"]) == help)
        #expect(help.stdout.hasPrefix("OVERVIEW: \(entry.spec.abstract)\n\nUSAGE: racelab \(name)"))
        let asked = racelab.main(["help", name])
        if entry.listed {
            #expect(asked == help)
        } else {
            #expect(asked.exitCode == 64, "an internal command is not offered by help")
        }
    }

    @Test func theRootHelpListsTheRegistryInOrder() {
        let root = racelab.main(["--help"]).stdout
        let listed = RaceLab.registry.filter(\.listed)
        let lines = listed.map { "  " + $0.spec.name + String(repeating: " ", count: 24 - $0.spec.name.count) + $0.spec.abstract }
        #expect(root.contains(lines.joined(separator: "\n") + "\n\n  See 'racelab help <subcommand>'"))
        #expect(!root.contains("grade-worker"))
        #expect(listed.map(\.spec.name) == ["list", "show", "run", "explore", "verify", "step", "export", "grade", "hint", "course", "new"])
    }

    @Test func aMisspeltCommandIsMatchedAgainstTheRegistry() {
        let output = racelab.main(["verfy", "deadlock"])
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("error: unknown subcommand 'verfy'. Did you mean 'verify'?\n"))
        #expect(racelab.main(["help", "hnt"]).stderr.hasPrefix("error: unknown subcommand 'hnt'. Did you mean 'hint'?\n"))
    }

    /// An exit status is a type; its numbers are the ones the root help promises.
    @Test func exitStatusesAreTheNumbersTheHelpPromises() {
        let codes: [ExitCode] = [.success, .finding, .notExhaustive, .usage, .scriptError, .noInput, .cannotCreate, .ioError, .interrupted]
        #expect(codes.map(\.rawValue) == [0, 1, 2, 64, 65, 66, 73, 74, 130])
        let help = racelab.main(["--help"]).stdout
        for phrase in ["0 no finding", "1 a finding", "2 not exhaustive", "64 usage error", "65 script error", "66 missing", "73 a report", "74 a write"] {
            #expect(help.contains(phrase), "\(phrase)")
        }
        // A failure outranks a cut, which outranks a proof; an error outranks them all.
        #expect(ExitCode.worse(.notExhaustive, .finding) == .finding)
        #expect(ExitCode.worse(.success, .notExhaustive) == .notExhaustive)
        #expect(ExitCode.worse(.finding, .scriptError) == .scriptError)
        #expect(CommandOutput(status: .usage).exitCode == 64)
    }

    /// An option that takes one of a few words refuses any other in one form, listing
    /// the words with a final "or", and suggests the closest.
    @Test func anOptionsWordsAreRefusedAlike() {
        let cases: [([String], String)] = [
            (["run", "singleton-race", "--format", "jsn"], "unknown format 'jsn'; use text or json. Did you mean 'json'?"),
            (["grade", "x.race", "--format", "csvv"], "unknown format 'csvv'; use text, json, junit, csv, gradescope or classroom. Did you mean 'csv'?"),
            (["export", "deadlock", "--format", "htm"], "unknown format 'htm'; use svg, mermaid, dot, html or playground. Did you mean 'html'?"),
            (["run", "singleton-race", "--strategy", "pcts"], "unknown strategy 'pcts'; use round-robin, random, pct or priority. Did you mean 'pct'?"),
            (["explore", "deadlock", "--search", "dpro"], "unknown search 'dpro'; use auto, dpor or stateful. Did you mean 'dpor'?"),
            (["new", "exercise", "x", "--kind", "brake"], "unknown kind 'brake'; use fix, break or predict. Did you mean 'break'?"),
        ]
        for (arguments, message) in cases {
            let output = racelab.main(arguments)
            #expect(output.exitCode == 64, "\(arguments)")
            #expect(output.stderr.hasPrefix("error: \(message)\n"), "\(arguments)")
        }
        #expect(ExportFormat.spellings == ["svg", "mermaid", "dot", "html", "playground"])
        #expect(ReductionChoice(rawValue: "none") == .everyInterleaving)
    }
}
