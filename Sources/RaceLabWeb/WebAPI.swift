import RaceLabCommands
import RaceLabPresentation

/// What the playground page asks of the engine: a `racelab` command line, run by the
/// CLI's own commands (`RaceLab`) over files the page holds in memory, so a page prints
/// what the CLI prints, byte for byte. One request in JSON, one response in JSON
/// (`Exports.swift` carries them across the WebAssembly boundary); the same Swift runs
/// natively, where the tests call it, and in the browser.
///
/// ```json
/// {"arguments": ["explore", "playground.race", "--format", "json"],
///  "files": {"playground.race": "var x = 0\n…", "Scenarios/Exercises/counter-fix.race": "…"},
///  "shipped": "Scenarios", "input": "1\n2\nu\n", "environment": {"COLUMNS": "72"}}
/// ```
/// - `arguments`: what follows `racelab` on a command line;
/// - `files`: every file the command may read, by path (optional);
/// - `shipped`: the folder that plays the shipped `Scenarios` folder, with its
///   `Exercises` (optional);
/// - `input`: standard input, for `step`, one command a line (optional);
/// - `environment`: variables such as `NO_COLOR`, `COLUMNS` or `RACELAB_TEACHER`.
///
/// The response has `status` (the exit status), `stdout`, `stderr`, and `written`,
/// the files the command wrote (`export --output`, `new`, a grade report), by path.
/// A request that is not one says why, with status 64.
public enum WebAPI {
    public static func respond(to request: String) -> String {
        response(to: request).serialized() + "\n"
    }

    static func response(to text: String) -> JSON {
        let request: JSON
        do throws(JSON.ParseError) {
            request = try JSON.parse(text)
        } catch {
            return refusal("the request is not JSON: \(error.message)")
        }
        guard let list = request["arguments"]?.arrayValue else { return refusal("the request has no 'arguments' (a list of strings)") }
        var arguments: [String] = []
        for argument in list {
            guard let word = argument.stringValue else { return refusal("each of 'arguments' must be a string") }
            arguments.append(word)
        }
        let files = MemoryFiles()
        var environment: [String: String] = [:]
        for (field, target) in [("files", 0), ("environment", 1)] {
            guard let value = request[field] else { continue }
            guard let entries = value.objectValue else { return refusal("'\(field)' must be an object of strings") }
            for (key, entry) in entries {
                guard let string = entry.stringValue else { return refusal("'\(field)' must be an object of strings") }
                if target == 0 { files.contents[MemoryFiles.normalized(key)] = string } else { environment[key] = string }
            }
        }
        var lines: [String] = []
        if let input = request["input"] {
            guard let text = input.stringValue else { return refusal("'input' must be a string") }
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if text.hasSuffix("\n") { lines.removeLast() }
        }
        let shipped = request["shipped"]?.stringValue.map(MemoryFiles.normalized)
        var racelab = RaceLab(environment: environment, files: files.system, shipped: shipped)
        var next = 0
        racelab.readLine = {
            guard next < lines.count else { return nil }
            next += 1
            return lines[next - 1]
        }
        let output = racelab.main(arguments)
        let written = files.written.map { path in (path, JSON.string(files.contents[path] ?? "")) }
        return .object([
            ("status", .int(Int(output.exitCode))), ("stdout", .string(output.stdout)), ("stderr", .string(output.stderr)),
            ("written", .object(written)),
        ])
    }

    static func refusal(_ message: String) -> JSON {
        .object([("status", .int(64)), ("stdout", .string("")), ("stderr", .string("error: \(message)\n")), ("written", .object([]))])
    }
}
