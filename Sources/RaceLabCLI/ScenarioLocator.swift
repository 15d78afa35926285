import Foundation
import RaceLabEngine
import RaceLabLanguage

/// Finds scenarios by name from any working directory, in the folders of
/// `$RACELAB_SCENARIOS` (separated by ':') and then the shipped `Scenarios` folder
/// (beside a `Package.swift` above the executable or the working directory, or the
/// checkout this binary was built from): a teacher's folder adds to the shipped
/// scenarios, and a name it holds comes first. A path to a `.race` file also works,
/// and so does an exercise's ID: exercises are in `--exercises FOLDER`, the folders
/// of `$RACELAB_EXERCISES`, and the `Exercises` folder of each scenario folder.
struct ScenarioLocator {
    var environment: [String: String]
    /// Exercise folders a command was given (`--exercises`): searched first.
    var extraExercises: [String] = []

    /// The shipped `Scenarios` folder, if one is found (searched for once).
    let shipped: URL?

    init(environment: [String: String]) {
        self.environment = environment
        shipped = Self.findShipped()
    }

    /// `--exercises FOLDER`, for every command that finds scenarios or exercises.
    static let exercisesOption = CommandSpec.Option(
        name: "exercises", value: "folder", help: "Also look for exercises in this folder (before the shipped\nones; RACELAB_EXERCISES adds folders too).")

    /// The same locator, with the `--exercises` folder of a command's arguments.
    func adding(exercises folder: String?) -> ScenarioLocator {
        var copy = self
        if let folder { copy.extraExercises.append(folder) }
        return copy
    }

    static func findShipped() -> URL? {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        if !CommandLine.arguments[0].contains("/") { folder = URL(fileURLWithPath: fileManager.currentDirectoryPath) }
        for _ in 0..<8 {
            candidates.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
        for candidate in candidates {
            let scenarios = candidate.appendingPathComponent("Scenarios")
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path),
                fileManager.fileExists(atPath: scenarios.path)
            {
                return scenarios
            }
        }
        return nil
    }

    /// Folders named by an environment variable, separated by ':'.
    func folders(_ variable: String) -> [URL] {
        (environment[variable] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
    }

    /// Where scenarios are looked for, first to last, each folder once.
    var scenarioFolders: [URL] {
        Self.unique(folders("RACELAB_SCENARIOS") + (shipped.map { [$0] } ?? []))
    }

    /// Where exercises are looked for, first to last, each folder once, with how it was
    /// written (the shipped one as `Scenarios/Exercises`, the same on every machine).
    private var exerciseFolderEntries: [(url: URL, name: String)] {
        let given = extraExercises + (environment["RACELAB_EXERCISES"] ?? "").split(separator: ":").map(String.init)
        let scenarios = (environment["RACELAB_SCENARIOS"] ?? "").split(separator: ":").map { "\($0)/Exercises" }
        var entries = (given + scenarios).map { (url: URL(fileURLWithPath: $0), name: $0) }
        if let shipped { entries.append((shipped.appendingPathComponent("Exercises"), "Scenarios/Exercises")) }
        var seen: Set<String> = []
        return entries.filter { seen.insert($0.url.standardizedFileURL.path).inserted }
    }

    var exerciseFolders: [URL] { exerciseFolderEntries.map(\.url) }

    /// The exercise folders that exist, as written: what `list` names.
    var exerciseFolderNames: [String] {
        exerciseFolderEntries.filter { FileManager.default.fileExists(atPath: $0.url.path) }.map(\.name)
    }

    static func unique(_ folders: [URL]) -> [URL] {
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Scenario names, sorted; a name in two folders once.
    func names() -> [String] {
        var names: Set<String> = []
        for folder in scenarioFolders {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for file in files where file.hasSuffix(".race") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    enum Failure: Error {
        /// An unknown scenario name (a usage error).
        case notFound(String)
        /// A file that is missing, unreadable or not a script.
        case unreadable(FileIO.Failure)
    }

    /// The source of a scenario, by name or path.
    func source(for nameOrPath: String) throws(Failure) -> (name: String, file: SourceFile) {
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".race")
        var found: URL?
        if looksLikePath {
            found = URL(fileURLWithPath: nameOrPath)
        } else {
            // A scenario, else an exercise by its ID (racelab step singleton-break).
            let candidates = (scenarioFolders + exerciseFolders).map { $0.appendingPathComponent(nameOrPath + ".race") }
            found = candidates.first { FileManager.default.fileExists(atPath: $0.path) }
            if found == nil {
                guard !scenarioFolders.isEmpty || !exerciseFolders.isEmpty else {
                    throw .notFound("no Scenarios folder found; set RACELAB_SCENARIOS to the folder that holds the .race files")
                }
                let hint = Suggestion.closest(to: nameOrPath, in: names()).map { ". Did you mean '\($0)'?" } ?? ""
                throw .notFound("unknown scenario '\(nameOrPath)'\(hint) (see 'racelab list')")
            }
        }
        let url = found!
        let text: String
        switch FileIO.read(looksLikePath ? nameOrPath : url.path) {
        case .success(let t): text = t
        case .failure(let failure): throw .unreadable(failure)
        }
        let name = url.deletingPathExtension().lastPathComponent
        return (name, SourceFile(name: looksLikePath ? nameOrPath : "\(name).race", text: text))
    }
}
