import RaceLabEngine
import RaceLabLanguage

/// Finds scenarios by name from any working directory, in the folders of
/// `$RACELAB_SCENARIOS` (separated by ':') and then the shipped `Scenarios` folder
/// (beside a `Package.swift` above the executable or the working directory, or the
/// checkout this binary was built from): a teacher's folder adds to the shipped
/// scenarios, and a name it holds comes first. A path to a `.race` file also works,
/// and so does an exercise's ID: exercises are in `--exercises FOLDER`, the folders
/// of `$RACELAB_EXERCISES`, and the `Exercises` folder of each scenario folder.
package struct ScenarioLocator {
    var environment: [String: String]
    /// Where the scenario and exercise files are.
    var files: FileSystem
    /// Exercise folders a command was given (`--exercises`): searched first.
    var extraExercises: [String] = []

    /// The shipped `Scenarios` folder, if one was found (by the CLI, beside the binary).
    let shipped: String?

    init(environment: [String: String], files: FileSystem, shipped: String?) {
        self.environment = environment
        self.files = files
        self.shipped = shipped
    }

    /// What a command that needs the scenarios says when no folder holds any.
    static let noScenarios = "no scenarios found; set RACELAB_SCENARIOS to the folder that holds the .race files"

    /// `--exercises FOLDER`, for every command that finds scenarios or exercises.
    static let exercisesOption = CommandSpec.Option(
        name: "exercises", value: "folder", help: "Also look for exercises in this folder (before the shipped\nones; RACELAB_EXERCISES adds folders too).")

    /// The same locator, with the `--exercises` folder of a command's arguments.
    func adding(exercises folder: String?) -> ScenarioLocator {
        var copy = self
        if let folder { copy.extraExercises.append(folder) }
        return copy
    }

    /// Folders named by an environment variable, separated by ':'.
    func folders(_ variable: String) -> [String] {
        (environment[variable] ?? "").split(separator: ":").map { files.absolute(String($0)) }
    }

    /// Where scenarios are looked for, first to last, each folder once.
    var scenarioFolders: [String] {
        unique(folders("RACELAB_SCENARIOS") + (shipped.map { [$0] } ?? []))
    }

    /// Where exercises are looked for, first to last, each folder once, with how it was
    /// written (the shipped one as `Scenarios/Exercises`, the same on every machine).
    private var exerciseFolderEntries: [(path: String, name: String)] {
        let given = extraExercises + (environment["RACELAB_EXERCISES"] ?? "").split(separator: ":").map(String.init)
        let scenarios = (environment["RACELAB_SCENARIOS"] ?? "").split(separator: ":").map { "\($0)/Exercises" }
        var entries = (given + scenarios).map { (path: files.absolute($0), name: $0) }
        if let shipped { entries.append((Path.join(shipped, "Exercises"), "Scenarios/Exercises")) }
        var seen: Set<String> = []
        return entries.filter { seen.insert(files.standardized($0.path)).inserted }
    }

    var exerciseFolders: [String] { exerciseFolderEntries.map { $0.path } }

    /// The exercise folders that exist, as written: what `list` names.
    var exerciseFolderNames: [String] {
        exerciseFolderEntries.filter { files.exists($0.path) }.map { $0.name }
    }

    func unique(_ folders: [String]) -> [String] {
        var seen: Set<String> = []
        return folders.filter { seen.insert(files.standardized($0)).inserted }
    }

    /// Scenario names, sorted; a name in two folders once.
    func names() -> [String] {
        var names: Set<String> = []
        for folder in scenarioFolders {
            for file in files.names(folder) ?? [] where file.hasSuffix(".race") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    enum Failure: Error {
        /// An unknown scenario name (a usage error).
        case notFound(String)
        /// A file that is missing, unreadable or not a script.
        case unreadable(FileFailure)
    }

    /// The source of a scenario, by name or path.
    func source(for nameOrPath: String) throws(Failure) -> (name: String, file: SourceFile) {
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".race")
        var found: String?
        if looksLikePath {
            found = nameOrPath
        } else {
            // A scenario, else an exercise by its ID (racelab step singleton-break).
            let candidates = (scenarioFolders + exerciseFolders).map { Path.join($0, nameOrPath + ".race") }
            found = candidates.first { files.exists($0) }
            if found == nil {
                guard !scenarioFolders.isEmpty || !exerciseFolders.isEmpty else {
                    throw .notFound("no Scenarios folder found; set RACELAB_SCENARIOS to the folder that holds the .race files")
                }
                let hint = Suggestion.closest(to: nameOrPath, in: names()).map { ". Did you mean '\($0)'?" } ?? ""
                throw .notFound("unknown scenario '\(nameOrPath)'\(hint) (see 'racelab list')")
            }
        }
        let path = found!
        let text: String
        switch files.read(path) {
        case .success(let t): text = t
        case .failure(let failure): throw .unreadable(failure)
        }
        let name = Path.stem(path)
        return (name, SourceFile(name: looksLikePath ? nameOrPath : "\(name).race", text: text))
    }
}
