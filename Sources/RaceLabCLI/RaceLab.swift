import Foundation
import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// What a command printed and its exit status; `main.swift` writes it out.
public struct CommandOutput: Equatable, Sendable, Error {
    public var stdout = ""
    public var stderr = ""
    public var exitCode: Int32 = ExitCode.success

    public init(stdout: String = "", stderr: String = "", exitCode: Int32 = ExitCode.success) {
        self.stdout = stdout
        self.stderr = stderr
        self.exitCode = exitCode
    }
}

/// Exit codes, as in sysexits(3) where one fits.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The run (or a check) found a problem.
    public static let finding: Int32 = 1
    /// Wrong command-line use: unknown command, option, scenario, fix or schedule.
    public static let usage: Int32 = 64
    /// `explore` found no failure, but a bound cut the search: not a proof.
    public static let notExhaustive: Int32 = 2
    /// The scenario script has errors.
    public static let scriptError: Int32 = 65
    /// A file could not be read.
    public static let noInput: Int32 = 66
    /// An output file could not be written.
    public static let cannotCreate: Int32 = 73
    /// A write failed (EX_IOERR): a full disk, standard output closed.
    public static let ioError: Int32 = 74

    /// Of two verdicts' exit codes, the one to report for both: a failure found (1)
    /// outranks a cut search (2), which outranks a proof (0), whatever the numbers.
    public static func worse(_ a: Int32, _ b: Int32) -> Int32 {
        func rank(_ code: Int32) -> Int { code == finding ? 2 : code == notExhaustive ? 1 : 0 }
        return rank(b) > rank(a) ? b : a
    }
}

/// The `racelab` command: dispatches to a subcommand.
public struct RaceLab {
    var environment: [String: String]
    /// Where a long search reports progress ("" clears the line); nil when output is
    /// not a terminal, so pipes and tests see nothing extra.
    public var progress: (@Sendable (String) -> Void)?
    /// Step mode's raw-mode terminal, when standard input and output are one.
    public var terminal: Terminal?
    /// Step mode's next line of input when there is no terminal (tests give their own).
    public var readLine: () -> String? = { Swift.readLine(strippingNewline: true) }
    /// The racelab binary `grade` runs its workers from (`racelab grade-worker`), each
    /// file in a process with its own limits; `main.swift` gives this binary's own. nil
    /// grades in this process (a library caller's choice: a crash there ends it).
    public var workerExecutable: URL?

    /// This binary (on Linux `/proc/self/exe`), for `workerExecutable`.
    public static var currentExecutable: URL? { WorkerPool.currentExecutable }

    public init(environment: [String: String]) {
        self.environment = environment
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

    /// Writes all of `text` to a file descriptor (standard output, say); the reason
    /// when a write fails, or nil.
    public static func write(_ text: String, to fd: Int32) -> String? {
        FileIO.write(text, to: fd).map(FileIO.reason)
    }

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
            return CommandOutput(stderr: text, exitCode: ExitCode.usage)
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
            guard let entry = RaceLab.entry(topic), entry.listed else {
                throw UsageError("unknown subcommand '\(topic)'" + suggestion(topic, RaceLab.commandNames), command: RaceLab.root)
            }
            return CommandOutput(stdout: entry.spec.help)
        default:
            guard let entry = RaceLab.entry(first) else {
                throw UsageError("unknown subcommand '\(first)'" + suggestion(first, RaceLab.commandNames), command: RaceLab.root)
            }
            return try entry.make(self).run(rest)
        }
    }

    var locator: ScenarioLocator { ScenarioLocator(environment: environment) }
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
        case .notFound(let message): return .failure(CommandOutput(stderr: "error: \(message)\n", exitCode: ExitCode.usage))
        case .unreadable(let failure): return .failure(CommandOutput(stderr: "error: \(failure.message)\n", exitCode: failure.exitCode))
        }
    }
    do throws(ScriptError) {
        return .success(try Scenario.load(name: source.name, file: source.file))
    } catch {
        return .failure(CommandOutput(stderr: error.rendered, exitCode: ExitCode.scriptError))
    }
}
