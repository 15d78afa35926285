import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab step NAME`: be the scheduler. On a terminal, one key per step; otherwise
/// one command per line of standard input, with plain output.
struct StepCommand: Command {
    /// The raw-mode terminal, when standard input and output are one.
    var terminal: KeyTerminal?
    /// The next line of standard input (line-by-line mode).
    var readLine: () -> String?

    static let spec = CommandSpec(
        name: "step",
        abstract: "Be the scheduler: pick which thread runs next, one step at a time, with undo.",
        usage: "racelab step <name> [--fix <fix>] [--challenge] [--schedule <schedule>] [--seed <n>] [--format \(TextOrJSON.usage)]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [
            .init(name: "fix", value: "fix", help: "Step through a fix instead of the broken version."),
            .init(name: "challenge", value: nil, help: "Play to reach the scenario's goal (\"make two MySingle\nobjects exist\"); a debrief follows."),
            .init(
                name: "schedule", value: "schedule",
                help: "Start after these steps (\"A B B\", or a schedule named in\nthe scenario, like 'story'), for example a counterexample."),
            .init(name: "seed", value: "n", help: "Seed for x (run the rest by random choice); default 1."),
            .init(
                name: "format", value: "format",
                help: "text (the default) or json: take the commands, then print\nthe last screen as data (threads, code, state, steps)."),
            Spoilers.option, ScenarioLocator.exercisesOption,
        ],
        discussion: """
            KEYS:
              1-9 run that thread's next step   Enter the default choice   u undo   r restart
              e explain the last step   s the schedule so far   x run the rest at random
              ? help   q quit (Ctrl-C and the end of input quit too)

            When standard input is not a terminal, each line is one command: a thread's
            number or name, an empty line for Enter, or u, r, e, s, x, ?, q. The screen
            honours NO_COLOR and the terminal's width (COLUMNS when not a terminal).
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let spec = Self.spec
        let seed = try parsed.seed(spec) ?? 1
        let wantsJSON = try parsed.wantsJSON(spec)
        let (scenario, version): (Scenario, Version)
        switch try context.version() {
        case .success(let loaded): (scenario, version) = loaded
        case .failure(let output): return output
        }
        let fix = version.fix, program = version.program
        var session = StepSession(program: program)
        if let text = parsed.values["schedule"] {
            let named = scenario.schedules(fix: fix).first { $0.name == text }
            let names: [String]
            do throws(ScheduleError) {
                names = try Schedule(parsing: named?.steps ?? text, limit: session.maxSteps).steps
            } catch {
                return CommandOutput(stderr: "error: \(error.message)\n", status: .usage)
            }
            for (index, name) in names.enumerated() {
                guard let thread = session.world.thread(named: name) else {
                    let known = session.world.threadNames
                    return CommandOutput(
                        stderr: "error: step \(index + 1) of the schedule: there is no thread '\(name)' at this point"
                            + suggestion(name, known) + "\n", status: .usage)
                }
                do throws(StepSession.Refusal) {
                    try session.step(thread)
                } catch {
                    return CommandOutput(stderr: "error: step \(index + 1) of the schedule: \(error.message)\n", status: .usage)
                }
            }
        }
        var controller = StepController(
            session: session, scenario: scenario, version: version, challenge: parsed.flags.contains("challenge"),
            seed: seed, argument: parsed.positionals[0])
        controller.held = context.guarded(scenario, [version])
        let environment = context.locator.environment
        let color = environment["NO_COLOR"].map { $0.isEmpty } ?? true
        if wantsJSON { return asData(&controller) }
        if let terminal {
            return interactive(&controller, terminal, color: color)
        }
        return lineByLine(&controller, width: environment["COLUMNS"].flatMap { Int($0) }.map { min(max($0, 20), 400) } ?? 100)
    }

    /// One command per line; after each, the screen again (when it changed) and a message.
    func lineByLine(_ controller: inout StepController, width: Int) -> CommandOutput {
        var out = controller.screen(width: width, color: false)
        if controller.session.isOver { out += "\n" + wrap(controller.finish(), width) + "\n" }
        var lineNumber = 0
        while let line = readLine() {
            lineNumber += 1
            let command = controller.command(line: line)
            let reaction = controller.handle(command)
            out += "\n> \(line.trimmingCharacters(in: " \t\r"))\n"
            if reaction.redraw { out += controller.screen(width: width, color: false) }
            if !reaction.message.isEmpty { out += (reaction.redraw ? "\n" : "") + wrap(reaction.message, width) + "\n" }
            if reaction.done { return CommandOutput(stdout: out) }
        }
        out += "\nEnd of input after \(Words.count(lineNumber, "command")). " + controller.quitText() + "\n"
        return CommandOutput(stdout: out)
    }

    /// `--format json`: every command from standard input, then the last screen as
    /// data, with the last command's message (a page draws its own screen from it).
    func asData(_ controller: inout StepController) -> CommandOutput {
        var message = controller.session.isOver ? controller.finish() : ""
        while let line = readLine() {
            let reaction = controller.handle(controller.command(line: line))
            message = reaction.message
            if reaction.done { break }
        }
        return CommandOutput(stdout: controller.json(message: message).serialized() + "\n")
    }

    /// One key per command on the alternate screen; the terminal is restored on every way out.
    func interactive(_ controller: inout StepController, _ terminal: KeyTerminal, color: Bool) -> CommandOutput {
        terminal.enter()
        var message = controller.session.isOver ? controller.finish() : "Press a thread's number to run its next step, ? for help."
        var exitCode = ExitCode.success
        while true {
            let width = terminal.width()
            let screen = controller.screen(width: width, color: color)
            let hint =
                "Keys: 1-\(min(9, controller.names.count)) run a thread, Enter default, u undo, r restart, e explain, s schedule, x random, ? help, q quit"
            terminal.draw(screen + "\n" + wrap(message.isEmpty ? hint : message, width) + "\n")
            guard let key = terminal.readKey() else { break }
            if key == 27 { terminal.discardPending() }
            if key == 3 { exitCode = .interrupted }
            let reaction = controller.handle(controller.command(key: key))
            message = reaction.message
            if reaction.done { break }
        }
        terminal.leave()
        // What stays on the normal screen: a won challenge's debrief, and the schedule.
        let final = (controller.debrief.map { $0 + "\n" } ?? "") + controller.quitText()
        return CommandOutput(stdout: final + "\n", status: exitCode)
    }

    func wrap(_ text: String, _ width: Int) -> String {
        text.wordWrapped(width).joined(separator: "\n")
    }
}
