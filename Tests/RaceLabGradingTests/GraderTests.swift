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
        #expect(failed.reason == "fails in 210 of 230 interleavings: the check \"exactly one MySingle is ever created\" fails")
        #expect(
            failed.details.contains(
                "Why: B read singleton (step 3) before A wrote it (step 8).\n     Had A written it first, B would have read MySingle#1, and every check passes")
        )
        // The last hint says what to write; writing exactly that passes.
        var text = starter.text
        text = text.replacingOccurrences(
            of: "// begin editable: you may declare things here (a lock, say)\n",
            with: "// begin editable: you may declare things here (a lock, say)\nlet token = Lock()\n")
        text = text.replacingOccurrences(
            of: "    if singleton == nil {\n        singleton = MySingle()\n    }\n",
            with: "    synchronized(token) {\n    if singleton == nil {\n        singleton = MySingle()\n    }\n    }\n")
        let fixed = Self.grader.grade(SourceFile(name: "singleton-fix.race", text: text), student: "sam")
        #expect(fixed.status == .passed, "\(fixed.reason)")
        #expect(fixed.reason == "every one of 210 interleavings passes (8 executions explored)")
    }

    /// Counts past Int.max: a solution with long work passes, a broken one fails, and
    /// the reason says "more than" instead of trapping.
    @Test(.exhaustive) func hugeInterleavingCountsAreGradedWithoutATrap() throws {
        let slowFix = try Self.cheat("singleton-fix", ("    synchronized(token) {\n        if", "    work(40)\n    synchronized(token) {\n        if"))
        #expect(slowFix.status == .passed)
        #expect(slowFix.reason.hasPrefix("every one of more than 9,223,372,036,854,775,807 interleavings passes"))
        let slowRace = try Self.cheat(
            "singleton-fix",
            (
                "    synchronized(token) {\n        if singleton == nil {\n            singleton = MySingle()\n        }\n    }",
                "    work(40)\n    if singleton == nil { singleton = MySingle() }"
            ))
        #expect(slowRace.status == .failed)
        #expect(
            slowRace.reason.hasPrefix("fails in more than 9,223,372,036,854,775,807 of more than 9,223,372,036,854,775,807 interleavings"), "\(slowRace.reason)"
        )
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

    // Thread B's editable regions in the deadlock-fix solution, markers included.
    static let begin = "    // begin editable: take the locks\n"
    static let takeLocks = begin + "    lock1.lock()\n    lock2.lock()\n"
    static let giveBack = "    // begin editable: give them back\n    lock2.unlock()\n    lock1.unlock()\n"
    static let work = "    // end editable\n    required \"B adds 1 to counter\" holding lock1, lock2 { counter += 1 }\n"

    @Test func cheatingIsRejectedWithAClearReason() throws {
        var cases: [(Grade, String)] = [
            (try Self.cheat("singleton-fix", ("thread B {\n    gotB = sharedInstance()\n}\n", "")), "thread B was deleted"),
            (
                try Self.cheat("singleton-fix", ("expect gotA === gotB, \"A and B end up with the same MySingle\"\n", "")),
                "the check \"A and B end up with the same MySingle\" was removed or changed"
            ),
            (try Self.cheat("deadlock-fix", ("expect counter == 2,", "expect counter >= 0,")), "the check \"both threads do their work\" was changed"),
            (
                try Self.cheat("array-fix", ("    numbers.removeLast()\n", "    numbers = [1, 2, 3, 4]\n")),
                "a locked line of the main thread was changed (line 42 of the exercise)"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.work, Self.work + "    counter += 1\n")),
                "a locked line of thread B has code added to it (line 35 of the exercise)"
            ),
            (try Self.cheat("deadlock-fix", ("points 10", "points 100")), "the locked 'points' line was changed"),
            (
                try Self.cheat("deadlock-fix", ("    // begin editable: take the locks\n", "")),
                "the editable markers are broken: line 32: '// end editable' without a '// begin editable' before it"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    lock1.lock(\n")),
                "the file does not compile: line 33: expected ')' after the arguments, found \"B adds 1 to counter\""
            ),
            // Serialising the work away: the checks see that it never happened.
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    if counter == 5 {\n"), (Self.giveBack, "    // begin editable\n    }\n")),
                "fails in 7 of 7 interleavings: the check \"both threads do their work\" fails"
            ),
            // Fewer locks than the task requires: no deadlock, no race, and the check
            // holds, but the required work ran without lock2.
            (
                try Self.cheat(
                    "deadlock-fix", (Self.takeLocks, Self.begin + "    lock1.lock()\n"),
                    (Self.giveBack, "    // begin editable: give them back\n    lock1.unlock()\n")),
                "fails in 10 of 10 interleavings: the threads' work is no longer done: B adds 1 to counter (it ran without holding lock2)"
            ),
            // Dropping A's total always, not only when it is stale: right in every
            // interleaving but the three where A's total arrives while it is current.
            (
                try Self.cheat("stale-fix", ("                if tagA == generation {", "                if false {")),
                "fails in 3 of 920787 interleavings: the threads' work is no longer done: main shows A's total (it fell due once, but it never ran)"
            ),
            // A hard-coded answer behind a shadowing name: the locked loop sums into its
            // own `sum` inside an `if true { … }`, and `total = sum` reads the student's.
            (
                try Self.cheat(
                    "array-fix",
                    ("    lock.lock()\n    // end editable\n    let n", "    lock.lock()\n    var sum = 15\n    if true {\n    // end editable\n    let n"),
                    ("    lock.unlock()\n    // end editable\n    total = sum", "    }\n    lock.unlock()\n    // end editable\n    total = sum")),
                "line 28: the editable code declares 'sum', which the locked code declares too (line 32); use another name, so that the locked code keeps its own"
            ),
            // An endless loop, a busy-wait nothing releases, a deliberate deadlock.
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    while true { }\n")),
                "fails in its one interleaving: runaway loop: B looped 100000 instructions without a visible step (line 31); is a loop missing its exit?"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.begin + "    while counter < 5 { work(1) }\n")),
                // A busy-wait that nothing releases: a spin loop becomes a wait, so this
                // is a deadlock that names what B spins on, not a cut search.
                "fails in 1060 of 1060 interleavings: deadlock: every thread left is blocked: B spins on counter, waiting for another thread to change it"
            ),
            (
                try Self.cheat("deadlock-fix", (Self.takeLocks, Self.takeLocks + "    lock1.lock()\n")),
                "fails in 9 of 9 interleavings: deadlock: a wait-for cycle: B holds lock2 and waits for lock1, which B itself holds: a lock that is not re-entrant"
            ),
            // Passing every check is not enough when an access races (double-checked locking).
            (
                try Self.cheat(
                    "singleton-fix",
                    (
                        "    synchronized(token) {\n        if singleton == nil {\n            singleton = MySingle()\n        }\n    }",
                        "    if singleton == nil {\n        synchronized(token) {\n            if singleton == nil { singleton = MySingle() }\n        }\n    }"
                    )),
                "every interleaving passes, but singleton has a data race: A writes it (line 33) and B reads it (line 31), with nothing ordering them"
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
                    ("thread worker {\n    // begin editable\n    lock.lock()\n", "thread worker {\n    // begin editable\n    total = 15\n    return\n")),
                "fails in 5 of 5 interleavings: the threads' work is no longer done: the locked code at line 39 never ran"
            ))
        // A loop that never stops, marked as doing its job, so that no run ends and no
        // check fails (it passed every fix-it).
        cases.append(
            (
                try Self.cheat(
                    "deadlock-fix",
                    (
                        Self.takeLocks,
                        Self.begin + "    while true {\n        lock2.lock()\n        lock2.unlock()\n        progress\n    }\n"
                            + String(Self.takeLocks.dropFirst(Self.begin.count))
                    )),
                "line 34: 'progress' tells the search that a thread which never stops is doing its job; it belongs to the exercise, not to an editable region"
            ))
        for (grade, reason) in cases {
            #expect(grade.status == (reason.hasPrefix("the file does not compile") ? .invalid : .failed), "\(reason)")
            #expect(grade.points == 0)
            #expect(grade.reason == reason)
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
