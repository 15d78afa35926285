import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// What the playground page asks of the engine: one request in JSON, one response in
/// JSON (`Exports.swift` carries them across the WebAssembly boundary). The same
/// Swift runs natively, where the tests call it, and in the browser.
///
/// A request names an action and carries the program the page holds:
/// ```json
/// {"action": "explore", "source": "var x = 0\n…", "fix": "locked"}
/// ```
/// Every response has `status`, the number `racelab` would exit with (0 proven or no
/// finding, 1 a failure, 2 a cut search, 64 a bad request, 65 a script error), and
/// `result`, the text it would print; the rest depends on the action:
/// - `check`: `versions`, the program's versions (null for the broken one, then each
///   fix's name);
/// - `explore`: `exploration`, what `racelab explore FILE --format json` prints for
///   the version (`fix`, or the broken one), the search chosen as the CLI chooses it.
/// The program is loaded as a file named `playground.race` (scenario `playground`).
public enum WebAPI {
    /// What a request may ask.
    enum Action: String, CaseIterable {
        case check, explore
    }

    /// The name the page's program is loaded under.
    public static let fileName = "playground.race"

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
        guard let name = request["action"]?.stringValue else { return refusal("the request names no action") }
        guard let action = Action(rawValue: name) else {
            return refusal("unknown action '\(name)'; the actions are " + Action.allCases.map { $0.rawValue }.joined(separator: ", "))
        }
        guard let source = request["source"]?.stringValue else { return refusal("the request carries no source") }
        let scenario: Scenario
        do throws(ScriptError) {
            scenario = try Scenario.load(name: "playground", file: SourceFile(name: fileName, text: source))
        } catch {
            // As the CLI prints it: a control character from the script escaped.
            return .object([("status", .int(65)), ("result", .string(TerminalText.escaped(error.rendered)))])
        }
        switch action {
        case .check:
            // Each by its fix's name, the broken version as null, as explorations name them.
            let versions = scenario.versions.map { $0.fix.map(JSON.string) ?? .null }
            return .object([("status", .int(0)), ("result", .string("")), ("versions", .array(versions))])
        case .explore:
            return explore(scenario, request)
        }
    }

    static func explore(_ scenario: Scenario, _ request: JSON) -> JSON {
        let fix = request["fix"]?.stringValue
        guard let version = scenario.version(fix) else {
            return refusal("the program has no fix named '\(fix ?? "")'")
        }
        // `racelab explore` with no search named: the search plan chooses.
        var config = ExploreConfig()
        config.search = .automatic
        let analysis = Analysis.of(version.program, config: config.started(), needs: .init(counterexample: true))
        let result = analysis.exploration
        let example = analysis.replayedCounterexample?.example
        let exploration = ExplorationJSON(program: version.program).render(result, version: fix, counterexample: example)
        let document = ExplorationJSON.document(scenario, explorations: [exploration])
        let status = Int(result.verdict().exitStatus)
        return .object([("status", .int(status)), ("result", .string(document.serialized() + "\n")), ("exploration", document)])
    }

    static func refusal(_ message: String) -> JSON {
        .object([("status", .int(64)), ("result", .string("error: \(message)\n"))])
    }
}
