import Foundation
import RaceLabCLI
import RaceLabPresentation
import RaceLabWeb
import Testing

/// The page's entry answers as the CLI does: the same text, the same status, byte for
/// byte (`scripts/build-wasm --check` asks the WebAssembly build the same questions).
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

    /// `racelab ARGS` on `source` saved as playground.race, as a student would run it
    /// in the file's folder (the folder is taken out of what it prints).
    static func cli(_ arguments: [String], source: String) throws -> CommandOutput {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(WebAPI.fileName).path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        var output = RaceLab(environment: [:]).main(arguments.map { $0 == "FILE" ? path : $0 })
        output.stdout = output.stdout.replacingOccurrences(of: folder.path + "/", with: "")
        output.stderr = output.stderr.replacingOccurrences(of: folder.path + "/", with: "")
        return output
    }

    static func respond(_ request: JSON) throws -> JSON {
        let text = WebAPI.respond(to: request.compact())
        #expect(text.hasSuffix("}\n"))
        return try JSON.parse(text)
    }

    @Test(arguments: [(nil, 1), ("locked", 0)] as [(String?, Int)])
    func exploreAnswersAsTheCommandLineDoes(fix: String?, status: Int) throws {
        var request: [(String, JSON)] = [("action", .string("explore")), ("source", .string(Self.counter))]
        if let fix { request.append(("fix", .string(fix))) }
        let response = try Self.respond(.object(request))
        let cli = try Self.cli(["explore", "FILE", "--format", "json"] + (fix.map { ["--fix", $0] } ?? []), source: Self.counter)
        #expect(response["status"]?.intValue == status)
        #expect(Int(cli.exitCode) == status)
        #expect(response["result"]?.stringValue == cli.stdout)
        #expect(response["exploration"]?["explorations"] != nil)
    }

    @Test func aScriptErrorIsPrintedAsTheCommandLinePrintsIt() throws {
        let source = "var x = 0\nthread A {\n    x += \n}\n"
        let response = try Self.respond(.object([("action", .string("check")), ("source", .string(source))]))
        let cli = try Self.cli(["explore", "FILE"], source: source)
        #expect(response["status"]?.intValue == 65 && cli.exitCode == 65)
        #expect(response["result"]?.stringValue == cli.stderr)
        #expect(cli.stderr.hasPrefix("playground.race:3:"))
    }

    /// A script that writes an escape sequence in a line an error quotes: neither the
    /// CLI nor the page's result passes it on raw.
    @Test func aControlCharacterInAScriptErrorIsNotPassedOn() throws {
        let source = "var s = \"\u{1B}[2J\" + * 1\n"
        let response = try Self.respond(.object([("action", .string("explore")), ("source", .string(source))]))
        let cli = try Self.cli(["explore", "FILE"], source: source)
        #expect(response["status"]?.intValue == 65 && cli.exitCode == 65)
        #expect(response["result"]?.stringValue == cli.stderr)
        #expect(cli.stderr.hasPrefix("playground.race:1:18: error: expected an expression, found '*'\n"))
        #expect(!cli.stderr.contains("\u{1B}"))
    }

    @Test func checkListsTheVersions() throws {
        let response = try Self.respond(.object([("action", .string("check")), ("source", .string(Self.counter))]))
        #expect(response.compact() == #"{"status":0,"result":"","versions":[null,"locked"]}"#)
    }

    @Test(arguments: [
        ("not json", "error: the request is not JSON"),
        (#"{"source": "var x = 0"}"#, "error: the request names no action\n"),
        (#"{"action": "check"}"#, "error: the request carries no source\n"),
        (#"{"action": "grade", "source": "var x = 0"}"#, "error: unknown action 'grade'; the actions are check, explore\n"),
        (#"{"action": "explore", "source": "var x = 0", "fix": "nope"}"#, "error: the program has no fix named 'nope'\n"),
    ])
    func aBadRequestIsRefused(request: String, message: String) throws {
        let response = try JSON.parse(WebAPI.respond(to: request))
        #expect(response["status"]?.intValue == 64)
        #expect(response["result"]?.stringValue?.hasPrefix(message) == true)
    }
}
