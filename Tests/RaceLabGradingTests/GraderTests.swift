import Foundation
import RaceLabCLI
import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabGrading

/// The shipped exercises, graded as the issue asks: every reference solution passes
/// with full points, every starter fails with a reason, and cheating is rejected.
struct GraderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let exerciseFolder = Shipped.exercisesFolder
    static let solutionFolder = root.appendingPathComponent("Tests/RaceLabGradingTests/Solutions")

    static func file(_ url: URL) throws -> SourceFile {
        SourceFile(name: url.lastPathComponent, text: try String(contentsOf: url, encoding: .utf8))
    }

    static let exercises: [Exercise] = {
        Shipped.exerciseNames.map { $0 + ".race" }.compactMap { name in
            guard let source = try? file(exerciseFolder.appendingPathComponent(name)),
                let scenario = try? Scenario.load(name: name, file: source)
            else { return nil }
            return try? Exercise(scenario)
        }
    }()

    static let grader = Grader(exercises: exercises)
    static let ids = exercises.map(\.id)

    @Test func theSetCoversEveryKindAndEveryScenario() throws {
        #expect(Self.exercises.count == Shipped.exerciseNames.count, "every file in Scenarios/Exercises is a valid exercise")
        #expect(Self.exercises.count >= 10)
        #expect(Set(Self.exercises.map(\.kind)) == Set(Exercise.Kind.allCases))
        // Every scenario has an exercise, which names it in its `source` line.
        for scenario in Shipped.scenarioNames {
            #expect(Self.exercises.contains { $0.scenario.source.contains("Scenarios/\(scenario).race") }, "an exercise on \(scenario)")
        }
        #expect(Set(Self.exercises.map(\.level)) == ["easy", "medium", "hard"])
        for exercise in Self.exercises {
            #expect("\(exercise.id).race" == exercise.scenario.file.name, "the file is named after the exercise")
            #expect(!exercise.hints.isEmpty, "\(exercise.id) has hints")
        }
    }

    @Test(arguments: ids)
    func referenceSolutionPassesWithFullPoints(id: String) throws {
        let solution = try Self.file(Self.solutionFolder.appendingPathComponent("\(id).race"))
        let grade = Self.grader.grade(solution, student: "teacher")
        #expect(grade.status == .passed, "\(grade.reason)\n\(grade.details)")
        #expect(grade.points == grade.maxPoints && grade.points > 0)
        #expect(grade.exercise == id)
        // Saved by an editor that writes a byte-order mark: the same file, the same grade.
        let marked = SourceFile(name: solution.name, text: "\u{FEFF}" + solution.text)
        let again = Self.grader.grade(marked, student: "teacher")
        #expect(again.status == .passed && again.points == grade.points, "\(again.reason)")
    }

    @Test(arguments: ids)
    func starterFailsWithAReason(id: String) throws {
        let starter = try Self.file(Self.exerciseFolder.appendingPathComponent("\(id).race"))
        let grade = Self.grader.grade(starter, student: "student")
        let exercise = try #require(Self.grader.exercise(id))
        #expect(grade.status == .failed)
        #expect(grade.points == 0 && grade.maxPoints == exercise.points)
        switch exercise.kind {
        case .fixIt:
            // A counterexample the student can replay.
            #expect(grade.reason.hasPrefix("fails in "), "\(grade.reason)")
            #expect(grade.details.contains("Simplest counterexample"))
            #expect(grade.details.contains("Replay: racelab run \(id).race --schedule \""))
        case .breakIt:
            #expect(grade.reason == "no answer: write your schedule in 'schedule answer \"…\"'")
        case .predictIt:
            #expect(grade.reason == "no answer: write it in 'answer \"…\"'")
        }
    }

    @Test func theStudentsWayStarterThenHintsThenPass() throws {
        let starter = try Self.file(Self.exerciseFolder.appendingPathComponent("singleton-fix.race"))
        let failed = Self.grader.grade(starter, student: "sam")
        #expect(failed.reason == "fails in 44616 of 45120 interleavings: the check \"exactly one pool is ever made\" fails")
        #expect(
            failed.details.contains(
                "Why: jobs read pool (step 4) before web wrote it (step 13).\n     Had web written it first, jobs would have read ConnectionPool#1, and every check passes"
            ), "\(failed.details)")
        // The last hint says what to write; writing exactly that passes.
        var text = starter.text
        text = text.replacingOccurrences(
            of: "// begin editable: you may declare things here (a lock, say)\n",
            with: "// begin editable: you may declare things here (a lock, say)\nlet poolLock = Lock()\n")
        text = text.replacingOccurrences(of: "    if pool == nil {\n", with: "    synchronized(poolLock) {\n    if pool == nil {\n")
        text = text.replacingOccurrences(of: "        pool = fresh\n    }\n", with: "        pool = fresh\n    }\n    }\n")
        let fixed = Self.grader.grade(SourceFile(name: "singleton-fix.race", text: text), student: "sam")
        #expect(fixed.status == .passed, "\(fixed.reason)")
        #expect(fixed.reason == "every one of 9504 interleavings passes (24 executions explored)")
    }

    // The body of sharedPool() in the singleton-fix solution.
    static let lockedTest =
        "    synchronized(poolLock) {\n        if pool == nil {\n            let fresh = ConnectionPool()\n            fresh.open = 4\n            pool = fresh\n        }\n    }\n"

    /// Counts past Int.max: a solution with long work passes, a broken one fails, and
    /// the reason says "more than" instead of trapping.
    @Test(.exhaustive) func hugeInterleavingCountsAreGradedWithoutATrap() throws {
        let slowFix = try Self.cheat("singleton-fix", (Self.lockedTest, "    work(40)\n" + Self.lockedTest))
        #expect(slowFix.status == .passed)
        #expect(slowFix.reason.hasPrefix("every one of more than 9,223,372,036,854,775,807 interleavings passes"), "\(slowFix.reason)")
        let slowRace = try Self.cheat(
            "singleton-fix",
            (Self.lockedTest, "    work(40)\n    if pool == nil {\n        let fresh = ConnectionPool()\n        fresh.open = 4\n        pool = fresh\n    }\n")
        )
        #expect(slowRace.status == .failed)
        #expect(slowRace.reason.hasPrefix("fails in at least "), "\(slowRace.reason)")
        #expect(slowRace.reason.contains(" of more than 9,223,372,036,854,775,807 interleavings: "), "\(slowRace.reason)")
    }

    /// A submission built from a reference solution by text changes.
    static func cheat(_ id: String, _ changes: (String, String)...) throws -> Grade {
        var text = try file(solutionFolder.appendingPathComponent("\(id).race")).text
        for (old, new) in changes {
            #expect(text.contains(old), "the cheat must change something")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return grader.grade(SourceFile(name: "\(id).race", text: text), student: "mallory")
    }

    // Thread fax's editable regions in the deadlock-fix solution, markers included.
    static let begin = "    // begin editable: take the locks\n"
    static let takeLocks = begin + "    scanner.lock()\n    disk.lock()\n"
    static let giveBack = "    // begin editable: give them back\n    disk.unlock()\n    scanner.unlock()\n"

    @Test func cheatingIsRejectedWithAClearReason() throws {
        var cases: [(Grade, String)] = [
            (try Self.cheat("singleton-fix", ("thread jobs {\n    let mine = sharedPool()\n    jobsSaw = mine.open\n}\n", "")), "thread jobs was deleted"),
            (
                try Self.cheat("singleton-fix", ("expect webSaw == 4 && jobsSaw == 4, \"each caller finds 4 connections open\"\n", "")),
                "the check \"each caller finds 4 connections open\" was removed or changed"
            ),
            (try Self.cheat("deadlock-fix", ("expect scanned == 2 &&", "expect scanned >= 0 &&")), "the check \"every job is done\" was changed"),
            (
                try Self.cheat("array-fix", ("{ readings.remove(at: 0) }", "{ readings = [22, 19, 24] }")),
                "a locked line of the main thread was changed (line 48 of the exercise)"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.giveBack, "    scanned += 1\n" + Self.giveBack)),
                "a locked line of thread fax has code added to it (line 58 of the exercise)"
            ),
            (try Self.cheat("deadlock-fix", ("points 10", "points 100")), "the locked 'points' line was changed"),
            (
                try Self.cheat("deadlock-fix", (Self.begin, "")),
                "the editable markers are broken: line 52: '// end editable' without a '// begin editable' before it"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    scanner.lock(\n")),
                "the file does not compile: line 53: expected ')' after the arguments, found \"fax scans a page and stores it\""
            ),
            // Serialising the work away: the checks see that it never happened.
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    if stored == 5 {\n"), (Self.giveBack, "    // begin editable\n    }\n")),
                "fails in 1746 of 1746 interleavings: the check \"every job is done\" fails"
            ),
            // Fewer locks than the task requires: no deadlock, no race, and the check
            // holds, but the required work ran without disk.
            (
                try Self.cheat(
                    "deadlock-fix", (Self.takeLocks, Self.begin + "    scanner.lock()\n"),
                    (Self.giveBack, "    // begin editable: give them back\n    scanner.unlock()\n")),
                "fails in 515022 of 515022 interleavings: the threads' work is no longer done: fax scans a page and stores it (it ran without holding disk)"
            ),
            // Dropping A's pages always, not only when they are stale: right in every
            // interleaving but those where A's pages arrive while "cat" is in the box.
            (
                try Self.cheat("stale-fix", ("                if tagA == generation {", "                if false {")),
                "fails in 3 of 47430 interleavings: the threads' work is no longer done: main lists A's pages (it fell due once, but it never ran)"
            ),
            // A hard-coded answer behind a shadowing name: the locked walk finds its
            // own `highest` inside an `if true { … }`, and `peak = highest` reads the
            // student's.
            (
                try Self.cheat(
                    "array-fix",
                    (
                        "    lock.lock()\n    // end editable\n    required \"the stats thread walks",
                        "    lock.lock()\n    var highest = 27\n    if true {\n    // end editable\n    required \"the stats thread walks"
                    ),
                    ("    // begin editable: after the walk\n    lock.unlock()\n", "    // begin editable: after the walk\n    }\n    lock.unlock()\n")),
                "line 31: the editable code declares 'highest', which the locked code declares too (line 36); use another name, so that the locked code keeps its own"
            ),
            // An endless loop, a busy-wait nothing releases, a deliberate deadlock.
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    while true { }\n")),
                "fails in its one interleaving: runaway loop: fax looped 100000 instructions without a visible step (line 51); is a loop missing its exit?"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    while stored < 5 { work(1) }\n")),
                // A busy-wait that nothing releases: a spin loop becomes a wait, so this
                // is a deadlock that names what fax spins on, not a cut search.
                "fails in 217482 of 217482 interleavings: deadlock: every thread left is blocked: fax spins on stored, waiting for another thread to change it"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.takeLocks + "    scanner.lock()\n")),
                "fails in 24958 of 24958 interleavings: deadlock: a wait-for cycle: fax holds disk and waits for scanner, which fax itself holds: a lock that is not re-entrant"
            ),
            // Passing every check is not enough when an access races (double-checked locking).
            (
                try Self.cheat(
                    "singleton-fix",
                    (
                        Self.lockedTest,
                        "    if pool == nil {\n" + Self.lockedTest.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n    }\n"
                    )),
                "every interleaving passes, but pool has a data race: web writes it (line 40) and jobs reads it (line 35), with nothing ordering them"
            ),
        ]
        // A break-it or predict-it answer is graded on the exercise's program: code
        // added beside the answer changes nothing.
        let crasher = "thread C { assert(false, \"boom\") }\nschedule answer \"pay\""
        cases.append(
            (
                try Self.cheat("deadlock-break", ("schedule answer \"pay pay pay pay pay refund refund refund refund pay\"", crasher)),
                "your schedule runs to the end (completed) and breaks nothing"
            ))
        let rigged = "thread X { visits = 99 }\nanswer \"99\""
        cases.append(
            (
                try Self.cheat("counter-predict", ("answer \"2, 10, 11, 12\"", rigged)),
                "wrong: those are not exactly the values visits can end with"
            ))
        // The issue-31 tricks. The locked walk skipped by an early return (it passed
        // at 10 of 10): the line after it never ran.
        cases.append(
            (
                try Self.cheat(
                    "array-fix",
                    (
                        "thread stats {\n    // begin editable: before the walk\n    lock.lock()\n",
                        "thread stats {\n    // begin editable: before the walk\n    peak = 27\n    return\n"
                    )),
                "fails in 5 of 5 interleavings: the threads' work is no longer done: the stats thread walks the readings (it never ran)"
            ))
        // A loop that never stops, marked as doing its job, so that no run ends and no
        // check fails (it passed every fix-it).
        cases.append(
            (
                try Self.cheat(
                    "deadlock-fix",
                    (
                        Self.takeLocks,
                        Self.begin + "    while true {\n        disk.lock()\n        disk.unlock()\n        progress\n    }\n"
                            + String(Self.takeLocks.dropFirst(Self.begin.count))
                    )),
                "line 54: 'progress' tells the search that a thread which never stops is doing its job; it belongs to the exercise, not to an editable region"
            ))
        for (grade, reason) in cases {
            #expect(grade.status == (reason.hasPrefix("the file does not compile") ? .invalid : .failed), "\(reason)")
            #expect(grade.points == 0)
            #expect(grade.reason == reason, "\(grade.reason)")
        }
    }
}

/// A class's identical submissions (up to comments) and a predict-it exercise's own
/// program are explored once, and grade exactly as if explored again.
struct GradingCacheTests {
    @Test func identicalProgramsAreExploredOnce() throws {
        let grader = Grader(exercises: GraderTests.exercises)
        let solution = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("singleton-fix.race"))
        let commented = SourceFile(name: "b/singleton-fix.race", text: solution.text + "// handed in late\n")
        let shifted = SourceFile(name: "c/singleton-fix.race", text: "// my answer\n" + solution.text)
        let grades = [solution, commented, shifted].map { grader.grade($0, student: "s") }
        #expect(grades.map(\.points) == [10, 10, 10])
        #expect(grades[0].reason == grades[1].reason && grades[1].reason == grades[2].reason)
        // Three: the exercise's required lines once (`Grader.requiredLines`), then the
        // fix twice.
        #expect(grader.cache.explored == 3, "a comment at the end changes no token's place; one at the top moves them all")
        let predict = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("counter-predict.race"))
        let wrong = SourceFile(
            name: "d/counter-predict.race", text: predict.text.replacingOccurrences(of: "answer \"2, 10, 11, 12\"", with: "answer \"2, 10, 11\""))
        #expect(grader.grade(predict, student: "s").passed)
        #expect(grader.grade(wrong, student: "s").reason == "wrong: those are not exactly the values visits can end with")
        #expect(grader.cache.explored == 4, "the exercise's own program, once")
        // The same verdicts from a grader that explores everything afresh.
        let fresh = Grader(exercises: GraderTests.exercises)
        #expect(fresh.grade(shifted, student: "s") == grades[2])
    }
}
