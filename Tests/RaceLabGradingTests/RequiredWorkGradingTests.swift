import Foundation
import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabGrading

/// Locked code runs: a fix-it submission that skips locked work with an early
/// `return` fails with the line that never ran, whatever its checks say.
struct RequiredWorkGradingTests {
    static let fixIts = GraderTests.exercises.filter { $0.kind == .fixIt }

    /// The reference solution reaches, in every run that ends, every line the
    /// grader requires of a submission: what is asked is what the exercise's own
    /// solution does. And something is asked of every fix-it.
    @Test(.exhaustive, arguments: fixIts.map(\.id))
    func theSolutionReachesEveryRequiredLine(id: String) throws {
        let exercise = try #require(GraderTests.exercises.first { $0.id == id })
        let solution = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("\(id).race"))
        let required = GraderTests.grader.requiredLines(exercise)
        #expect(!required.isEmpty, "\(id): no locked line is required")
        let map = try Template.lineMap(exercise: exercise.scenario.file, submission: solution)
        let reached = try #require(Grader.alwaysReached(solution, config: Grader.defaultConfig))
        let missed = required.filter { !reached.contains(map[$0] ?? -1) }
        #expect(missed.isEmpty, "\(id): the solution does not always reach the exercise's lines \(missed.sorted())")
    }

    /// Every fix-it's solution, with `return` at the top of each editable region
    /// inside code. Where the return keeps a required line from running in some run
    /// that ends (as the variant, explored with a probe on each line, shows), the
    /// grade is a fail with no points, naming the line (or a run that does not end,
    /// when one crashes, deadlocks or loops first). A variant that passes skipped no locked
    /// code that the solution always runs.
    @Test(.exhaustive, arguments: fixIts.map(\.id))
    func anEarlyReturnThatSkipsRequiredWorkFails(id: String) throws {
        let exercise = try #require(GraderTests.exercises.first { $0.id == id })
        let solution = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("\(id).race"))
        let required = GraderTests.grader.requiredLines(exercise)
        let solutionMap = try Template.lineMap(exercise: exercise.scenario.file, submission: solution)
        let solutionReached = try #require(Grader.alwaysReached(solution, config: Grader.defaultConfig))
        let template = try Template.parse(solution)
        for region in template.regions {
            // A region inside a body is indented; one among the declarations is not.
            guard solution.line(region.begin).hasPrefix(" ") else { continue }
            var lines = solution.lines
            lines.insert(String(solution.line(region.begin).prefix { $0 == " " }) + "return", at: region.begin)
            let variant = SourceFile(name: "\(id).race", text: lines.joined(separator: "\n"))
            // A region among an actor's or a class's members is indented too: no code.
            guard (try? Parser.parse(variant)) != nil else { continue }
            let label = "\(id), return after line \(region.begin)"
            let map = try Template.lineMap(exercise: exercise.scenario.file, submission: variant)
            let grade = GraderTests.grader.grade(variant, student: "mallory")
            // nil: no run ends, so no run that ended skipped anything.
            let reached = Grader.alwaysReached(variant, config: Grader.defaultConfig) ?? []
            if grade.status == .passed {
                let dropped = exercise.scenario.file.lines.indices.map { $0 + 1 }.filter {
                    solutionReached.contains(solutionMap[$0] ?? -1) && !reached.contains(map[$0] ?? -1)
                }
                #expect(dropped.isEmpty, "\(label) passes, but skips locked lines \(dropped) the solution always runs")
            }
            guard required.contains(where: { !reached.contains(map[$0] ?? -1) }) else { continue }
            #expect(grade.status == .failed && grade.points == 0, "\(label): \(grade.reason)")
            // A run that crashes, deadlocks or never ends may be the simplest failure.
            let unended = ["crash", "runtime error", "deadlock", "never ends", "livelock", "leak"].contains { grade.reason.contains($0) }
            #expect(unended || grade.reason.contains("the locked code at line "), "\(label): \(grade.reason)")
        }
    }

    /// array-fix's cheat from the issue: the answer written, then `return`, so the
    /// locked walk never runs. It passed with 10 of 10 points; now the walk, a
    /// `required` block, is work the grader sees was not done.
    @Test func theArrayFixCheatFailsWithTheWorkItSkipped() throws {
        let exercise = try GraderTests.file(GraderTests.exerciseFolder.appendingPathComponent("array-fix.race"))
        let top = "thread stats {\n    // begin editable: before the walk\n"
        let cheat = exercise.text.replacingOccurrences(of: top, with: top + "    peak = 27\n    return\n")
        #expect(cheat != exercise.text)
        let grade = GraderTests.grader.grade(SourceFile(name: "array-fix.race", text: cheat), student: "mallory")
        #expect(grade.status == .failed && grade.points == 0)
        #expect(grade.reason == "fails in 3 of 3 interleavings: the threads' work is no longer done: the stats thread walks the readings (it never ran)")
        // A thread that loops for ever instead is reported as such, not as work not done.
        let endless = exercise.text.replacingOccurrences(of: top, with: top + "    while true { peak = 27 }\n")
        let looping = GraderTests.grader.grade(SourceFile(name: "array-fix.race", text: endless), student: "mallory")
        #expect(looping.status == .failed && !looping.reason.contains("never ran"), "\(looping.reason)")
    }
}
