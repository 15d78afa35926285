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
