import RaceLabEngine

/// The command line that replays a run, as the reader would type it:
/// `racelab run NAME [--fix F] --schedule "A B A"`. A scenario named by a path a shell
/// would split (spaces, quotes, `$`) is quoted, so the line can be pasted as it is.
public struct ReplayCommand: Sendable, Equatable {
    /// How the reader names the scenario: its name, or its file's path.
    public var scenario: String
    public var fix: String?
    /// `run`, or `step` to go on from there.
    public var verb: String

    public init(_ scenario: String, fix: String? = nil, verb: String = "run") {
        self.scenario = scenario
        self.fix = fix
        self.verb = verb
    }

    /// The command without a schedule: `racelab run NAME --fix F`.
    public var text: String {
        "racelab \(verb) \(Self.shellWord(scenario))" + (fix.map { " --fix \(Self.shellWord($0))" } ?? "")
    }

    /// The command with a schedule: `racelab run NAME --schedule "A B A"`.
    public func schedule(_ schedule: Schedule) -> String {
        named(schedule.text)
    }

    /// The command with a schedule the scenario names: `--schedule "answer"`.
    public func named(_ name: String) -> String {
        text + " --schedule \"\(name)\""
    }

    /// A word as a POSIX shell reads it back: as it is when it is plain, else in single
    /// quotes (a quote inside written as '\'').
    public static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._/-+:@,=".unicodeScalars.contains($0))
            }
        return plain ? word : "'" + word.replacingAll("'", with: "'\\''") + "'"
    }
}
