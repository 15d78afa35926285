import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// What a command printed and how it ended; `main.swift` writes it out.
public struct CommandOutput: Equatable, Sendable, Error {
    public var stdout = ""
    public var stderr = ""
    public var status = ExitCode.success
    /// The number the process exits with.
    public var exitCode: Int32 { status.rawValue }

    public init(stdout: String = "", stderr: String = "", status: ExitCode = .success) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }
}

/// How a command ended: a verdict (0, 1, 2), or one of the sysexits(3) codes for
/// usage and input/output errors, which end a command before or instead of any
/// verdict. Mapped to the process's number here alone.
public enum ExitCode: Int32, Sendable {
    /// No finding, or: proven.
    case success = 0
    /// The run (or a check) found a problem.
    case finding = 1
    /// `explore` found no failure, but a bound cut the search: not a proof.
    case notExhaustive = 2
    /// Wrong command-line use: unknown command, option, scenario, fix or schedule.
    case usage = 64
    /// The scenario script has errors.
    case scriptError = 65
    /// A file could not be read.
    case noInput = 66
    /// An output file could not be written.
    case cannotCreate = 73
    /// A write failed (EX_IOERR): a full disk, standard output closed.
    case ioError = 74
    /// Step mode ended by Ctrl-C, as a shell reports SIGINT.
    case interrupted = 130

    /// Of two versions' verdicts, the one to report for both: a failure found
    /// outranks a cut search, which outranks a proof (an error code outranks them all).
    public static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        func rank(_ code: ExitCode) -> Int {
            switch code {
            case .success: return 0
            case .notExhaustive: return 1
            case .finding: return 2
            default: return 3
            }
        }
        return rank(b) > rank(a) ? b : a
    }
}

/// The `racelab` command: dispatches to a subcommand. Everything outside the
/// commands (files, a terminal, worker processes) comes from whoever made it: the CLI
/// gives the machine's (`RaceLab(environment:)` there), the browser files in memory.
public struct RaceLab {
    package var environment: [String: String]
    /// Where scenarios, exercises, submissions and reports are read and written.
    var files: FileSystem
    /// The shipped `Scenarios` folder, when there is one.
    var shipped: String?
    /// Where a long search reports progress ("" clears the line); nil when output is
    /// not a terminal, so pipes and tests see nothing extra.
    public var progress: (@Sendable (String) -> Void)?
    /// Step mode's raw-mode terminal, when standard input and output are one.
    public var terminal: KeyTerminal?
    /// Step mode's next line of input when there is no terminal (tests give their own).
    public var readLine: () -> String? = { nil }
    /// Where `grade` grades each file: worker processes, each with its own limits (the
    /// CLI's `racelab grade-worker`). nil grades in this process (a library caller's,
    /// or the browser's, choice: a crash there ends it).
    package var workers: WorkerGrading?
    /// Commands only this platform has, left out of the help (the CLI's `grade-worker`).
    package var unlisted: [Entry] = []

    public init(environment: [String: String], files: FileSystem, shipped: String?) {
        self.environment = environment
        self.files = files
        self.shipped = shipped
    }

    static let root = CommandSpec(
        name: "racelab",
        abstract: "Make races visible: run thread scenarios step by step under a deterministic scheduler.",
        usage: "racelab <subcommand>",
        options: [.init(name: "version", value: nil, help: "Show the version.")],
        discussion: """
            SUBCOMMANDS:
            \(subcommandList)

              See 'racelab help <subcommand>' for detailed help.

            EXIT CODES:
              0 no finding (or: proven), 1 a finding, 2 not exhaustive (a bound cut the search),
              64 usage error, 65 script error (or a file that is not a script), 66 missing or
              unreadable file, 73 a report file that cannot be created, 74 a write that failed.
            """
    )

    static let version = "0.1.0"

    /// Runs one command. Its output is safe for a terminal: control characters that
    /// came from a script (in a title, a check's message, a printed string) are
    /// escaped (`TerminalText`), whatever the format.
    public func main(_ arguments: [String]) -> CommandOutput {
        var output = run(arguments)
        output.stdout = TerminalText.escaped(output.stdout)
        output.stderr = TerminalText.escaped(output.stderr)
        return output
    }

    func run(_ arguments: [String]) -> CommandOutput {
        do throws(UsageError) {
            return try dispatch(arguments)
        } catch {
            var text = "error: \(error.message)\n"
            if let command = error.command {
                let helpCommand = command.name == "racelab" ? "racelab --help" : "racelab help \(command.name)"
                text += "Usage: \(command.usage)\n  See '\(helpCommand)' for more.\n"

            }
            return CommandOutput(stderr: text, status: .usage)
        }
    }

    func dispatch(_ arguments: [String]) throws(UsageError) -> CommandOutput {
        guard let first = arguments.first else {
            return CommandOutput(stdout: RaceLab.root.help)
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            return CommandOutput(stdout: RaceLab.root.help)
        case "--version":
            return CommandOutput(stdout: "racelab \(RaceLab.version)\n")
        case "help":
            guard let topic = rest.first else { return CommandOutput(stdout: RaceLab.root.help) }
            if topic == "teaching" { return CommandOutput(stdout: Spoilers.teachingHelp) }
            guard let entry = entry(topic), entry.listed else {
                throw UsageError("unknown subcommand '\(topic)'" + suggestion(topic, RaceLab.commandNames), command: RaceLab.root)
            }
            return CommandOutput(stdout: entry.spec.help)
        default:
            guard let entry = entry(first) else {
                throw UsageError("unknown subcommand '\(first)'" + suggestion(first, RaceLab.commandNames), command: RaceLab.root)
            }
            return try entry.run(self, rest, locator)
        }
    }

    var locator: ScenarioLocator { ScenarioLocator(environment: environment, files: files, shipped: shipped) }
}

func suggestion(_ word: String, _ candidates: [String]) -> String {
    Suggestion.closest(to: word, in: candidates).map { ". Did you mean '\($0)'?" } ?? ""
}

/// Loads a scenario for a command, turning each failure into its output.
func loadScenario(_ name: String, _ locator: ScenarioLocator) -> Result<Scenario, CommandOutput> {
    let source: (name: String, file: SourceFile)
    do throws(ScenarioLocator.Failure) {
        source = try locator.source(for: name)
    } catch {
        switch error {
        case .notFound(let message): return .failure(CommandOutput(stderr: "error: \(message)\n", status: .usage))
        case .unreadable(let failure): return .failure(CommandOutput(stderr: "error: \(failure.message)\n", status: failure.status))
        }
    }
    do throws(ScriptError) {
        return .success(try Scenario.load(name: source.name, file: source.file))
    } catch {
        return .failure(CommandOutput(stderr: error.rendered, status: .scriptError))
    }
}
