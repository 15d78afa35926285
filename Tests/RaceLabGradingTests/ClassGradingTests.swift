import Foundation
import RaceLabCLI
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A teacher grading a whole class in one command: 46 submissions by fifteen students
/// (right answers, wrong ones, cheats and broken files) in `Submissions/`.
struct ClassGradingTests {
    static let folder = "Tests/RaceLabGradingTests/Submissions"
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["RACELAB_RECORD"] == "1"

    static func grade(_ arguments: [String]) -> CommandOutput {
        RaceLab(environment: [:]).main(["grade"] + arguments)
    }

    /// Every verdict, checked by hand once: (student, file, status).
    static let verdicts: [(String, String, String)] = [
        ("alice", "counter-predict", "passed"), ("alice", "deadlock-break", "passed"), ("alice", "island-fix", "passed"),
        ("alice", "opinion-predict", "passed"), ("alice", "singleton-fix", "passed"), ("bob", "array-break", "passed"),
        ("bob", "island-fix", "failed"), ("bob", "opinion-predict", "failed"), ("bob", "singleton-fix", "failed"),
        ("bob", "stale-predict", "failed"), ("carol", "array-fix", "passed"), ("carol", "deadlock-predict", "failed"),
        ("carol", "forecast-fix", "passed"), ("carol", "stale-fix", "passed"), ("dave", "deadlock-fix", "passed"),
        ("dave", "dealloc-break", "failed"), ("dave", "singleton-break", "failed"), ("dave", "spinner-fix", "passed"),
        ("erin", "array-fix", "failed"), ("erin", "deadlock-fix", "failed"), ("erin", "singleton-fix", "failed"),
        ("frank", "array-fix", "failed"), ("frank", "deadlock-fix", "failed"), ("frank", "forecast-fix", "failed"),
        ("frank", "stale-fix", "failed"), ("grace", "array-fix", "invalid"), ("grace", "deadlock", "invalid"),
        ("grace", "singleton-fix", "invalid"), ("heidi", "counter-predict", "invalid"), ("heidi", "deadlock-fix", "failed"),
        ("heidi", "singleton-fix", "invalid"), ("ivan", "counter-predict", "failed"), ("ivan", "deadlock-fix", "failed"),
        ("ivan", "singleton-break", "passed"), ("ivan", "spinner-fix", "failed"), ("judy", "dealloc-break", "passed"),
        ("judy", "singleton-fix", "failed"), ("judy", "stale-predict", "passed"), ("ken", "counter-actor-predict", "failed"),
        ("ken", "order-fix", "passed"), ("lena", "counter-actor-predict", "passed"), ("lena", "order-fix", "failed"),
        ("mia", "bridge-fix", "passed"), ("mona", "scan-fix", "passed"), ("nico", "bridge-fix", "failed"),
        ("nico", "scan-fix", "failed"),
    ]

    @Test func csvHasOneRowPerStudentAndFileWithTheRightVerdict() throws {
        let output = Self.grade([Self.folder, "--format", "csv"])
        #expect(output.exitCode == 1, "not everyone passed")
        #expect(output.stderr == "")
        let lines = output.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(lines.first == "student,exercise,kind,file,status,points,max_points,reason")
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 46)
        for (row, (student, file, status)) in zip(rows, Self.verdicts) {
            #expect(row[0] == student)
            #expect(row[3] == "\(Self.folder)/\(student)/\(file).race")
            #expect(row[4] == status, "\(student)/\(file): \(row.dropFirst(7).joined(separator: ","))")
        }
        #expect(
            output.stdout.contains(
                ",failed,0,10,\"every interleaving passes, but pool has a data race: web writes it (line 40) and jobs reads it (line 35), with nothing ordering them\"\r\n"
            ))
        try Self.compare(output.stdout, "class.csv")
    }

    @Test func junitIsWellFormedWithOneSuitePerStudent() throws {
        let output = Self.grade([Self.folder, "--format", "junit"])
        #expect(output.exitCode == 1)
        let parser = XMLParser(data: Data(output.stdout.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "the JUnit report is well-formed XML")
        #expect(counter.counts["testsuites"] == 1)
        #expect(counter.counts["testsuite"] == 15)
        #expect(counter.counts["testcase"] == 46)
        #expect(counter.counts["failure"] == 23)
        #expect(counter.counts["error"] == 5)
        #expect(output.stdout.contains("<testsuites name=\"racelab grade\" tests=\"46\" failures=\"23\" errors=\"5\">"))
        try Self.compare(output.stdout, "class.junit.xml")
    }

    @Test func jsonAndTextAgreeWithTheCSV() throws {
        let json = Self.grade([Self.folder, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["files"] as? Int == 46)
        #expect(object["passed"] as? Int == 18)
        #expect(object["points"] as? Int == 145)
        let statuses = (object["grades"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
        #expect(statuses == Self.verdicts.map(\.2))
        let text = Self.grade([Self.folder])
        // Invalid files named after an exercise count its points: every row is in the total.
        #expect(text.stdout.hasSuffix("46 rows: 18 passed, 23 failed, 5 invalid; 145 of 380 points\n"))
        try Self.compare(text.stdout, "class.txt")
    }

    @Test func oneGradingWritesEveryReport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-grade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("grades.csv").path
        let junit = folder.appendingPathComponent("grades.xml").path
        let output = Self.grade([Self.folder, "--csv", csv, "--junit", junit])
        #expect(output.exitCode == 1)
        #expect(output.stdout == Self.grade([Self.folder]).stdout)
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == Self.grade([Self.folder, "--format", "csv"]).stdout)
        #expect(try String(contentsOfFile: junit, encoding: .utf8) == Self.grade([Self.folder, "--format", "junit"]).stdout)
        let unwritable = Self.grade([Self.folder + "/alice", "--csv", folder.appendingPathComponent("no/such/dir.csv").path])
        #expect(unwritable.exitCode == 73)
        #expect(unwritable.stderr.hasPrefix("error: cannot create "))
    }

    @Test func gradingIsDeterministic() {
        #expect(Self.grade([Self.folder, "--format", "csv"]) == Self.grade([Self.folder, "--format", "csv"]))
    }

    @Test func badInputGetsAReasonPerFileAndTheOthersAreStillGraded() {
        let output = Self.grade(["no/such.race", "\(Self.folder)/alice/singleton-fix.race", "Scenarios/Exercises/../../Package.swift"])
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("ERROR   no/such.race\n      no such file: no/such.race\n"))
        #expect(output.stdout.contains("PASS    \(Self.folder)/alice/singleton-fix.race  singleton-fix (fix it)  10/10 points\n"))
        #expect(output.stdout.contains("INVALID Scenarios/Exercises/../../Package.swift\n      not an exercise"))
        #expect(output.stdout.hasSuffix("3 rows: 1 passed, 0 failed, 1 invalid, 1 error; 10 of 10 points\n"))

        let wrong = Self.grade(["\(Self.folder)/alice/singleton-fix.race", "--exercise", "deadlock-fix"])
        #expect(wrong.stdout.contains("this is a submission for exercise 'singleton-fix', not 'deadlock-fix'"))
        #expect(wrong.exitCode == 1)
    }

    @Test(arguments: [
        (["grade"], "name at least one submitted file or folder"),
        (["grade", "x.race", "--format", "xlsx"], "unknown format 'xlsx'; use text, json, junit, csv, gradescope or classroom"),
        (["grade", "x.race", "--exercise", "singleton-fixx"], "unknown exercise 'singleton-fixx'. Did you mean 'singleton-fix'?"),
        (["grade", "x.race", "--exercises", "/no/such/folder"], "no exercise folder /no/such/folder"),
        (["hint"], "name your exercise file or an exercise ID"),
        (["hint", "singleton-fix", "0"], "the hint count must be a whole number from 1, not '0'"),
        (["hint", "singelton-fix"], "unknown exercise 'singelton-fix'. Did you mean 'singleton-fix'?"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let output = RaceLab(environment: [:]).main(arguments)
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("error: \(message)\n"))
    }

    @Test func hintsComeOneAtATime() {
        let first = RaceLab(environment: [:]).main(["hint", "Scenarios/Exercises/singleton-fix.race"])
        #expect(first.exitCode == 0)
        #expect(first.stdout.hasPrefix("singleton-fix: Open the connection pool only once (fix it, easy, 10 points)\n\nThreads web and jobs"))
        #expect(first.stdout.contains("Hint 1 of 3:\n"))
        #expect(!first.stdout.contains("Hint 2"))
        #expect(first.stdout.hasSuffix("More: racelab hint Scenarios/Exercises/singleton-fix.race 2\n"))
        let all = RaceLab(environment: [:]).main(["hint", "singleton-fix", "9"])
        #expect(all.stdout.contains("Hint 3 of 3:\n  Declare 'let poolLock = Lock()' at the top"))
        #expect(all.stdout.hasSuffix("That is every hint.\n"))
    }

    static func compare(_ text: String, _ name: String) throws {
        let file = golden.appendingPathComponent(name)
        if recording {
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(expected == text, "\(name) changed; re-record with RACELAB_RECORD=1 swift test --filter ClassGrading and read the diff")
    }
}

final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[name, default: 0] += 1
    }
}

/// A class with missing and misnamed submissions: every student on the roster gets a
/// row for every assigned exercise, and an almost-submission says why it was not
/// graded. A student who is not on the roster is graded, with a warning.
struct GradebookTests {
    static let solutions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Solutions")

    @Test func aRosterGivesEveryMissingSubmissionARow() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-gradebook")
        try? FileManager.default.removeItem(at: root)
        let classFolder = root.appendingPathComponent("class")
        for folder in ["alice", "bob", "carol/hw", "erin"] {
            try FileManager.default.createDirectory(at: classFolder.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        func copy(_ id: String, to path: String) throws {
            try FileManager.default.copyItem(at: Self.solutions.appendingPathComponent("\(id).race"), to: classFolder.appendingPathComponent(path))
        }
        try copy("singleton-fix", to: "alice/singleton-fix.race")
        try copy("deadlock-fix", to: "alice/deadlock-fix.race")
        try copy("singleton-fix", to: "bob/singleton-fix.race.txt")
        try "".write(to: classFolder.appendingPathComponent("bob/deadlock-fix.race"), atomically: true, encoding: .utf8)
        try "notes".write(to: classFolder.appendingPathComponent("bob/README.md"), atomically: true, encoding: .utf8)
        try copy("deadlock-fix", to: "carol/hw/deadlock-fix.race")
        try copy("deadlock-fix", to: "erin/deadlock-fix.race")
        let roster = root.appendingPathComponent("roster.txt")
        try "# class 1\nalice\nbob\ncarol\n\ndave\nalice\n".write(to: roster, atomically: true, encoding: .utf8)
        let output = RaceLab(environment: [:]).main([
            "grade", classFolder.path, "--roster", roster.path, "--assigned", "singleton-fix,deadlock-fix", "--format", "csv",
        ])
        #expect(output.exitCode == 1)
        #expect(output.stderr == "warning: erin handed in files but is not on the roster\n")
        let base = classFolder.path
        #expect(
            output.stdout.components(separatedBy: "\r\n").dropFirst().dropLast() == [
                "alice,deadlock-fix,fix it,\(base)/alice/deadlock-fix.race,passed,10,10,every one of 127648 interleavings passes (40 executions explored)",
                "alice,singleton-fix,fix it,\(base)/alice/singleton-fix.race,passed,10,10,every one of 9504 interleavings passes (24 executions explored)",
                "bob,deadlock-fix,fix it,\(base)/bob/deadlock-fix.race,invalid,0,10,the file is empty",
                "bob,singleton-fix,fix it,\(base)/bob/singleton-fix.race.txt,invalid,0,10,not graded: the file is named singleton-fix.race.txt; a submission is named singleton-fix.race",
                "carol,deadlock-fix,fix it,\(base)/carol/hw/deadlock-fix.race,invalid,0,10,not graded: it is in a folder inside carol's (hw); put it right in carol/",
                "carol,singleton-fix,fix it,,missing,0,10,missing: no file for singleton-fix (singleton-fix.race)",
                "erin,deadlock-fix,fix it,\(base)/erin/deadlock-fix.race,passed,10,10,every one of 127648 interleavings passes (40 executions explored)",
                "dave,singleton-fix,fix it,,missing,0,10,missing: no file for singleton-fix (singleton-fix.race)",
                "dave,deadlock-fix,fix it,,missing,0,10,missing: no file for deadlock-fix (deadlock-fix.race)",
            ])
        let text = RaceLab(environment: [:]).main(["grade", classFolder.path, "--roster", roster.path, "--assigned", "singleton-fix,deadlock-fix"])
        #expect(text.stdout.hasSuffix("9 rows: 3 passed, 0 failed, 3 invalid, 3 missing; 30 of 90 points\n"))
        // A roster that cannot be read, and an assignment of an unknown exercise.
        #expect(RaceLab(environment: [:]).main(["grade", classFolder.path, "--roster", root.appendingPathComponent("nope.txt").path]).exitCode == 66)
        let unknown = RaceLab(environment: [:]).main(["grade", classFolder.path, "--assigned", "singleton-fixx"])
        #expect(
            unknown.exitCode == 64 && unknown.stderr.hasPrefix("error: --assigned names an unknown exercise 'singleton-fixx'. Did you mean 'singleton-fix'?"))
    }
}

/// One student's folder graded for Gradescope and GitHub Classroom: one test per
/// assigned exercise with its points; a results path that cannot be written is 73.
struct AutograderFormatTests {
    static let solutions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Solutions")
    static let bob = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Submissions/bob")

    func submission(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-autograder-\(name)/submission")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.solutions.appendingPathComponent("singleton-fix.race"), to: folder.appendingPathComponent("singleton-fix.race"))
        try FileManager.default.copyItem(at: Self.bob.appendingPathComponent("stale-predict.race"), to: folder.appendingPathComponent("stale-predict.race"))
        return folder.path
    }

    @Test func gradescopeHasOneTestPerAssignedExercise() throws {
        let folder = try submission("gradescope")
        let output = RaceLab(environment: [:]).main([
            "grade", folder, "--student", "sam", "--assigned", "singleton-fix,stale-predict,deadlock-fix", "--format", "gradescope",
        ])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(root["score"] as? Int == 10)
        let tests = try #require(root["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["singleton-fix", "stale-predict", "deadlock-fix"])
        #expect(tests.map { $0["score"] as? Int } == [10, 0, 0])
        #expect(tests.map { $0["max_score"] as? Int } == [10, 5, 10])
        #expect(tests.map { $0["status"] as? String } == ["passed", "failed", "failed"])
        #expect(tests.map { $0["visibility"] as? String } == ["visible", "after_due_date", "visible"])
        #expect(tests[1]["output"] as? String == "wrong: those are not exactly the values shown can end with")
        #expect(tests[2]["output"] as? String == "missing: no file for deadlock-fix (deadlock-fix.race)")
        let unwritable = RaceLab(environment: [:]).main(["grade", folder, "--student", "sam", "--gradescope", "/no/such/folder/results.json"])
        #expect(unwritable.exitCode == 73)
        #expect(unwritable.stderr.hasPrefix("error: cannot create /no/such/folder/results.json: "))
    }

    @Test func classroomHasOneTestPerAssignedExerciseWithItsPoints() throws {
        let folder = try submission("classroom")
        let output = RaceLab(environment: [:]).main(["grade", folder, "--student", "sam", "--assigned", "singleton-fix,stale-predict", "--format", "classroom"])
        #expect(output.exitCode == 1)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(root["version"] as? Int == 1)
        #expect(root["status"] as? String == "fail")
        #expect(root["max_score"] as? Int == 15)
        let tests = try #require(root["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["singleton-fix", "stale-predict"])
        #expect(tests.map { $0["status"] as? String } == ["pass", "fail"])
        #expect(tests.map { $0["score"] as? Int } == [10, 0])
    }
}
