import RaceLabGrading
import RaceLabPresentation

/// A value an option takes, after swift-argument-parser's `ExpressibleByArgument`: an
/// enum whose raw values are its spellings. `ParsedArguments.value` reads it, and
/// refuses anything else in one set of words.
protocol OptionValue: CaseIterable, RawRepresentable where RawValue == String {
    /// What a refusal calls the value: "unknown format 'xml'".
    static var noun: String { get }
    /// The refusal of `text`, with a "Did you mean" when a spelling is close.
    static func refusal(of text: String) -> String
}

extension OptionValue {
    static var spellings: [String] { allCases.map { $0.rawValue } }
    /// The spellings as a usage line gives them: "text|json".
    static var usage: String { spellings.joined(separator: "|") }

    static func refusal(of text: String) -> String {
        "unknown \(noun) '\(text)'; use \(Words.list(spellings, "or"))" + suggestion(text, spellings)
    }
}

extension ParsedArguments {
    /// The value of option `name` as a `V` (nil when it is not given).
    func value<V: OptionValue>(_ name: String, _ spec: CommandSpec) throws(UsageError) -> V? {
        guard let text = values[name] else { return nil }
        guard let value = V(rawValue: text) else { throw UsageError(V.refusal(of: text), command: spec) }
        return value
    }

    /// `--format text|json` (`CommandSpec.Option.textOrJSON`): whether JSON was asked for.
    func wantsJSON(_ spec: CommandSpec) throws(UsageError) -> Bool {
        try value("format", spec) == TextOrJSON.json
    }
}

/// `--format` of the commands that print text or JSON.
enum TextOrJSON: String, OptionValue {
    case text, json
    static let noun = "format"
}

/// `grade --format`.
extension GradeReport.Format: OptionValue {
    static let noun = "format"
}

/// `export --format`.
enum ExportFormat: String, OptionValue {
    case svg, mermaid, dot, html, playground
    static let noun = "format"
}

/// `run --strategy`: who picks the thread that takes each step.
enum RunStrategy: String, OptionValue {
    case roundRobin = "round-robin", random, pct, priority
    static let noun = "strategy"
}

/// `explore --strategy`: the one strategy that changes which schedules exist.
enum ExploreStrategy: String, OptionValue {
    case priority
    static let noun = "strategy"

    static func refusal(of text: String) -> String {
        "unknown strategy '\(text)'; explore visits every interleaving, or with --strategy priority only those a strict-priority scheduler allows"
    }
}

/// `--search`.
enum SearchChoice: String, OptionValue {
    case auto, dpor, stateful
    static let noun = "search"
}

/// `--reduction`: DPOR's or none for the stateless search; none or sleep sets for the
/// stateful one (`ExploreCommand.config` checks the pairing).
enum ReductionChoice: String, OptionValue {
    case dpor, everyInterleaving = "none", sleepSets = "sleep-sets"
    static let noun = "reduction"

    static func refusal(of text: String) -> String {
        "unknown reduction '\(text)'; use dpor or none (or sleep-sets, for the stateful search)" + suggestion(text, spellings)
    }
}

/// `new exercise --kind`: what the student does.
enum ExerciseKindChoice: String, OptionValue {
    case fix, `break`, predict
    static let noun = "kind"
}
