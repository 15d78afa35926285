import Foundation
import RaceLabCLI
import RaceLabEngine
import RaceLabTestSupport
import Testing

struct CLITests {
    let racelab = RaceLab(environment: [:])

    @Test func nearMissOptionGetsASuggestionAndExit64() {
        let output = racelab.main(["run", "singleton-race", "--sed", "3"])
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("error: unknown option '--sed'. Did you mean '--seed'?\n"))
    }

    @Test func unknownScenarioAndFix() {
        #expect(
            racelab.main(["run", "singelton-race"]).stderr == "error: unknown scenario 'singelton-race'. Did you mean 'singleton-race'? (see 'racelab list')\n")
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
    @Test(arguments: Shipped.scenarioNames)
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
        #expect(
            racelab.main(["run", "stale-results", "--seed", "9", "--format", "json"])
                == racelab.main(["run", "stale-results", "--seed", "9", "--format", "json"]))
    }

    @Test func listShowsTheScenariosThenTheExercises() {
        let sections = racelab.main(["list"]).stdout.components(separatedBy: "\n\n")
        #expect(sections.count == 2)
        #expect(sections[0].split(separator: "\n").count == Shipped.scenarioNames.count + 1)
        #expect(sections[1].hasPrefix("EXERCISES"))
        #expect(sections[1].split(separator: "\n").count == Shipped.exerciseNames.count + 1)
    }
}

/// Counts past Int.max saturate in every command: no trap, and the report says "more than".
struct HugeCountTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/huge-count.race").path

    @Test(.exhaustive) func exploreVerifyAndJSONSaturate() throws {
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

/// Each way a file can fail to read or write has its own message and sysexits code.
struct FileErrorTests {
    let racelab = RaceLab(environment: [:])

    /// A fresh folder holding a directory, a loop of links, a dangling link and a binary file.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "racelab-files-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: path + "/dir.race", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: path + "/loop1.race", withDestinationPath: "loop2.race")
        try manager.createSymbolicLink(atPath: path + "/loop2.race", withDestinationPath: "loop1.race")
        try manager.createSymbolicLink(atPath: path + "/dangling.race", withDestinationPath: "nowhere.race")
        try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: path + "/binary.race"))
        return path
    }

    @Test func everyUnreadableInputHasItsOwnMessageAndCode() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(String, String, Int32)] = [
            ("missing.race", "error: no such file: \(dir)/missing.race\n", 66),
            ("dir.race", "error: \(dir)/dir.race is a directory, not a scenario file\n", 66),
            ("loop1.race", "error: \(dir)/loop1.race is a loop of symbolic links\n", 66),
            ("dangling.race", "error: \(dir)/dangling.race is a symbolic link to a file that does not exist\n", 66),
            ("binary.race", "error: \(dir)/binary.race is not UTF-8 text\n", 65),
        ]
        for (name, message, code) in cases {
            for command in ["run", "explore", "show"] {
                let output = racelab.main([command, dir + "/" + name])
                #expect(output.stderr == message, "\(command) \(name)")
                #expect(output.exitCode == code, "\(command) \(name)")
            }
        }
        #expect(racelab.main(["run", "/dev/zero"]).stderr == "error: /dev/zero is larger than 4 MiB: not a scenario script\n")
    }

    @Test func gradeGivesEachUnreadableFileItsOwnRow() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = [dir + "/loop1.race", dir + "/dangling.race", dir + "/binary.race", dir + "/missing.race"]
        let output = racelab.main(["grade"] + files)
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("4 rows: 0 passed, 0 failed, 4 error"))
        let csv = racelab.main(["grade"] + files + ["--format", "csv"]).stdout
        #expect(csv.contains("loop1.race is a loop of symbolic links"))
        #expect(csv.contains("dangling.race is a symbolic link to a file that does not exist"))
        #expect(csv.contains("binary.race is not UTF-8 text"))
        #expect(csv.contains("no such file: \(dir)/missing.race"))
    }

    @Test func reportsThatWouldCollideOrCannotBeWrittenAreRefused() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let same = racelab.main(["grade", dir + "/binary.race", "--csv", dir + "/r.csv", "--junit", dir + "/./r.csv"])
        #expect(same.exitCode == 64)
        #expect(same.stderr.hasPrefix("error: --csv and --junit name the same file, \(dir)/./r.csv: give each report its own\n"))
        let over = racelab.main(["grade", dir + "/binary.race", "--json", dir + "/binary.race"])
        #expect(over.exitCode == 64)
        #expect(over.stderr.hasPrefix("error: --json \(dir)/binary.race would overwrite a file being graded\n"))
        let nowhere = racelab.main(["grade", dir + "/binary.race", "--csv", dir + "/no/such/folder/r.csv"])
        #expect(nowhere.exitCode == 73)
        #expect(nowhere.stderr == "error: cannot create \(dir)/no/such/folder/r.csv: no such file or directory\n")
    }

    @Test func aFailedWriteIsReported() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(RaceLab.write("text", to: ends[1]) == "broken pipe")
        #expect(RaceLab.write("", to: ends[1]) == nil)
    }
}

/// A bounded search over a thread that never stops: the failure is found, the cut
/// executions say "cut", and the counterexample is the short one.
struct CutSearchTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/endless.race").path

    @Test func theReportShowsTheFailureAndLabelsCutExecutions() {
        let output = racelab.main(["explore", Self.fixture, "--max-steps", "12", "--search", "dpor"])
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("Search: not exhaustive: an execution reached the step bound (12 steps)\n"))
        #expect(output.stdout.contains("  cut "))
        #expect(!output.stdout.contains("  ok "))
        #expect(output.stdout.contains("Simplest counterexample: 2 preemptions, 4 steps\n"))
        #expect(output.stdout.contains("Replay: racelab run \(Self.fixture) --schedule \"B A B B\"\n"))
        #expect(output.stdout.contains("Verdict: FAILS: some interleavings break it.\n"))
    }

    /// Left to choose, explore sees the step bound cut an execution and takes the
    /// stateful search, which is exhaustive: the failure, and no livelock (A's endless
    /// loop completes its rounds).
    @Test func theChosenSearchIsStatefulAndExhaustive() {
        let output = racelab.main(["explore", Self.fixture, "--max-steps", "12"])
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("Search chosen: stateful search: an execution reached the step bound (12 steps)"))
        #expect(output.stdout.contains("States: 7 distinct worlds, 10 steps between them; every state is within 4 steps of the start\n"))
        #expect(output.stdout.contains("Search: exhaustive\n"))
        #expect(output.stdout.contains("  FAIL         1 100.0%  x = 0  (crashed; assertion failed)\n"))
        // A's loop goes round for ever, but each round is progress: no livelock.
        #expect(!output.stdout.contains("Livelock"))
    }

    @Test func theStateBudgetIsReportedWithExitTwo() {
        let output = racelab.main(["explore", Self.fixture, "--search", "stateful", "--max-states", "3"])
        #expect(output.exitCode == 2)
        #expect(output.stdout.contains("Search: not exhaustive: stopped after 3 states (the state budget; --max-states raises it)\n"))
        #expect(output.stdout.contains("Verdict: no failure found, but the search was cut, so this is not a proof.\n"))
    }

    /// With sleep sets the failure is found, but A's endless loop makes a cycle they
    /// cannot judge: the report says livelock was not checked.
    @Test func sleepSetsSayWhatTheyLeaveUnchecked() {
        let output = racelab.main(["explore", Self.fixture, "--reduction", "sleep-sets"])
        #expect(output.exitCode == 1)
        #expect(
            output.stdout.contains(
                "Reduction: sleep sets (a step that another order of the same steps already covers is not taken again; a block on a held lock goes with the step before it)\n"
            ))
        #expect(output.stdout.contains("Final states: 1; the counts below are final states (sleep sets skip steps, so paths are not counted)\n"))
        #expect(
            output.stdout.contains(
                "Livelock\n  not checked: the graph has a cycle, and sleep sets skip steps a fair cycle needs (search without --reduction)\n"))
        #expect(
            output.stdout.contains(
                "Counterexample: 2 preemptions, 4 steps (the shortest in the graph sleep sets left; one taking steps they skipped may be shorter)\n"))
    }

    @Test func sleepSetsGoWithTheStatefulSearchOnly() {
        let dpor = racelab.main(["explore", Self.fixture, "--search", "dpor", "--reduction", "sleep-sets"])
        #expect(dpor.exitCode == 64)
        #expect(dpor.stderr.contains("error: --reduction sleep-sets is for the stateful search, not --search dpor\n"))
        let stateful = racelab.main(["explore", Self.fixture, "--search", "stateful", "--reduction", "dpor"])
        #expect(stateful.exitCode == 64)
        #expect(stateful.stderr.contains("error: the stateful search takes --reduction none or sleep-sets, not 'dpor'\n"))
    }

    @Test func anUnknownSearchIsAUsageError() {
        let output = racelab.main(["explore", Self.fixture, "--search", "statefull"])
        #expect(output.exitCode == 64)
        #expect(output.stderr.contains("unknown search 'statefull'; use auto, dpor or stateful. Did you mean 'stateful'?"))
    }
}

/// A long counterexample keeps its first and last steps and the two that decide it;
/// the rest is one line. The replay command still has every step.
struct LongCounterexampleTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/long.race").path

    @Test func theMiddleOfALongRunIsOneLine() {
        let output = racelab.main(["explore", Self.fixture])
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("Shortest counterexample (fewest steps, breadth first): 0 preemptions, 102 steps\n"))
        #expect(output.stdout.contains("    20  writes x = 20\n     … 61 more steps (A 61) …\n    82  writes x = 82\n"))
        #expect(output.stdout.contains(" > 100  writes x = 100\n"))
        #expect(output.stdout.contains("Why: A wrote x (step 100) before B read it (step 101).\n"))
        #expect(output.stdout.contains("Had B read it first, B would have read 99, and every check passes"))
        #expect(output.stdout.contains("--schedule \"A*100 B B\"\n"))
    }
}

/// A schedule is bounded by the step limit as a whole, and one that cannot be
/// followed says why, with the run up to there.
struct ScheduleTests {
    let racelab = RaceLab(environment: [:])
    static let bomb = Array(repeating: "A*100000", count: 2_000).joined(separator: " ")

    @Test func aScheduleLongerThanTheStepLimitIsRefusedAtOnce() throws {
        #expect(Self.bomb.utf8.count == 17_999)
        let run = racelab.main(["run", "singleton-race", "--schedule", Self.bomb])
        #expect(run.exitCode == 64)
        #expect(run.stderr == "error: the schedule has more than 10000 steps, the most a run may take (raise it with --max-steps)\n")
        let bounded = racelab.main(["run", "singleton-race", "--schedule", "A*6", "--max-steps", "5"])
        #expect(bounded.stderr == "error: the schedule has more than 5 steps, the most a run may take (raise it with --max-steps)\n")
        let step = racelab.main(["step", "singleton-race", "--schedule", Self.bomb])
        #expect(step.exitCode == 64)
        #expect(step.stderr.hasPrefix("error: the schedule has more than 10000 steps"))
    }

    @Test func aBlockedPickSaysWhyAndShowsTheRunSoFar() {
        let output = racelab.main(["run", "deadlock", "--schedule", "A B A A"])
        #expect(output.exitCode == 64)
        #expect(output.stderr == "error: step 4 of the schedule picks A, which cannot run then: A holds lock1 and waits for lock2, held by B; runnable: B\n")
        #expect(output.stdout.hasPrefix("The run up to there:\n"))
        #expect(output.stdout.contains("blocks on lock2, held by B"))
    }

    @Test func theScheduleValueParsesPrintsAndReadsBack() throws {
        let schedule = try Schedule(parsing: "A*3, B\tmain\r\nB", limit: 10)
        #expect(schedule.steps == ["A", "A", "A", "B", "main", "B"])
        // A name a step up to 64 steps; past them, runs of three or more as NAME*COUNT.
        #expect(schedule.text == "A A A B main B")
        #expect(try Schedule(parsing: schedule.text, limit: 10) == schedule)
        let long = try Schedule(parsing: "A*60 B B C*3", limit: 100)
        #expect(long.count == 65 && long.text == "A*60 B B C*3")
        #expect(try Schedule(parsing: long.text, limit: 100) == long)
        #expect(Schedule(long.dropLast()).text == (Array(repeating: "A", count: 60) + ["B", "B", "C", "C"]).joined(separator: " "))
        #expect(throws: ScheduleError("bad repeat 'A*0' in the schedule: write NAME*COUNT, like A*3")) { try Schedule(parsing: "A*0", limit: 10) }
        // A count too large for an Int is over the limit, not malformed.
        #expect(throws: ScheduleError("the schedule has more than 10 steps, the most a run may take (raise it with --max-steps)")) {
            try Schedule(parsing: "A*99999999999999999999", limit: 10)
        }
        #expect(throws: ScheduleError("bad step 'A*2*3' in the schedule")) { try Schedule(parsing: "A*2*3", limit: 10) }
        #expect(throws: ScheduleError.self) { try Schedule(parsing: "A*9223372036854775807 A*9223372036854775807", limit: 10) }
    }
}

/// A student sees no answer: no command prints a break-it exercise's failing schedule
/// or a predict-it exercise's outcomes; a wrong prediction learns that it is wrong,
/// not why. The teacher switch shows everything.
struct NoSpoilerTests {
    let student = RaceLab(environment: [:])
    let teacher = RaceLab(environment: ["RACELAB_TEACHER": "1"])
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Every shipped break-it and predict-it exercise: their answers are secrets.
    static let exercises = Shipped.exerciseNames.filter { id in
        let text = (try? Shipped.exerciseText(id)) ?? ""
        return text.contains("kind \"break it\"") || text.contains("kind \"predict it\"")
    }

    /// The guarded exercises are found (a filter that found none would test nothing),
    /// each named for its kind, as the tests below take them.
    @Test func theGuardedExercisesAreFound() {
        #expect(Self.exercises.count >= 9)
        #expect(Self.exercises.allSatisfy { $0.hasSuffix("-break") || $0.hasSuffix("-predict") })
    }

    /// The answer of an exercise, as its reference solution writes it.
    static func answer(_ id: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("Tests/RaceLabGradingTests/Solutions/\(id).race"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("schedule answer \"") || $0.hasPrefix("answer \"") })
        return String(line.split(separator: "\"")[1])
    }

    /// What a student can print about an exercise, by ID and by file.
    func studentOutputs(_ id: String) -> [String] {
        let file = Shipped.exerciseFile(id).path
        var outputs: [String] = []
        for name in [id, file] {
            for arguments in [
                ["explore", name], ["explore", name, "--format", "json"], ["verify", name], ["verify", name, "--format", "json"], ["show", name],
                ["run", name], ["run", name, "--seed", "3"], ["run", name, "--format", "json"],
            ] {
                let output = student.main(arguments)
                outputs.append(output.stdout + output.stderr)
            }
        }
        return outputs
    }

    @Test(arguments: exercises.filter { $0.hasSuffix("-break") })
    func noFailingScheduleOfABreakItExerciseIsShown(_ id: String) throws {
        // The teacher's explore shows a counterexample; the student sees neither it nor the solution's.
        let full = teacher.main(["explore", id])
        let replay = try #require(full.stdout.split(separator: "\n").first { $0.hasPrefix("Replay: ") })
        let counterexample = String(replay.split(separator: "\"")[1])
        for output in studentOutputs(id) {
            #expect(!output.contains(counterexample), "\(id): \(output.prefix(200))")
            #expect(!output.contains(try Self.answer(id)), "\(id)")
            #expect(!output.contains("--schedule \""), "\(id)")
        }
        #expect(student.main(["explore", id]).stdout.contains("Counterexample: hidden"))
        // A schedule the command would choose (round robin, a seed) may be the answer: the
        // student runs their own.
        let run = student.main(["run", id])
        #expect(run.exitCode == 64 && run.stderr.contains("'racelab run' would show its answer (it picks the schedule"))
        // The thread that takes the first step of the answer, alone: a schedule of the student's own.
        let first = String(try Self.answer(id).split(separator: " ")[0].split(separator: "*")[0])
        #expect(student.main(["run", id, "--schedule", first]).exitCode != 64)
    }

    @Test(arguments: exercises.filter { $0.hasSuffix("-predict") })
    func noOutcomeOfAPredictItExerciseIsShown(_ id: String) throws {
        let explore = student.main(["explore", id])
        #expect(explore.exitCode == 64 && explore.stdout.isEmpty)
        #expect(explore.stderr.hasPrefix("error: '\(id)' is a predict-it exercise: 'racelab explore' would show its answer"))
        #expect(teacher.main(["explore", id]).exitCode != 64)
        #expect(student.main(["explore", id, "--teacher"]).exitCode != 64)
        // A prediction missing one value (or a wrong yes/no) is told so, not which.
        let answer = try Self.answer(id)
        let values = answer.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let handedIn = values.count > 1 ? values.dropLast().joined(separator: ", ") : (answer == "yes" ? "no" : "yes")
        let solution = try String(contentsOf: Self.root.appendingPathComponent("Tests/RaceLabGradingTests/Solutions/\(id).race"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spoilers-\(id)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(id).race").path
        try solution.replacingOccurrences(of: "answer \"\(answer)\"", with: "answer \"\(handedIn)\"").write(toFile: path, atomically: true, encoding: .utf8)
        for format in ["text", "json", "csv", "junit"] {
            let grade = student.main(["grade", path, "--format", format])
            #expect(grade.exitCode == 1)
            if values.count > 1 {
                #expect(grade.stdout.contains("wrong: those are not exactly the values"), "\(format)")
                #expect(!grade.stdout.contains("= \(values.last!)"), "\(id) \(format)")
            }
            #expect(!grade.stdout.contains("--schedule \""), "\(id) \(format)")
        }
        #expect(teacher.main(["grade", path]).stdout.contains("--schedule \""), "the teacher sees the schedule")
    }

    /// A wrong prediction is told it is wrong, and no more: a count per try would find
    /// the answer by grading candidates. An exercise with `feedback "count"` says how
    /// many values are wrong or missing, never which; a student cannot ask for that in
    /// an editable region. The teacher sees which.
    @Test func aWrongPredictionIsToldRightOrWrongUnlessTheExerciseCounts() throws {
        let solution = try String(contentsOf: Self.root.appendingPathComponent("Tests/RaceLabGradingTests/Solutions/counter-predict.race"), encoding: .utf8)
        let answer = try Self.answer("counter-predict")
        let variable = try #require(solution.split(separator: "\n").first { $0.hasPrefix("predict \"") }).split(separator: "\"")[1]
        let values = answer.split(separator: ",").count
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-feedback")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("course"), withIntermediateDirectories: true)
        let wrong = solution.replacingOccurrences(of: "answer \"\(answer)\"", with: "answer \"999, \(answer)\"")
        let path = folder.appendingPathComponent("counter-predict.race").path
        try wrong.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(student.main(["grade", path]).stdout.contains("wrong: those are not exactly the values \(variable) can end with\n"))
        #expect(teacher.main(["grade", path]).stdout.contains("wrong: no run ends with \(variable) = 999\n"))

        // A teacher's copy of the exercise that counts.
        let counting: (String) -> String = { $0.replacingOccurrences(of: "\npredict \"", with: "\nfeedback \"count\"\npredict \"") }
        try counting(try Shipped.exerciseText("counter-predict")).write(
            to: folder.appendingPathComponent("course/counter-predict.race"), atomically: true, encoding: .utf8)
        try counting(wrong).write(toFile: path, atomically: true, encoding: .utf8)
        let counted = student.main(["grade", path, "--exercises", folder.appendingPathComponent("course").path])
        #expect(counted.stdout.contains("wrong: 1 of your \(values + 1) values is not a final value of \(variable)\n"), "\(counted.stdout)")

        // Values without their commas are told how to write them, right or wrong.
        try solution.replacingOccurrences(of: "answer \"\(answer)\"", with: "answer \"\(answer.replacingOccurrences(of: ",", with: ""))\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(student.main(["grade", path]).stdout.contains("write the values separated by commas, like answer \"1, 5\""))
        // Asking for the count from an editable region is refused.
        try wrong.replacingOccurrences(of: "answer \"999", with: "feedback \"count\"\nanswer \"999").write(toFile: path, atomically: true, encoding: .utf8)
        let asked = student.main(["grade", path])
        #expect(asked.stdout.contains("'feedback' says what the grader tells a student; it belongs to the exercise,"), "\(asked.stdout)")
    }

    /// An exercise's own named schedules are not run for a student; the student's
    /// 'answer' is.
    @Test func anExercisesOwnSchedulesAreNotRun() throws {
        let exercise = try Shipped.exerciseText("singleton-break")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("singleton-break-story.race").path
        try (exercise + "\nschedule story \"ui ui backup*7 ui\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        let story = student.main(["run", path, "--schedule", "story"])
        #expect(story.exitCode == 64)
        #expect(story.stderr.contains("is a break-it exercise: 'racelab run --schedule story' would show its answer"))
        #expect(teacher.main(["run", path, "--schedule", "story"]).exitCode == 1)
        #expect(student.main(["run", path, "--schedule", "answer"]).exitCode != 64)
    }
}
