import Foundation
import RaceLabCLI
import Testing

/// A teacher's own exercises, with the binary alone: a folder that adds to the
/// shipped exercises, a file by path, a reference solution checked, a starter written.
struct TeacherTests {
    let racelab = RaceLab(environment: [:])
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh folder for one test.
    func folder(_ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-teacher-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// `new exercise` writes a valid exercise of each kind; the folder then adds to the
    /// shipped exercises for list, hint, grade and explore.
    @Test func aNewExerciseFolderAddsToTheShippedOnes() throws {
        let course = try folder("course")
        for kind in ["fix", "break", "predict"] {
            let made = racelab.main(["new", "exercise", "my-\(kind)", "--kind", kind, "--output", "\(course)/my-\(kind).race"])
            #expect(made.exitCode == 0, "\(made.stderr)")
        }
        let list = racelab.main(["list", "--exercises", course])
        #expect(list.exitCode == 0 && list.stderr.isEmpty, "\(list.stderr)")
        #expect(list.stdout.contains("EXERCISES (\(course), Scenarios/Exercises; see docs/TEACHING.md)\n"))
        for id in ["my-fix", "my-break", "my-predict", "singleton-fix", "stale-predict"] {
            #expect(list.stdout.contains("\n\(id) "), "\(id)")
        }
        let byEnvironment = RaceLab(environment: ["RACELAB_EXERCISES": course])
        #expect(byEnvironment.main(["hint", "my-fix"]).stdout.hasPrefix("my-fix: Count without losing an update (fix it, easy, 10 points)\n"))
        #expect(byEnvironment.main(["explore", "my-fix"]).stdout.contains("FAILS in 4 of 6 interleavings] no update is lost"))
        let grade = racelab.main(["grade", "\(course)/my-fix.race", "--exercises", course])
        #expect(grade.stdout.contains("my-fix (fix it)  0/10 points\n      fails in 4 of 6 interleavings: the check \"no update is lost\" fails"))
        // A file by path is its own exercise for hint, without any folder.
        #expect(racelab.main(["hint", "\(course)/my-break.race"]).stdout.hasPrefix("my-break: Lose an update (break it, easy, 5 points)"))
        // The starter is never overwritten; a bad ID or kind is a usage error.
        #expect(racelab.main(["new", "exercise", "my-fix", "--kind", "fix", "--output", "\(course)/my-fix.race"]).exitCode == 73)
        #expect(racelab.main(["new", "exercise", "My Fix", "--kind", "fix"]).exitCode == 64)
        #expect(
            racelab.main(["new", "exercise", "x", "--kind", "fixit"]).stderr.contains("unknown kind 'fixit'; use fix, break or predict. Did you mean 'fix'?"))
    }

    /// A reference solution is checked with the binary alone: it passes with full
    /// points and its starter fails; a solution that does not pass is reported.
    @Test func aReferenceSolutionIsCheckedWithTheBinaryAlone() throws {
        let course = try folder("solutions")
        _ = racelab.main(["new", "exercise", "my-fix", "--kind", "fix", "--output", "\(course)/my-fix.race"])
        let starter = try String(contentsOfFile: "\(course)/my-fix.race", encoding: .utf8)
        let solution = starter.replacingOccurrences(
            of: "// begin editable: declarations (a lock, say)\n", with: "// begin editable: declarations (a lock, say)\nlet lock = Lock()\n"
        )
        .replacingOccurrences(
            of: "    // begin editable\n    // end editable\n    // The work",
            with: "    // begin editable\n    lock.lock()\n    // end editable\n    // The work"
        )
        .replacingOccurrences(
            of: "{ count += 1 }\n    // begin editable\n    // end editable\n}\n\nthread B",
            with: "{ count += 1 }\n    // begin editable\n    lock.unlock()\n    // end editable\n}\n\nthread B"
        )
        .replacingOccurrences(
            of: "thread B {\n    // begin editable\n    // end editable", with: "thread B {\n    // begin editable\n    lock.lock()\n    // end editable"
        )
        .replacingOccurrences(
            of: "\"B adds 1 to count\" { count += 1 }\n    // begin editable\n    // end editable",
            with: "\"B adds 1 to count\" { count += 1 }\n    // begin editable\n    lock.unlock()\n    // end editable")
        let answers = try folder("solutions-answers")
        try solution.write(toFile: "\(answers)/my-fix.race", atomically: true, encoding: .utf8)
        let checked = racelab.main(["grade", "--check-solution", "\(answers)/my-fix.race", "--exercises", course])
        #expect(checked.exitCode == 0, "\(checked.stdout)")
        #expect(checked.stdout.hasPrefix("OK    \(answers)/my-fix.race  my-fix (fix it, 10 points)\n      the solution passes: every one of"))
        #expect(checked.stdout.contains("      the starter fails: fails in 4 of 6 interleavings"))
        // The starter handed in as a solution does not pass.
        let wrong = racelab.main(["grade", "--check-solution", "\(course)/my-fix.race", "--exercises", course])
        #expect(wrong.exitCode == 1)
        #expect(wrong.stdout.hasPrefix("FAIL  \(course)/my-fix.race  my-fix (fix it, 10 points)\n      the solution does not pass: fails in 4 of 6"))
    }

    /// A broken exercise in a folder is one warning; the others still load. A folder
    /// that is not there is an error.
    @Test func aBrokenExerciseIsAWarningAndTheOthersLoad() throws {
        let course = try folder("broken")
        _ = racelab.main(["new", "exercise", "my-fix", "--kind", "fix", "--output", "\(course)/my-fix.race"])
        try "exercise \"oops\"\nkind \"fix it\"\nthread A { x = }\n".write(toFile: "\(course)/oops.race", atomically: true, encoding: .utf8)
        let list = racelab.main(["list", "--exercises", course])
        #expect(list.exitCode == 0)
        #expect(list.stderr.hasPrefix("warning: skipping exercise \(course)/oops.race: it does not compile:"))
        #expect(list.stdout.contains("\nmy-fix "))
        let missing = racelab.main(["list", "--exercises", "\(course)/nope"])
        #expect(missing.exitCode == 64 && missing.stderr.hasPrefix("error: no exercise folder \(course)/nope\n"))
    }

    /// RACELAB_SCENARIOS adds a folder of scenarios to the shipped ones.
    @Test func aScenarioFolderAddsToTheShippedOnes() throws {
        let mine = try folder("scenarios")
        try "title \"Mine\"\nvar x = 0\nthread A { x = 1 }\n".write(toFile: "\(mine)/mine.race", atomically: true, encoding: .utf8)
        let list = RaceLab(environment: ["RACELAB_SCENARIOS": mine]).main(["list"])
        #expect(list.stdout.contains("\nmine "))
        #expect(list.stdout.contains("\nsingleton-race "))
    }
}

/// Partial credit: an exercise splits its points across its checks; each that holds
/// in every interleaving earns its share. Without credits, all or nothing.
struct PartialCreditTests {
    let racelab = RaceLab(environment: [:])

    @Test func eachCheckThatHoldsEverywhereEarnsItsShare() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-credit").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/count-fix.race"
        _ = racelab.main(["new", "exercise", "count-fix", "--kind", "fix", "--output", path])
        let starter = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "points 10\n", with: "points 10\ncredit 6 \"no update is lost\"\ncredit 2 \"A adds 1 to count\"\ncredit 2 \"no data race\"\n")
        try starter.write(toFile: path, atomically: true, encoding: .utf8)
        let graded = racelab.main(["grade", path, "--exercises", folder, "--format", "csv"])
        #expect(
            graded.stdout.contains(
                ",failed,2,10,\"fails in 4 of 6 interleavings: the check \"\"no update is lost\"\" fails; partial credit: 2 of 10 points, for \"\"A adds 1 to count\"\" (2); not for \"\"no update is lost\"\" (6), \"\"no data race\"\" (2)\"\r\n"
            ), "\(graded.stdout)")
        // With both updates under one lock, everything holds: full points, passed.
        let locked = starter.replacingOccurrences(of: "{ count += 1 }", with: "{ synchronized(token) { count += 1 } }")
            .replacingOccurrences(
                of: "// begin editable: declarations (a lock, say)\n", with: "// begin editable: declarations (a lock, say)\nlet token = Lock()\n")
        let solution = "\(folder)/solution/count-fix.race"
        try FileManager.default.createDirectory(atPath: "\(folder)/solution", withIntermediateDirectories: true)
        try locked.write(toFile: solution, atomically: true, encoding: .utf8)
        // The locked lines changed, so this is not a submission; a teacher's own version is.
        #expect(racelab.main(["grade", solution, "--exercises", "\(folder)/solution"]).stdout.contains("count-fix (fix it)  10/10 points"))
        // A credit must name a check, and the credits must add up to the points.
        try starter.replacingOccurrences(of: "credit 2 \"no data race\"", with: "credit 3 \"no data race\"").write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(racelab.main(["list", "--exercises", folder]).stderr.contains("exercise 'count-fix': its credits add up to 11 points, but it is worth 10"))
        // Points are bounded, so that no total can overflow.
        try starter.replacingOccurrences(of: "credit 2 \"no data race\"", with: "credit 9223372036854775807 \"no data race\"").write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(racelab.main(["list", "--exercises", folder]).stderr.contains("'credit 9223372036854775807 …' must be from 1 to its 10 points"))
        try starter.replacingOccurrences(of: "points 10\n", with: "points 9223372036854775807\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(racelab.main(["list", "--exercises", folder]).stderr.contains("'points' must be a whole number from 1 to 1000000"))
    }
}

/// A spin nothing can release reads as one, not as a lock cycle.
struct SpinReportTests {
    @Test func aSpinForeverIsExplainedAsOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-spin.race").path
        try "var go = false\nthread A { while !go { } }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let output = RaceLab(environment: [:]).main(["run", path])
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("deadlock after step 1: every thread left is blocked: A spins on go, waiting for another thread to change it\n"))
        #expect(output.stdout.contains("here no thread left can ever change it, so it would spin forever."))
    }
}

/// A break-it exercise can ask for a broken invariant or mutual exclusion.
struct BreakGoalTests {
    @Test func mutualExclusionIsAGoal() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-goal").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let exercise = """
            exercise "flag-break"
            kind "break it"
            points 5
            title "Two threads in the critical section"
            task \"\"\"
            The flag is not a lock: find a schedule that puts both threads inside.
            \"\"\"
            goal "mutual exclusion"
            var flag = false
            thread A { while flag { }; flag = true; critical { }; flag = false }
            thread B { while flag { }; flag = true; critical { }; flag = false }
            // begin editable
            schedule answer ""
            // end editable

            """
        try exercise.write(toFile: "\(folder)/flag-break.race", atomically: true, encoding: .utf8)
        let answer = "\(folder)/answer/flag-break.race"
        try FileManager.default.createDirectory(atPath: "\(folder)/answer", withIntermediateDirectories: true)
        try exercise.replacingOccurrences(of: "schedule answer \"\"", with: "schedule answer \"A B B B A A\"").write(
            toFile: answer, atomically: true, encoding: .utf8)
        let graded = RaceLab(environment: [:]).main(["grade", answer, "--exercises", folder, "--format", "csv"])
        #expect(
            graded.stdout.contains(",passed,5,5,your schedule breaks it: mutual exclusion broken: A enters the critical section while B is inside"),
            "\(graded.stdout)")
        try exercise.replacingOccurrences(of: "schedule answer \"\"", with: "schedule answer \"A A A A B\"").write(
            toFile: answer, atomically: true, encoding: .utf8)
        #expect(RaceLab(environment: [:]).main(["grade", answer, "--exercises", folder]).stdout.contains("0/5 points"))
    }
}
