import Foundation
import RaceLabPresentation
import RaceLabTestSupport
import Testing

@testable import RaceLabCLI
@testable import RaceLabCommands

/// `racelab export NAME --format playground`: the page around the engine, which it
/// embeds from `.ci/build-wasm`'s output (or `RACELAB_WASM`); without one it says
/// which command builds it. The page itself is checked in Chromium (.ci/playground.py).
@Suite struct PlaygroundExportTests {
    /// A folder of its own, removed after `body`.
    static func inFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-playground-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    /// The smallest module there is: its magic number and version.
    static let module: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]

    @Test func thePageEmbedsTheModuleAndEveryShippedFile() throws {
        try Self.inFolder { folder in
            let wasm = folder + "/racelab.wasm", page = folder + "/page.html"
            try Data(Self.module).write(to: URL(fileURLWithPath: wasm))
            let output = RaceLab(environment: ["RACELAB_WASM": wasm]).main(["export", "singleton-race", "--format", "playground", "-o", page])
            #expect(output == CommandOutput(stdout: "wrote \(page)\n"))
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains(#"<script type="application/octet-stream" id="racelab-module" data-gzip="false">AGFzbQEAAAA=</script>"#))
            #expect(html.contains("<title>singleton-race: The singleton race: check, then act · RaceLab playground</title>"))
            #expect(html.contains(#""file":"singleton-race.race""#))
            #expect(html.contains(#""Scenarios/deadlock.race":"#) && html.contains(#""Scenarios/Exercises/singleton-fix.race":"#))
            // Nothing in the embedded data ends its script element early.
            let data = try #require(html.components(separatedBy: "<script type=\"application/json\" id=\"racelab-files\">").last)
            #expect(data.components(separatedBy: "</script>").first?.contains("</") == false)
        }
    }

    @Test func withoutTheModuleExportSaysHowToBuildIt() throws {
        try Self.inFolder { folder in
            let missing = folder + "/none.wasm"
            let output = RaceLab(environment: ["RACELAB_WASM": missing]).main(["export", "singleton-race", "--format", "playground"])
            #expect(output.exitCode == 66)
            #expect(
                output.stderr
                    == "error: the playground embeds the WebAssembly engine: no such file: \(missing); build it with .ci/build-wasm (see the README's development section), or set RACELAB_WASM to a racelab.wasm(.gz)\n"
            )
            let text = folder + "/notes.txt"
            try "not a module".write(toFile: text, atomically: true, encoding: .utf8)
            let wrong = RaceLab(environment: ["RACELAB_WASM": text]).main(["export", "singleton-race", "--format", "playground"])
            #expect(wrong.exitCode == 66)
            #expect(wrong.stderr.hasPrefix("error: \(text) is not a WebAssembly module; build it with .ci/build-wasm"))
        }
    }

    @Test func theCourseHasEveryScenarioThenEveryExerciseFromEasyToHard() throws {
        try Self.inFolder { folder in
            let wasm = folder + "/racelab.wasm", page = folder + "/index.html"
            try Data(Self.module).write(to: URL(fileURLWithPath: wasm))
            let racelab = RaceLab(environment: ["RACELAB_WASM": wasm])
            let scenarios = racelab.locator.names()
            let exercises = try racelab.locator.exercises().get().exercises
            let output = racelab.main(["course", "-o", page])
            #expect(output == CommandOutput(stdout: "wrote \(page): \(scenarios.count + exercises.count) levels\n"))
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let start = try #require(
                html.components(separatedBy: #"<script type="application/json" id="racelab-start">"#).last?.components(separatedBy: "</script>").first)
            let levels = try #require(try JSON.parse(start)["levels"]?.arrayValue)
            let paths = levels.compactMap { $0["path"]?.stringValue }
            #expect(
                paths.prefix(5)
                    == Shipped.canonical.map { "Scenarios/\($0).race" }[...])
            #expect(Set(paths.prefix(scenarios.count)) == Set(scenarios.map { "Scenarios/\($0).race" }))
            let kinds = levels.dropFirst(scenarios.count).compactMap { $0["kind"]?.stringValue }
            let ranks = kinds.map { $0.hasSuffix("easy") ? 0 : $0.hasSuffix("hard") ? 2 : 1 }
            #expect(ranks == ranks.sorted() && ranks.first == 0 && ranks.last == 2)
            #expect(levels.first?.compact() == #"{"path":"Scenarios/singleton-race.race","title":"The singleton race: check, then act","kind":"scenario"}"#)
        }
    }

    @Test func theCourseSaysWhereItGoes() {
        let output = RaceLab(environment: [:]).main(["course"])
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("error: say where to write the page: --output index.html\n"))
    }

    @Test func thePlaygroundHoldsTheWholeProgram() {
        let output = RaceLab(environment: [:]).main(["export", "singleton-race", "--format", "playground", "--fix", "mutex"])
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("error: the playground holds the whole program: it takes no --fix, --schedule, --counterexample or --story\n"))
    }

    @Test func showListsTheVersionsInJSON() {
        let output = RaceLab(environment: [:]).main(["show", "singleton-race", "--format", "json"])
        #expect(output.exitCode == 0)
        #expect(
            output.stdout
                == """
                {
                  "scenario": "singleton-race",
                  "title": "The singleton race: check, then act",
                  "versions": [
                    null,
                    "mutex",
                    "confinement",
                    "operations"
                  ]
                }

                """)
    }

    /// `step --format json`, which the playground draws its board from: the same
    /// session as the text's, as data.
    @Test func stepAsDataIsTheLastScreen() throws {
        var racelab = RaceLab(environment: [:])
        var lines = ["2", "2", "u", "3"]
        racelab.readLine = { lines.isEmpty ? nil : lines.removeFirst() }
        let output = racelab.main(["step", "singleton-race", "--format", "json"])
        #expect(output.exitCode == 0 && output.stderr.isEmpty)
        let data = try JSON.parse(output.stdout)
        let threads = try #require(data["threads"]?.arrayValue)
        #expect(threads.map { $0["name"]?.stringValue } == ["main", "A", "B"])
        #expect(threads.map { $0["state"]?.stringValue } == ["idle", "runnable", "runnable"])
        let idle = #"{"key":1,"name":"main","state":"idle","status":"idle: the main queue is empty","#
        #expect(threads[0].compact() == idle + #""next":null,"function":null,"firstLine":null,"code":null,"currentLine":null}"#)
        #expect(threads[1]["currentLine"]?.intValue == 24 && threads[1]["next"]?.stringValue == "creates MySingle#1")
        #expect(threads[2]["currentLine"]?.intValue == 24 && threads[2]["firstLine"]?.intValue == 23)
        #expect(threads[2]["code"]?.arrayValue?.first?.stringValue == "    if singleton == nil {")
        #expect(data["steps"]?.compact() == #"[{"thread":"A","line":23,"text":"reads singleton: nil"},{"thread":"B","line":23,"text":"reads singleton: nil"}]"#)
        #expect(data["shared"]?.arrayValue?.first?.compact() == #"{"label":"","items":["singleton = nil","gotA = nil","gotB = nil"]}"#)
        #expect(data["message"]?.stringValue == "")
        #expect(data["over"]?.boolValue == false && data["schedule"]?.stringValue == "A B" && data["debrief"] == .null)
        #expect(data["title"]?.stringValue == "singleton-race: The singleton race: check, then act (the broken version)")
    }

    @Test func base64IsFoundations() {
        for count in [0, 1, 2, 3, 4, 5, 6, 7, 255, 1_000] {
            // Every byte value, in an order that leaves no run of one value.
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ count) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "\(bytes)")
        }
    }
}
