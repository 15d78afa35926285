import Foundation
import RaceLabCLI
import RaceLabTestSupport
import Testing

/// A student who hands in nothing still has a row per assigned exercise, and a
/// student who rewords the task loses nothing.
struct HandedInNothingTests {
    let racelab = RaceLab(environment: [:])

    /// A fresh folder holding `files` (name and text).
    func folder(_ name: String, _ files: [(String, String)]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-nothing-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (file, text) in files { try text.write(to: url.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        return url.path
    }

    /// Under `--student` and `--assigned` (Gradescope's and Classroom's layouts), an
    /// empty submission, a README-only repository and a folder of unrelated files
    /// each give a 'missing' row per assigned exercise with its points, counted in
    /// every format's totals.
    @Test func anEmptySubmissionIsAMissingRowPerAssignedExercise() throws {
        let layouts = [
            ("empty", [(String, String)]()), ("readme", [("README.md", "# my work\n")]),
            ("unrelated", [("notes.txt", "todo\n"), ("main.swift", "print(1)\n")]),
        ]
        for (name, files) in layouts {
            let path = try folder(name, files)
            let text = racelab.main(["grade", path, "--student", "sam", "--assigned", "singleton-fix,stale-predict"])
            #expect(text.exitCode == 1, "\(name)")
            #expect(
                text.stdout == """
                    MISSING sam  singleton-fix (fix it)  0/10 points
                          missing: no file for singleton-fix (singleton-fix.race)

                    MISSING sam  stale-predict (predict it)  0/5 points
                          missing: no file for stale-predict (stale-predict.race)

                    2 rows: 0 passed, 0 failed, 2 missing; 0 of 15 points

                    """, "\(name): \(text.stdout)")
            let csv = racelab.main(["grade", path, "--student", "sam", "--assigned", "singleton-fix,stale-predict", "--format", "csv"]).stdout
            #expect(csv.contains("sam,singleton-fix,fix it,,missing,0,10,") && csv.contains("sam,stale-predict,predict it,,missing,0,5,"), "\(csv)")
            let gradescope = racelab.main(["grade", path, "--student", "sam", "--assigned", "singleton-fix,stale-predict", "--format", "gradescope"])
            #expect(gradescope.stdout.contains("\"max_score\": 10,") && gradescope.stdout.contains("\"max_score\": 5,"), "\(name)")
            let classroom = racelab.main(["grade", path, "--student", "sam", "--assigned", "singleton-fix,stale-predict", "--format", "classroom"])
            #expect(classroom.stdout.contains("\"max_score\": 15,"), "\(name)")
        }
        // Without --assigned nothing says what was due: the folder is a row that says why.
        let alone = racelab.main(["grade", try folder("alone", []), "--student", "sam", "--format", "csv"])
        #expect(alone.stdout.contains("\nsam,,,") && alone.stdout.contains(",invalid,0,0,no .race files in this folder\r\n"), "\(alone.stdout)")
    }

    /// A roster saved with a byte-order mark and Windows line endings lists the same
    /// students: the first is not a stranger with an invisible character in her name.
    @Test func aRosterWithAByteOrderMarkLosesNoStudent() throws {
        let solution = try String(
            contentsOf: Shipped.root.appendingPathComponent("Tests/RaceLabGradingTests/Solutions/singleton-fix.race"), encoding: .utf8)
        let root = try folder("roster", [])
        try FileManager.default.createDirectory(atPath: root + "/class/alice", withIntermediateDirectories: true)
        try solution.write(toFile: root + "/class/alice/singleton-fix.race", atomically: true, encoding: .utf8)
        try "\u{FEFF}alice\r\nbob  \r\n".write(toFile: root + "/roster.txt", atomically: true, encoding: .utf8)
        let csv = racelab.main(["grade", root + "/class", "--roster", root + "/roster.txt", "--assigned", "singleton-fix", "--format", "csv"])
        #expect(csv.stderr.isEmpty, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        #expect(rows == ["alice,singleton-fix", "bob,singleton-fix"], "\(csv.stdout)")
    }

    /// The task, hints, title and source are for people: the grader reads them from
    /// the exercise, so a submission that rewords them loses nothing.
    @Test func rewordingTheTaskCostsNothing() throws {
        let solution = try String(
            contentsOf: Shipped.root.appendingPathComponent("Tests/RaceLabGradingTests/Solutions/singleton-fix.race"), encoding: .utf8)
        var lines = solution.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let task = try #require(lines.firstIndex { $0.hasPrefix("task \"\"\"") })
        lines[task + 1] = "My own words for the task, " + lines[task + 1]
        let hint = try #require(lines.firstIndex { $0.hasPrefix("hint \"") })
        lines[hint] = "hint \"my note to self\""
        let path = try folder("reworded", [("singleton-fix.race", lines.joined(separator: "\n"))]) + "/singleton-fix.race"
        let grade = racelab.main(["grade", path])
        #expect(grade.exitCode == 0 && grade.stdout.hasPrefix("PASS"), "\(grade.stdout)")
        // A changed check is still a change.
        let weakened = solution.replacingOccurrences(of: "expect created(ConnectionPool) == 1", with: "expect created(ConnectionPool) >= 1")
        #expect(weakened != solution)
        try weakened.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(racelab.main(["grade", path]).exitCode == 1)
    }
}
