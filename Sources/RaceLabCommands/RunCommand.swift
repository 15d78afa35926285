import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab run NAME`: one run under one schedule, explained.
struct RunCommand: Command {

    static let spec = CommandSpec(
        name: "run",
        abstract: "Run a scenario under one schedule and explain what happened.",
        usage: "racelab run <name> [--fix <fix>] [--schedule <schedule> | --seed <n> [--strategy <strategy>]] [--format <format>]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [
            .init(name: "fix", value: "fix", help: "Run a fix instead of the broken version (see 'racelab show')."),
            Spoilers.option, ScenarioLocator.exercisesOption,
            .init(
                name: "schedule", value: "schedule",
                help: "Thread names, one per step (\"A B B main\", or \"A*2 B\"),\nor a schedule named in the scenario, like 'story'."),
            .init(name: "seed", value: "n", help: "Seed for the random or PCT strategy; alone, it means --strategy random."),
            .init(
                name: "strategy", value: "strategy",
                help: "round-robin (the default), random, pct, or priority (a strict-priority\nscheduler: the highest-priority runnable thread runs)."),
            .textOrJSON,
            .init(name: "max-steps", value: "n", help: "Stop a run after this many steps (default 10000)."),
        ],
        discussion: """
            Every run prints the schedule it took; pass it back with --schedule to replay
            the run exactly. Exit status: 0 no finding, 1 a finding, 64 usage error,
            65 script error.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let spec = Self.spec
        let wantsJSON = try parsed.wantsJSON(spec)
        let chosen: RunStrategy? = try parsed.value("strategy", spec)
        let seed = try parsed.seed(spec)
        let maxSteps = try parsed.number("max-steps", in: 1...10_000_000, spec) ?? 10_000
        if parsed.values["schedule"] != nil && (seed != nil || chosen != nil) {
            throw UsageError("--schedule cannot be combined with --seed or --strategy", command: spec)
        }
        let strategy = chosen ?? (seed != nil ? .random : .roundRobin)
        if (strategy == .random || strategy == .pct) && seed == nil {
            throw UsageError("--strategy \(strategy.rawValue) needs --seed <n>", command: spec)
        }

        let (scenario, version): (Scenario, Version)
        switch try context.version() {
        case .success(let loaded): (scenario, version) = loaded
        case .failure(let output): return output
        }
        let fixName = version.fix
        var program = version.program
        if strategy == .priority { program.strictPriority = true }
        // An exercise's own schedules may be its answer; the student's 'answer' is
        // theirs. A schedule the command chooses (round robin, random, PCT, even one
        // thread at a time) may be the answer too: on a break-it or predict-it
        // exercise, a student runs schedules of their own.
        if let held = context.guarded(scenario, [version]) {
            guard let text = parsed.values["schedule"] else {
                return Spoilers.refusal("run" + (seed != nil ? " --seed" : ""), scenario, as: parsed.positionals[0], held, own: true)
            }
            if text != "answer", scenario.schedules(fix: fixName).contains(where: { $0.name == text }) {
                return Spoilers.refusal("run --schedule \(text)", scenario, as: parsed.positionals[0], held)
            }
        }
        let runner = Runner(program: program, maxSteps: maxSteps)
        let result: Run
        var description: String
        do throws(ScheduleError) {
            if let text = parsed.values["schedule"] {
                let named = scenario.schedules(fix: fixName).first { $0.name == text }
                var scheduler = try FixedScheduler(named?.steps ?? text, limit: maxSteps)
                result = try runner.run(&scheduler)
                description = named.map { "schedule '\($0.name)'" } ?? "given schedule"
                if scheduler.names.count < result.schedule.count {
                    description += " (it ran out after \(scheduler.names.count) steps; the rest ran without preemption)"
                }
            } else if strategy == .random {
                var scheduler = RandomScheduler(seed: seed!)
                result = try runner.run(&scheduler)
                description = "random schedule, seed \(seed!)"
            } else if strategy == .pct {
                var scheduler = PCTScheduler(seed: seed!)
                result = try runner.run(&scheduler)
                description = "PCT schedule, seed \(seed!)"
            } else {
                var scheduler = RoundRobinScheduler()
                result = try runner.run(&scheduler)
                description = "round-robin schedule"
            }
            if program.strictPriority {
                description += " of a strict-priority scheduler (only the highest-priority threads that can run may take a step)"
            }
        } catch {
            // The steps that did run, so the reader sees where the schedule went wrong.
            let trace = error.partial.flatMap { $0.schedule.isEmpty ? nil : "The run up to there:\n" + ColumnTrace(run: $0).render() } ?? ""
            return CommandOutput(stdout: trace, stderr: "error: \(error.message)\n", status: .usage)
        }
        let exit = result.failed ? ExitCode.finding : ExitCode.success
        if wantsJSON {
            return CommandOutput(stdout: JSONRenderer(scenario: scenario.name, fix: fixName).render(result), status: exit)
        }
        var title = "\(scenario.name): \(scenario.title)\nRunning \(Words.version(version)) under the \(description)."
        if let fixName, let reason = scenario.fix(named: fixName)?.expectedFailure {
            title += "\nThis fix is meant to fail: \(reason)"
        }
        let replay = ReplayCommand(parsed.positionals[0], fix: fixName)
        return CommandOutput(stdout: TextRenderer(title: title, replay: replay).render(result), status: exit)
    }
}
