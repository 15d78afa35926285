import Foundation
import RaceLabEngine
import RaceLabLanguage
import Testing

@testable import RaceLabGrading

/// An exercise fixes the model it is graded under (issue 29): `scheduling "strict
/// priority"` in an editable region would let a student pick a scheduler under which
/// the race cannot happen, so singleton-fix would pass with no lock. A statement that
/// changes the model (`Parser.modelKeys`) is refused there, however it is written.
struct ModelStatementTests {
    static let region = "// begin editable: you may declare things here (a lock, say)\n"
    static let message = "line 30: 'scheduling' changes how the exercise is run; it belongs to the exercise, not to an editable region"

    /// singleton-fix as handed out (no lock), with `statement` first in its top region.
    static func starter(with statement: String) throws -> String {
        let text = try GraderTests.file(GraderTests.exerciseFolder.appendingPathComponent("singleton-fix.race")).text
        #expect(text.contains(region))
        return text.replacingOccurrences(of: region, with: region + statement)
    }

    static func grade(_ text: String) -> Grade {
        GraderTests.grader.grade(SourceFile(name: "singleton-fix.race", text: text), student: "mallory")
    }

    /// No lock: a thread of the student's own, at the highest priority, makes the
    /// pool first. Under a strict-priority scheduler it runs before web and jobs can.
    static let eager =
        "thread C {\n    Thread.current.qualityOfService = .userInteractive\n    let made = ConnectionPool()\n    made.open = 4\n    pool = made\n}\n"

    @Test func strictPriorityWithNoLockIsRefused() throws {
        let text = try Self.starter(with: "scheduling \"strict priority\"\n" + Self.eager)
        let grade = Self.grade(text)
        #expect(grade.status == .failed)
        #expect(grade.points == 0 && grade.maxPoints == 10)
        #expect(grade.reason == Self.message)
        #expect(grade.details == "")
        // What it would have bought: under that scheduler every interleaving passes,
        // but nothing orders C's write before A's read (the scheduler is not a
        // lock), and the race detector says so under every search.
        let file = SourceFile(name: "singleton-fix.race", text: text)
        let program = try Scenario.load(name: "singleton-fix", file: file).versions[0].program
        #expect(program.strictPriority)
        let (passed, reason, _, _) = GraderTests.grader.gradeFix(program, file, key: "model-statement-cheat")
        #expect(!passed)
        #expect(
            reason
                == "every interleaving passes, but ConnectionPool#1.open has a data race: C writes it (line 34) and jobs reads it (line 57), with nothing ordering them",
            "\(reason)")
        // Under the exercise's own model the same thread C fixes nothing.
        let fair = Self.grade(try Self.starter(with: Self.eager))
        #expect(fair.status == .failed)
        #expect(
            fair.reason.hasPrefix("fails in at least 241899 of at least 244671 interleavings: the check \"exactly one pool is ever made\" fails"),
            "\(fair.reason)")
    }

    @Test func spacingCommentsLineEndsAndAByteOrderMarkHideNothing() throws {
        let hidden: [(String, String)] = [
            ("spacing and comments", "  \t scheduling /* quietly */   \"strict priority\"   // nothing to see\n"),
            ("after a semicolon", "let poolLock = Lock(); scheduling \"strict priority\"\n"),
            ("a byte-order mark before it", "\u{FEFF}scheduling \"strict priority\"\n"),
        ]
        for (what, statement) in hidden {
            #expect(Self.grade(try Self.starter(with: statement)).reason == Self.message, "\(what)")
        }
        let plain = try Self.starter(with: "scheduling \"strict priority\"\n")
        for (what, text) in [
            ("Windows line ends", plain.replacingOccurrences(of: "\n", with: "\r\n")), ("old Mac line ends", plain.replacingOccurrences(of: "\n", with: "\r")),
            ("a byte-order mark at the start", "\u{FEFF}" + plain),
        ] {
            let grade = Self.grade(text)
            #expect(grade.status == .failed && grade.points == 0, "\(what)")
            #expect(grade.reason == Self.message, "\(what)")
        }
        // Inside a fix, which grading never applies: refused all the same, at its line.
        let fix = Self.grade(try Self.starter(with: "fix sneaky {\n    scheduling \"strict priority\"\n}\n"))
        #expect(fix.reason == Self.message.replacingOccurrences(of: "line 30", with: "line 31"))
    }

    @Test func everyModelStatementIsRefusedByItsName() throws {
        #expect(Parser.modelKeys == ["scheduling", "wakeups", "memory", "mailbox", "pool", "upcoming"])
        for key in Parser.modelKeys {
            let grade = Self.grade(try Self.starter(with: "\(key) \"anything\"\n"))
            #expect(grade.reason == "line 30: '\(key)' changes how the exercise is run; it belongs to the exercise, not to an editable region")
        }
    }

    @Test func honestSolutionsStillPass() throws {
        let solution = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("singleton-fix.race")).text
        #expect(Self.grade(solution).status == .passed)
        // The word alone is no statement: a name, a comment, a string.
        let named = solution.replacingOccurrences(
            of: "let poolLock = Lock()\n",
            with: "let poolLock = Lock() // scheduling \"strict priority\" is not mine to choose\nlet scheduling = \"scheduling\"\n")
        #expect(named != solution)
        let grade = Self.grade(named)
        #expect(grade.status == .passed, "\(grade.reason)")
        #expect(grade.points == 10)
        // priority-fix's own `scheduling "strict priority"` is locked: its solution passes.
        let priority = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("priority-fix.race"))
        #expect(priority.text.contains("scheduling \"strict priority\"\n"))
        #expect(GraderTests.grader.grade(priority, student: "sam").status == .passed)
    }

    @Test func anExerciseMayNotHandOneOutInARegion() throws {
        let file = SourceFile(name: "singleton-fix.race", text: try Self.starter(with: "scheduling \"strict priority\"\n"))
        let scenario = try Scenario.load(name: "singleton-fix", file: file)
        #expect(throws: GradingError("exercise 'singleton-fix': " + Self.message)) { try Exercise(scenario) }
    }
}
