import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// `racelab export NAME --format svg|mermaid|dot`: a run as a picture.
struct ExportCommand: Command {

    /// The most steps a picture shows.
    static let maxSteps = 1_000

    static let spec = CommandSpec(
        name: "export",
        abstract: "Draw a run (SVG timeline, Mermaid sequence diagram, DOT wait-for graph), or write a lesson page or a playground.",
        usage:
            "racelab export <name> [--fix <fix>] [--schedule <schedule> | --counterexample | --story] --format \(ExportFormat.usage) [--output <file>]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [
            .init(name: "fix", value: "fix", help: "Draw a fix instead of the broken version."),
            .init(name: "schedule", value: "schedule", help: "The run to draw: thread names, one per step, or a named schedule."),
            .init(name: "counterexample", value: nil, help: "Draw the simplest failing run 'explore' finds."),
            .init(name: "story", value: nil, help: "Draw the scenario's story (the default, when it has one)."),
            .init(
                name: "format", value: "format",
                help:
                    "svg (a timeline), mermaid (a sequence diagram), dot (a wait-for or\nlock-order graph), html (a lesson page where the reader is the\nscheduler) or playground (the engine in a page: edit and explore)."
            ),
            .init(name: "output", value: "file", help: "Write to this file instead of standard output (also -o).", short: "o"),
            .init(
                name: "max-states", value: "n",
                help:
                    "The lesson page's budget: states a version may hold (default 5000,\nat most 200000). Past it the page holds the states nearest the\nstart, the story and the shortest failing run, and says so."
            ),
            .init(
                name: "time-limit", value: "seconds",
                help: "One clock for every search the picture or page needs\n(default 60); a version it cuts says so."),
            Spoilers.option, ScenarioLocator.exercisesOption,
        ],
        discussion: """
            Without --schedule, --counterexample or --story, the story is drawn, or the
            round-robin run if the scenario has none. A run is drawn to its end; one that
            does not end within 1000 steps, as far as its schedule goes. The SVG grows
            downward, one row per step. DOT draws a run that deadlocks as a wait-for graph,
            or one that takes two locks in opposite orders as a lock-order graph.
            The HTML page embeds every reachable state of every version, within its
            budget (--max-states). The playground embeds the engine, built as
            WebAssembly by .ci/build-wasm (or the file RACELAB_WASM names), and every
            shipped scenario and exercise: it works offline, from disk.
            Exit status: 0 written, 64 usage error, 65 script error or nothing to draw
            (no deadlock, no failing run), 73 the output cannot be created.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let spec = Self.spec
        let format: ExportFormat = try parsed.value("format", spec) ?? .svg
        if parsed.values["max-states"] != nil && format != .html {
            throw UsageError("--max-states is the lesson page's budget: it goes with --format html", command: spec)
        }
        let choices = [parsed.values["schedule"] != nil, parsed.flags.contains("counterexample"), parsed.flags.contains("story")]
        if choices.filter({ $0 }).count > 1 {
            throw UsageError("--schedule, --counterexample and --story each name the run to draw: give one", command: spec)
        }
        // One clock for every search of the command: each version's, and its counterexample.
        var config = ExploreConfig.automatic
        if let n = try parsed.number("time-limit", in: ExploreConfig.limits.timeLimit, spec) { config.timeLimit = n }
        config = config.started()
        let (scenario, version): (Scenario, Version)
        switch try context.version() {
        case .success(let loaded): (scenario, version) = loaded
        case .failure(let output): return output
        }
        let fix = version.fix, program = version.program
        if format == .playground {
            if choices.contains(true) || parsed.values["fix"] != nil {
                throw UsageError("the playground holds the whole program: it takes no --fix, --schedule, --counterexample or --story", command: spec)
            }
            return playground(scenario, context)
        }
        // A break-it or predict-it exercise's story and counterexample are its answer.
        // The lesson page holds every version's every state, not one run: a student's
        // break-it or predict-it exercise would hold its answer.
        let held = context.guarded(scenario, format == .html ? scenario.versions : [version])
        if let held, parsed.values["schedule"] == nil {
            return Spoilers.refusal("export", scenario, as: parsed.positionals[0], held, own: true)
        }
        if format == .html {
            if let held { return Spoilers.refusal("export --format html", scenario, as: parsed.positionals[0], held) }
            let budget = try parsed.number("max-states", in: 1...200_000, spec) ?? LessonPage.defaultMaxStates
            let lesson = Lesson.of(scenario, maxStates: budget, config: config)
            let page = LessonPage(lesson: lesson, selected: fix, argument: parsed.positionals[0]).render()
            return write(page, parsed.values["output"], context.locator.files)
        }
        var schedule: Schedule?
        var decisive: (first: Int, second: Int)?
        var what: String
        if let text = parsed.values["schedule"] {
            let named = scenario.schedules(fix: fix).first { $0.name == text }
            do throws(ScheduleError) {
                schedule = try Schedule(parsing: named?.steps ?? text, limit: 10_000)
            } catch {
                return CommandOutput(stderr: "error: \(error.message)\n", status: .usage)
            }
            what = named.map { "schedule '\($0.name)'" } ?? "the given schedule"
        } else if parsed.flags.contains("counterexample") {
            let analysis = Analysis.of(program, config: config)
            let result = analysis.exploration
            guard let example = analysis.counterexample else {
                return CommandOutput(
                    stderr: "error: no failing run to draw: \(result.failingExecutions == 0 ? "every interleaving passes" : "none could be replayed")\n",
                    status: .scriptError)
            }
            schedule = example.schedule
            decisive = example.why.map { ($0.first, $0.second) }
            what = "the simplest counterexample"
        } else if let story = scenario.schedules(fix: fix).first(where: { $0.name == "story" }) {
            schedule = try? Schedule(parsing: story.steps, limit: 10_000)
            what = "schedule 'story'"
        } else {
            if parsed.flags.contains("story") {
                return CommandOutput(stderr: "error: '\(scenario.name)' has no story schedule\n", status: .usage)
            }
            what = "the round-robin schedule"
        }
        // A run is drawn to its end, within a picture's budget of steps; one that does
        // not end in it (a program that runs forever) as far as its schedule goes.
        func run(limit: Int) throws(ScheduleError) -> Run {
            let runner = Runner(program: program, maxSteps: limit)
            if let schedule {
                var scheduler = FixedScheduler(schedule)
                return try runner.run(&scheduler)
            }
            var scheduler = RoundRobinScheduler()
            return try runner.run(&scheduler)
        }
        var result: Run
        do throws(ScheduleError) {
            result = try run(limit: Self.maxSteps)
            if result.end == .stepLimit, let schedule, !schedule.isEmpty { result = try run(limit: schedule.count) }
        } catch {
            return CommandOutput(stderr: "error: \(error.message)\n", status: .usage)
        }
        let title = "\(scenario.name) (\(Words.version(version))), \(what)"
        var text: String
        switch format {
        case .svg: text = SVGTimeline(replay: ReplayedRun(result), title: title, decisive: decisive).render()
        case .mermaid: text = MermaidSequence(run: result, title: title).render()
        case .dot, .html, .playground:
            // A deadlock's wait-for graph; else the lock order of a run that took two
            // locks in opposite orders, which can deadlock in another interleaving.
            let graph = DOTGraph(replay: ReplayedRun(result), title: title)
            guard let drawn = graph.waitFor() ?? graph.lockOrder() else {
                return CommandOutput(
                    stderr:
                        "error: \(what) of \(scenario.name) does not deadlock (it \(result.end.rawValue)) and takes no two locks in opposite orders: a DOT graph needs a deadlock or a lock-order inversion\n",
                    status: .scriptError)
            }
            text = drawn
        }
        return write(text, parsed.values["output"], context.locator.files)
    }

    /// The picture on standard output, or in a file.
    func write(_ text: String, _ path: String?, _ files: FileSystem) -> CommandOutput {
        guard let path else { return CommandOutput(stdout: text) }
        if let failure = files.write(text, path, false) {
            return CommandOutput(stderr: "error: \(failure.message)\n", status: failure.status)
        }
        return CommandOutput(stdout: "wrote \(path)\n")
    }
}
