import Foundation
import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation
import RaceLabTestSupport
import Testing

/// Every shipped scenario and exercise, converted to "\r\n" and to lone "\r" line
/// ends, gives byte-identical verdicts and grades to the original.
struct LineEndingTwinTests {
    static let scenarioFolder = Shipped.scenariosFolder

    static func twins(_ file: SourceFile) -> [SourceFile] {
        ["\r\n", "\r"].map { SourceFile(name: file.name, text: file.text.replacingOccurrences(of: "\n", with: $0)) }
    }

    /// Every version's exploration as JSON, or the script's diagnostics.
    static func explorations(_ file: SourceFile) -> String {
        do throws(ScriptError) {
            let scenario = try Scenario.load(name: file.name, file: file)
            var config = ExploreConfig.automatic
            config.timeLimit = nil
            return scenario.versions.map { version in
                // As explore chooses: threads that loop forever get the stateful search.
                let result = Explorer(program: version.program, config: config).explore()
                return ExplorationJSON(program: version.program).render(result, version: version.fix, counterexample: nil).serialized()
            }.joined(separator: "\n")
        } catch {
            return error.rendered
        }
    }

    static let scenarioFiles: [String] = {
        (Shipped.scenarioNames.map { $0 + ".race" } + Shipped.exerciseNames.map { "Exercises/\($0).race" }).sorted()
    }()

    @Test(.exhaustive, arguments: scenarioFiles)
    func everyVersionExploresTheSame(name: String) throws {
        let file = try GraderTests.file(Self.scenarioFolder.appendingPathComponent(name))
        let original = Self.explorations(file)
        #expect(original.contains("\"verdict\""), "the original loads and explores")
        for twin in Self.twins(file) {
            #expect(Self.explorations(twin) == original)
        }
    }

    @Test(arguments: GraderTests.ids)
    func everySolutionAndStarterGradesTheSame(id: String) throws {
        let crlfExercises = GraderTests.exercises.compactMap { exercise -> Exercise? in
            let twin = Self.twins(exercise.scenario.file)[0]
            return (try? Scenario.load(name: twin.name, file: twin)).flatMap { try? Exercise($0) }
        }
        #expect(crlfExercises.count == GraderTests.exercises.count, "every exercise loads from its CRLF twin")
        let crlfGrader = Grader(exercises: crlfExercises)
        for folder in [GraderTests.solutionFolder, GraderTests.exerciseFolder] {
            let file = try GraderTests.file(folder.appendingPathComponent("\(id).race"))
            let original = GraderTests.grader.grade(file, student: "s")
            for twin in Self.twins(file) {
                #expect(GraderTests.grader.grade(twin, student: "s") == original)
                #expect(crlfGrader.grade(twin, student: "s") == original)
            }
            #expect(crlfGrader.grade(file, student: "s") == original)
        }
    }

    /// The first bug found: a CRLF file whose first line is a comment was one comment.
    @Test func aCRLFFileThatStartsWithACommentIsNotProvenWhenItFails() throws {
        let text = "// the first line is a comment\r\nvar x = 0\r\nthread A { x = 1 }\r\nexpect x == 2, \"x is two\"\r\n"
        let file = SourceFile(name: "c.race", text: text)
        let program = try Scenario.load(name: "c", file: file).versions[0].program
        let result = Explorer(program: program, config: ExploreConfig()).explore()
        #expect(result.failingExecutions == 1)
    }
}
