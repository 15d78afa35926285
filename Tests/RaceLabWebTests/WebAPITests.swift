import Foundation

import RaceLabPresentation
import Testing

@testable import RaceLabCLI
@testable import RaceLabWeb

/// The page's entry runs the CLI's own commands over files held in memory: for the
/// same files at the same paths, the same text and the same status, byte for byte
/// (`.ci/build-wasm --check` asks the WebAssembly build the same questions).
@Suite struct WebAPITests {
    static let counter = """
        title "Two increments"
        var count = 0
        thread A {
            count += 1
        }
        thread B {
            count += 1
        }
        expect count == 2, "both increments land"
        fix locked {
            let m = Lock()
            thread A {
                m.lock()
                count += 1
                m.unlock()
            }
            thread B {
                m.lock()
                count += 1
                m.unlock()
            }
        }
        """

    /// The shipped Scenarios folder, as the CLI finds it.
    static let shipped = RaceLab.findShipped()!

    /// Every file under the shipped folder, by its absolute path: what a page embeds.
    static let shippedFiles: [(String, JSON)] = {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: shipped)) ?? []
        return paths.filter { $0.hasSuffix(".race") }.sorted().map { relative in
            let path = shipped + "/" + relative
            return (path, JSON.string(try! String(contentsOfFile: path, encoding: .utf8)))
        }
    }()

    /// `racelab ARGUMENTS` natively and through the page's entry, with `source` saved
    /// as FILE (playground.race in a folder of its own) and the shipped folder in both.
    static func both(_ arguments: [String], source: String = counter, input: String? = nil) throws -> (native: JSON, web: JSON) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("playground.race").path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let line = arguments.map { $0 == "FILE" ? path : $0 }
        var racelab = RaceLab(environment: [:])
        var lines = (input ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if input?.hasSuffix("\n") == true { lines.removeLast() }
        racelab.readLine = { lines.isEmpty ? nil : lines.removeFirst() }
        let output = racelab.main(line)
        let native = JSON.object([
            ("status", .int(Int(output.exitCode))), ("stdout", .string(output.stdout)), ("stderr", .string(output.stderr)),
            ("written", .object([])),
        ])
        var request: [(String, JSON)] = [
            ("arguments", .array(line.map(JSON.string))), ("files", .object(shippedFiles + [(path, .string(source))])),
            ("shipped", .string(shipped)),
        ]
        if let input { request.append(("input", .string(input))) }
        let text = WebAPI.respond(to: JSON.object(request).compact())
        #expect(text.hasSuffix("}\n"))
        return (native, try JSON.parse(text))
    }

    static let commandLines: [[String]] = [
        ["explore", "FILE", "--format", "json"],
        ["explore", "FILE", "--all-fixes"],
        ["explore", "FILE", "--fix", "locked", "--search", "stateful"],
        ["verify", "FILE", "--format", "json"],
        ["verify", "singleton-race"],
        ["run", "FILE", "--schedule", "A B"],
        ["run", "FILE", "--seed", "7"],
        ["run", "stale-results", "--schedule", "story"],
        ["explore", "deadlock", "--fix", "ordered"],
        ["list"],
        ["show", "singleton-race"],
        ["hint", "singleton-fix"],
        ["hint", "singleton-fix", "2"],
        ["export", "FILE", "--format", "svg", "--counterexample"],
        ["export", "FILE", "--format", "dot"],
        ["grade", "FILE"],
        ["grade", Self.shipped + "/Exercises/counter-fix.race", "--student", "ann"],
        ["explore", "nonesuch"],
        ["explore", "FILE", "--fix", "nope"],
        ["verfy", "FILE"],
        ["help", "explore"],
        ["--version"],
    ]

    @Test(arguments: commandLines)
    func everyCommandAnswersAsTheCommandLineDoes(_ arguments: [String]) throws {
        let (native, web) = try Self.both(arguments)
        #expect(web.serialized() == native.serialized())
        #expect(native["stdout"]?.stringValue != "" || native["stderr"]?.stringValue != "", "\(arguments) printed nothing")
    }

    @Test func stepTakesItsCommandsFromTheInput() throws {
        let (native, web) = try Self.both(["step", "FILE"], input: "1\nB\nu\ns\n\nq\n")
        #expect(web.serialized() == native.serialized())
        #expect(native["stdout"]?.stringValue?.contains("\n> u\n") == true)
    }

    @Test func aScriptErrorIsPrintedAsTheCommandLinePrintsIt() throws {
        let (native, web) = try Self.both(["explore", "FILE"], source: "var x = 0\nthread A {\n    x += \n}\n")
        #expect(web.serialized() == native.serialized())
        #expect(native["status"]?.intValue == 65)
    }

    /// A script that writes an escape sequence in a line an error quotes: neither the
    /// CLI nor the page passes it on raw.
    @Test func aControlCharacterInAScriptErrorIsNotPassedOn() throws {
        let (native, web) = try Self.both(["explore", "FILE"], source: "var s = \"\u{1B}[2J\" + * 1\n")
        #expect(web.serialized() == native.serialized())
        #expect(native["stderr"]?.stringValue?.contains(":1:18: error: expected an expression, found '*'\n") == true)
        #expect(native["stderr"]?.stringValue?.contains("\u{1B}") == false)
    }

    @Test func whatACommandWritesComesBack() throws {
        let request = #"{"arguments": ["new", "exercise", "x", "--kind", "fix", "--output", "work/x.race"]}"#
        let response = try JSON.parse(WebAPI.respond(to: request))
        #expect(response["status"]?.intValue == 0)
        #expect(response["stdout"]?.stringValue?.hasPrefix("Wrote work/x.race: a fix-it exercise 'x'") == true)
        let written = try #require(response["written"]?.objectValue)
        #expect(written.map { $0.0 } == ["work/x.race"])
        #expect(written[0].1.stringValue?.contains(#"exercise "x""#) == true)
        // A second `new` over the same file is refused, as on disk.
        let files = #""files": {"work/x.race": "var x = 0"}"#
        let arguments = #""arguments": ["new", "exercise", "x", "--kind", "fix", "--output", "work/x.race"]"#
        let again = try JSON.parse(WebAPI.respond(to: "{\(arguments), \(files)}"))
        #expect(again["status"]?.intValue == 73)
        #expect(again["stderr"]?.stringValue == "error: cannot create work/x.race: it already exists, and is left as it is\n")
    }

    @Test func pathsAreTheFilesOwnWhateverTheirSpelling() {
        #expect(MemoryFiles.normalized("/a/./b//c.race") == "a/b/c.race")
        #expect(MemoryFiles.normalized("a/../../b.race") == "b.race")
        let files = MemoryFiles()
        files.contents = ["class/ann/x.race": "1", "class/bob/y.race": "2", "top.race": "3"]
        #expect(files.below("class") == ["ann", "ann/x.race", "bob", "bob/y.race"])
        #expect(files.system.kind("./class/ann") == .directory)
        #expect(files.system.kind("top.race") == .file)
        #expect(files.system.kind("nothing") == nil)
        #expect(files.system.names("") == ["class", "top.race"])
    }

    @Test(arguments: [
        ("not json", "error: the request is not JSON"),
        (#"{"files": {}}"#, "error: the request has no 'arguments' (a list of strings)\n"),
        (#"{"arguments": ["run", 1]}"#, "error: each of 'arguments' must be a string\n"),
        (#"{"arguments": ["list"], "files": []}"#, "error: 'files' must be an object of strings\n"),
        (#"{"arguments": ["list"], "environment": {"A": 1}}"#, "error: 'environment' must be an object of strings\n"),
        (#"{"arguments": ["step", "x"], "input": 3}"#, "error: 'input' must be a string\n"),
    ])
    func aBadRequestIsRefused(request: String, message: String) throws {
        let response = try JSON.parse(WebAPI.respond(to: request))
        #expect(response["status"]?.intValue == 64)
        #expect(response["stderr"]?.stringValue?.hasPrefix(message) == true)
    }
}
