import Foundation
import RaceLabEngine
import RaceLabLanguage

/// What RaceLab ships, found on disk: the scenarios in `Scenarios/` and the exercises
/// in `Scenarios/Exercises/`. Every test reads them from here (and `.ci/run` and the
/// fuzzer's seeds from the same folders), so a file dropped into `Scenarios/` is
/// verified, shown, fuzzed and compared with its golden output with no list edited.
/// The only names written here are the ones a requirement names: the five canonical
/// scenarios.
public enum Shipped {
    /// The package's root folder, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    public static let scenariosFolder = root.appendingPathComponent("Scenarios")
    public static let exercisesFolder = scenariosFolder.appendingPathComponent("Exercises")

    /// Every shipped scenario's name (its file without `.race`), sorted.
    public static let scenarioNames: [String] = names(in: scenariosFolder)
    /// Every shipped exercise's file name without `.race` (its ID), sorted.
    public static let exerciseNames: [String] = names(in: exercisesFolder)

    /// The five scenarios the seeds are about (`SCENARIOS.md`), in the order the
    /// lessons take them.
    public static let canonical = ["singleton-race", "array-mutation", "stale-results", "dealloc-wrong-thread", "deadlock"]
    /// A shipped scenario's text.
    public static func text(_ name: String) throws -> String {
        try String(contentsOf: scenariosFolder.appendingPathComponent(name + ".race"), encoding: .utf8)
    }

    /// A shipped scenario, loaded and compiled.
    public static func scenario(_ name: String) throws -> Scenario {
        try Scenario.load(name: name, file: SourceFile(name: name + ".race", text: try text(name)))
    }

    /// A shipped exercise's file.
    public static func exerciseFile(_ id: String) -> URL {
        exercisesFolder.appendingPathComponent(id + ".race")
    }

    /// A shipped exercise's text.
    public static func exerciseText(_ id: String) throws -> String {
        try String(contentsOf: exerciseFile(id), encoding: .utf8)
    }

    /// The `.race` files directly in `folder`, by name without the extension, sorted.
    static func names(in folder: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".race") }.map { String($0.dropLast(5)) }.sorted()
    }
}
