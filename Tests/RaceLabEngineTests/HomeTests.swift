import Foundation
import Testing

/// Each decision lives in one place (issue 30): these read the sources and fail when
/// one is made again somewhere else.
struct HomeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under `Sources` and `Tests`, by path from the package's root,
    /// with its text.
    static let files: [(path: String, text: String)] = {
        var files: [(String, String)] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") {
                let text = (try? String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)) ?? ""
                files.append(("\(folder)/\(path)", text))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }()

    /// The files other than `home` whose text contains `phrase`.
    static func strays(_ phrase: String, home: String) -> [String] {
        files.filter { $0.path != home && $0.path != "Tests/RaceLabEngineTests/HomeTests.swift" && $0.text.contains(phrase) }.map(\.path)
    }

    @Test func theSourcesAreFound() {
        #expect(Self.files.count > 100)
        #expect(Self.files.contains { $0.path == "Sources/RaceLabEngine/Program/Version.swift" })
    }

    /// A scenario's versions are `Scenario.versions`, made once where it is loaded.
    @Test func everyVersionIsListedWhereTheScenarioIsLoaded() {
        #expect(Self.strays("[nil] + ", home: "Sources/RaceLabEngine/Program/Scenario.swift") == [])
        #expect(Self.strays(".program(fix:", home: "") == [])
    }

    /// A version is named, a verdict and the search taken put in words, by `Words` alone.
    @Test func versionsAndVerdictsAreWordedInOnePlace() {
        let home = "Sources/RaceLabPresentation/Words.swift"
        let phrases = [
            "\"the broken version\"", "\"the broken variant '", " (variant)\"", "\"proven: every interleaving passes", "\"FAILS: some interleavings",
            "so this is not a proof.\"", "\"fails, as expected\"", "\"fails (broken)\"", "\"passes, though marked as failing\"",
            "\"fails in its one interleaving\"", "\"fails in \\(result.failingInterleavings) of", "\"stateful search\" :", "? \"stateful\" : \"dpor\"",
            "it finished first (", "whose spurious wakeups DPOR", "so the program may never end",
        ]
        for phrase in phrases {
            #expect(Self.strays(phrase, home: home).filter { $0.hasPrefix("Sources") } == [], "\(phrase)")
        }
    }

    /// The subcommands are `RaceLab.registry`: no other list of them, no dispatch by name.
    @Test func theSubcommandsAreListedInTheRegistryAlone() {
        #expect(Self.strays("\"list\", \"show\", \"run\"", home: "Tests/RaceLabCLITests/RegistryTests.swift") == [])
        #expect(Self.strays("case \"explore\":", home: "") == [])
        #expect(Self.strays("case \"verify\":", home: "") == [])
    }

    /// A command's numbers are read and refused by `ParsedArguments.number` and `.seed`.
    @Test func numbersAreReadInOnePlace() {
        #expect(Self.strays("takes a whole number from", home: "Sources/RaceLabCommands/CommandSpec.swift").filter { $0.hasPrefix("Sources") } == [])
    }

    /// A command's prologue (parsing, `--help`, the `--exercises` folders, the spoiler
    /// guard, loading the scenario it names) is `CommandContext`'s alone.
    @Test func theCommandPrologueIsTheContexts() {
        let home = "Sources/RaceLabCommands/CommandRegistry.swift"
        for phrase in ["adding(exercises:", "Spoilers.teacher(", "Spoilers.guarded(", "if parsed.wantsHelp", "missing scenario name"] {
            #expect(Self.strays(phrase, home: home).filter { $0.hasPrefix("Sources") } == [], "\(phrase)")
        }
    }

    /// An option that takes one of a few words is an `OptionValue`, read and refused
    /// by `ParsedArguments.value`.
    @Test func optionWordsAreReadInOnePlace() {
        let home = "Sources/RaceLabCommands/OptionValue.swift"
        #expect(Self.strays("'; use ", home: home).filter { $0.hasPrefix("Sources") } == [])
        for option in ["format", "strategy", "search", "reduction", "kind"] {
            #expect(Self.strays("values[\"\(option)\"]", home: home).filter { $0.hasPrefix("Sources/RaceLabCLI") } == [], "\(option)")
        }
    }

    /// A schedule is a `Schedule`, written by `Schedule.text` alone; a replay line by
    /// `ReplayCommand` alone.
    @Test func aScheduleIsWrittenInOnePlace() {
        for phrase in ["schedule.joined(", "scheduleNames.joined(", "prefix.joined(", "cycle.joined(", "var scheduleText"] {
            #expect(Self.strays(phrase, home: "").filter { $0.hasPrefix("Sources") } == [], "\(phrase)")
        }
        #expect(Self.strays("--schedule \\\"", home: "Sources/RaceLabPresentation/ReplayCommand.swift").filter { $0.hasPrefix("Sources") } == [])
    }

    /// "1 step", "3 steps": a count of something is `Words.count` outside the engine
    /// (whose events and diagnostics say their own).
    @Test func pluralsAreWordedInOnePlace() {
        for folder in ["Sources/RaceLabCLI", "Sources/RaceLabPresentation", "Sources/RaceLabGrading"] {
            #expect(Self.strays(" == 1 ? \"\" : \"s\")", home: "").filter { $0.hasPrefix(folder) } == [], "\(folder)")
        }
    }

    /// The renderers of a version's report read its `Analysis` (built by the engine)
    /// and run nothing: no search, no run, no engine of their own.
    @Test func renderersRunNothing() {
        let renderers = [
            "ExplorationRenderer", "VerifyTable", "LessonPage", "LessonPage+HTML", "ExplorationJSON", "Words", "SVGTimeline", "SVGTimeline+Actors", "DOTGraph",
            "MermaidSequence", "ActorLane",
        ].map {
            "Sources/RaceLabPresentation/\($0).swift"
        }
        for file in Self.files where renderers.contains(file.path) {
            for call in ["Explorer(", "Engine(", "Runner(", "StateSpace.explore", ".explore("] {
                #expect(!file.text.contains(call), "\(file.path) calls \(call)")
            }
        }
        #expect(Self.files.filter { renderers.contains($0.path) }.count == renderers.count)
    }

    /// Who holds an actor and who waits in its mailbox is read by `ActorLane.standing`
    /// alone: the timeline's lanes, the lesson page's and step mode's shared state ask it.
    @Test func actorsAreReadInOnePlace() {
        let home = "Sources/RaceLabPresentation/ActorLane.swift"
        for phrase in ["case .actor(let mailbox)", "case .actor(mailbox: let"] {
            let readers = Self.strays(phrase, home: home).filter { $0.hasPrefix("Sources/RaceLabPresentation") || $0.hasPrefix("Sources/RaceLabCLI") }
            #expect(readers == [], "\(phrase)")
        }
    }

    /// The words catalogue keeps its entries sorted by name, so a newcomer finds one,
    /// and sees where a new one goes.
    @Test func theWordsCatalogueIsSorted() throws {
        let text = try #require(Self.files.first { $0.path == "Sources/RaceLabPresentation/Words.swift" }).text
        let names = text.components(separatedBy: "public static func ").dropFirst().map { String($0.prefix { $0 != "(" }) }
        #expect(names.count >= 14)
        #expect(names == names.sorted())
    }

    /// How a world ended is `Engine.conclude`'s to say (the runner, the searches and the
    /// state space ask it); the searches' thread cap is `Engine.threadCap`; the walk over
    /// distinct states (encoding, storing, order) is `ReachableStates`'s.
    @Test func oneEndingOneCapOneWalker() {
        let waits = "Sources/RaceLabEngine/Engine/Engine+Waits.swift"
        #expect(Self.strays("evaluateExpectations(world)", home: waits).filter { $0.hasPrefix("Sources") } == [])
        #expect(Self.strays("if let finding = deadlock(world)", home: waits).filter { $0.hasPrefix("Sources") } == [])
        for literal in ["threadLimit(64)", "threads.count > 64", "threads.count <= 64"] {
            #expect(Self.strays(literal, home: "").filter { $0.hasPrefix("Sources") } == [], "\(literal)")
        }
        let walker = "Sources/RaceLabEngine/Explore/Stateful/ReachableStates.swift"
        for phrase in ["store.insert(encoder", "StateEncoder(program:"] {
            // Step mode compares the worlds of its one path (a loop gone round), walking nothing.
            let others = Self.strays(phrase, home: walker).filter { $0.hasPrefix("Sources") && $0 != "Sources/RaceLabEngine/Run/StepSession.swift" }
            #expect(others == [], "\(phrase)")
        }
    }

    /// The shipped scenarios and exercises are found on disk by `Shipped` (the test
    /// support target): no test lists them, or reads their folder, by itself.
    @Test func theShippedScenariosAreListedInOnePlace() {
        let home = "Tests/RaceLabTestSupport/Shipped.swift"
        for phrase in ["\"singleton-race\", \"array-mutation\"", "\"lost-update\", \"atomic-property\"", "appendingPathComponent(\"Scenarios"] {
            #expect(Self.strays(phrase, home: home).filter { $0.hasPrefix("Tests") } == [], "\(phrase)")
        }
        // Two read fixtures of their own: the textbook corpus and the seed probes.
        let fixtureReaders = ["TextbookTests.swift", "SeedProbeTests.swift"]
        #expect(
            Self.strays("contentsOfDirectory(atPath:", home: home).filter { path in
                !fixtureReaders.contains { path.hasSuffix($0) } && path.hasPrefix("Tests")
            } == [])
    }

    /// The engine and the language build without Foundation (for a browser build).
    @Test func theEngineNeedsNoFoundation() {
        let portable = Self.files.filter { $0.path.hasPrefix("Sources/RaceLabEngine/") || $0.path.hasPrefix("Sources/RaceLabLanguage/") }
        #expect(portable.count > 50)
        #expect(portable.filter { $0.text.contains("import Foundation") }.map(\.path) == [])
    }

    /// The commands and the grader explore through `Analysis.of` (or `Lesson.of`): one
    /// way to build a report. Step mode asks the explorer only why the reader's own run
    /// failed (`decisivePair`).
    @Test func reportsAreBuiltByAnalysis() {
        let users = ["Sources/RaceLabCLI", "Sources/RaceLabGrading", "Sources/RaceLabPresentation"]
        let strays = Self.strays("Explorer(program:", home: "Sources/RaceLabCommands/StepController+Ending.swift")
        #expect(strays.filter { path in users.contains { path.hasPrefix($0) } } == [])
    }
}
