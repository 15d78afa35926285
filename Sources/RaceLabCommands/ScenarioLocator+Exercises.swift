import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage

extension ScenarioLocator {
    /// Every exercise in the exercise folders (`exerciseFolders`: `--exercises`, then
    /// `$RACELAB_EXERCISES`, then the shipped `Scenarios/Exercises`), sorted by ID. An
    /// ID in two folders is the first folder's (a teacher's version of a shipped
    /// exercise replaces it); two files with one ID in one folder, or a file that is
    /// not a valid exercise, become warnings, one line each, and the others load.
    func exercises() -> Result<(exercises: [Exercise], warnings: String), GradingError> {
        let folders = exerciseFolders
        for folder in extraExercises.map(files.absolute) where files.kind(folder) != .directory {
            return .failure(GradingError("no exercise folder \(folder)"))
        }
        var exercises: [Exercise] = []
        var warnings = ""
        var anyFile = false
        for directory in folders {
            let names = (files.names(directory) ?? []).filter { $0.hasSuffix(".race") }.sorted()
            anyFile = anyFile || !names.isEmpty
            var inThisFolder: Set<String> = []
            for name in names {
                let path = Path.join(directory, name)
                do throws(GradingError) {
                    let exercise = try Self.exercise(try read(path, name: name).get())
                    guard inThisFolder.insert(exercise.id).inserted else {
                        throw GradingError("exercise '\(exercise.id)' is declared by two files")
                    }
                    if !exercises.contains(where: { $0.id == exercise.id }) { exercises.append(exercise) }
                } catch {
                    warnings += "warning: skipping exercise \(path): \(error.message)\n"
                }
            }
        }
        guard anyFile else {
            let searched = folders.joined(separator: ", ")
            return .failure(
                GradingError(
                    folders.isEmpty
                        ? "no exercise folder found; pass --exercises with the folder that holds the exercises" : "no exercises (.race files) in \(searched)"))
        }
        return .success((exercises.sorted { $0.id < $1.id }, warnings))
    }

    package static func exercise(_ file: SourceFile) throws(GradingError) -> Exercise {
        let scenario: Scenario
        do throws(ScriptError) {
            scenario = try Scenario.load(name: String(file.name.dropLast(5)), file: file)
        } catch {
            throw GradingError("it does not compile:\n" + error.rendered)
        }
        return try Exercise(scenario)
    }

    /// A file's text, shown under `name` (the path by default).
    func read(_ path: String, name: String? = nil) -> Result<SourceFile, GradingError> {
        switch files.read(path) {
        case .success(let text): return .success(SourceFile(name: name ?? path, text: text))
        case .failure(let failure): return .failure(GradingError(failure.message))
        }
    }
}
