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
              list                    List the shipped scenarios and their fixes, and the exercises.
              show                    Show a scenario's story, its code, and each fix as a diff.
              run                     Run a scenario under one schedule and explain what happened.
              explore                 Visit every interleaving: outcomes, verdicts, the simplest counterexample.
              verify                  The broken version and every fix side by side, each explored exhaustively.
              step                    Be the scheduler: pick which thread runs next, with undo.
              export                  Draw a run: an SVG timeline, a Mermaid sequence diagram, a DOT wait-for graph.
              grade                   Grade exercise submissions: every interleaving, a reason for each failure.
              hint                    Show an exercise's task and its hints, one more each time you ask.
              new                     Write a commented starter for an exercise of your own.

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
        let commands = ["list", "show", "run", "explore", "verify", "step", "export", "grade", "hint", "new", "help"]
        switch first {
        case "-h", "--help":
            return CommandOutput(stdout: RaceLab.root.help)
        case "--version":
            return CommandOutput(stdout: "racelab \(RaceLab.version)\n")
        case "help":
            guard let topic = rest.first else { return CommandOutput(stdout: RaceLab.root.help) }
            guard let spec = RaceLab.spec(topic) else {
                throw UsageError("unknown subcommand '\(topic)'" + suggestion(topic, commands), command: RaceLab.root)
            }
            return CommandOutput(stdout: spec.help)
        case "list":
            return try ListCommand(locator: locator).run(rest)
        case "show":
            return try ShowCommand(locator: locator).run(rest)
        case "run":
            return try RunCommand(locator: locator).run(rest)
        case "explore":
            return try ExploreCommand(locator: locator, progress: progress).run(rest)
        case "verify":
            return try VerifyCommand(locator: locator, progress: progress).run(rest)
        case "export":
            return try ExportCommand(locator: locator).run(rest)
        case "grade":
            return try GradeCommand(locator: locator, progress: progress, workerExecutable: workerExecutable).run(rest)
        case "grade-worker":
            // Internal: not listed in the help (see GradeWorkerCommand).
            return try GradeWorkerCommand(environment: environment).run(rest)
        case "hint":
            return try HintCommand(locator: locator).run(rest)
        case "step":
            return try StepCommand(locator: locator, environment: environment, terminal: terminal, readLine: readLine).run(rest)
        case "new":
            return try NewCommand().run(rest)
        default:
            throw UsageError("unknown subcommand '\(first)'" + suggestion(first, commands), command: RaceLab.root)
        }
    }

    var locator: ScenarioLocator { ScenarioLocator(environment: environment) }

    static func spec(_ name: String) -> CommandSpec? {
        switch name {
        case "list": return ListCommand.spec
        case "show": return ShowCommand.spec
        case "run": return RunCommand.spec
        case "explore": return ExploreCommand.spec
        case "verify": return VerifyCommand.spec
        case "step": return StepCommand.spec
        case "export": return ExportCommand.spec
        case "grade": return GradeCommand.spec
        case "hint": return HintCommand.spec
        case "new": return NewCommand.spec
        default: return nil
        }
    }
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
