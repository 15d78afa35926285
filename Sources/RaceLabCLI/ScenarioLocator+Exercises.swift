import Foundation
import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage

extension ScenarioLocator {
    /// Every exercise in `folder` (by default `Scenarios/Exercises`), sorted by ID;
    /// files that are not valid exercises become warnings, one line each.
    func exercises(in folder: String?) -> Result<(exercises: [Exercise], warnings: String), GradingError> {
        guard let directory = folder.map({ URL(fileURLWithPath: $0) }) ?? directory?.appendingPathComponent("Exercises") else {
            return .failure(GradingError("no Scenarios folder found; pass --exercises with the folder that holds the exercises"))
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".race") }.sorted()
        guard !names.isEmpty else {
            return .failure(GradingError("no exercises (.race files) in \(directory.path)"))
        }
        var exercises: [Exercise] = []
        var warnings = ""
        for name in names {
            let path = directory.appendingPathComponent(name).path
            do throws(GradingError) {
                let exercise = try Self.exercise(try Self.read(path, name: name).get())
                if exercises.contains(where: { $0.id == exercise.id }) {
                    throw GradingError("exercise '\(exercise.id)' is declared by two files")
                }
                exercises.append(exercise)
            } catch {
                warnings += "warning: skipping exercise \(path): \(error.message)\n"
            }
        }
        return .success((exercises, warnings))
    }

    static func exercise(_ file: SourceFile) throws(GradingError) -> Exercise {
        let scenario: Scenario
        do throws(ScriptError) {
            scenario = try Scenario.load(name: String(file.name.dropLast(5)), file: file)
        } catch {
            throw GradingError("it does not compile:\n" + error.rendered)
        }
        return try Exercise(scenario)
    }

    /// A file's text, shown under `name` (the path by default).
    static func read(_ path: String, name: String? = nil) -> Result<SourceFile, GradingError> {
        switch FileIO.read(path) {
        case .success(let text): return .success(SourceFile(name: name ?? path, text: text))
        case .failure(let failure): return .failure(GradingError(failure.message))
        }
    }
}
