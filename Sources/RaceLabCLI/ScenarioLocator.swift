import Foundation
import RaceLabEngine
import RaceLabLanguage

/// Finds scenarios by name from any working directory: `$RACELAB_SCENARIOS`, then a
/// `Scenarios` folder beside a `Package.swift` above the executable, then the
/// checkout this binary was built from. A path to a `.race` file also works, and so
/// does an exercise's ID (`Scenarios/Exercises/ID.race`).
struct ScenarioLocator {
    var environment: [String: String]

    var directory: URL? {
        if let path = environment["RACELAB_SCENARIOS"], !path.isEmpty { return URL(fileURLWithPath: path) }
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

    /// Shipped scenario names, sorted.
    func names() -> [String] {
        guard let directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return files.filter { $0.hasSuffix(".race") }.map { String($0.dropLast(5)) }.sorted()
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
        var url: URL
        if looksLikePath {
            url = URL(fileURLWithPath: nameOrPath)
        } else if let directory {
            url = directory.appendingPathComponent(nameOrPath + ".race")
            // An exercise by its ID: racelab step singleton-break.
            let exercise = directory.appendingPathComponent("Exercises").appendingPathComponent(nameOrPath + ".race")
            if !FileManager.default.fileExists(atPath: url.path) && FileManager.default.fileExists(atPath: exercise.path) {
                url = exercise
            }
        } else {
            throw .notFound("no Scenarios folder found; set RACELAB_SCENARIOS to the folder that holds the .race files")
        }
        if !looksLikePath && !FileManager.default.fileExists(atPath: url.path) {
            let hint = Suggestion.closest(to: nameOrPath, in: names()).map { ". Did you mean '\($0)'?" } ?? ""
            throw .notFound("unknown scenario '\(nameOrPath)'\(hint) (see 'racelab list')")
        }
        let text: String
        switch FileIO.read(looksLikePath ? nameOrPath : url.path) {
        case .success(let t): text = t
        case .failure(let failure): throw .unreadable(failure)
        }
        let name = url.deletingPathExtension().lastPathComponent
        return (name, SourceFile(name: looksLikePath ? nameOrPath : "\(name).race", text: text))
    }
}
