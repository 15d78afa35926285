import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// `racelab explore NAME`: every interleaving, its outcomes, and the simplest failure.
struct ExploreCommand: Command {
    var progress: (@Sendable (String) -> Void)?

    static let boundOptions: [CommandSpec.Option] = [
        .init(
            name: "reduction", value: "reduction",
            help:
                "dpor (the default: one execution per trace) or none\n(every interleaving, for counts you can check by hand);\nwith the stateful search, none (the default) or sleep-sets\n(fewer steps and states; counts are final states)."
        ),
        .init(
            name: "search", value: "search",
            help:
                "auto (the default: DPOR and the stateful search in turns,\nthe first to finish wins), dpor, or stateful (every\ndistinct state once: loops that never end, livelock)."
        ),
        .init(name: "max-states", value: "n", help: "States the stateful search may store (default 5000000)."),
        .init(
            name: "all-outcomes", value: nil,
            help:
                "Explore everything, past a failure too (a search stops\n100000 states or steps after its first failure: the verdict\nneeds only that, and the outcomes shown are then partial)."
        ),
        .init(
            name: "first-failure", value: nil,
            help: "Stop at the first failure: the verdict and its counterexample,\nthe outcomes and races found until then."),
        .init(
            name: "max-memory", value: "MB",
            help: "Memory a search may hold: states, graph and waiting worlds,\nor the current execution's worlds (default 1024)."),
        .init(name: "max-steps", value: "n", help: "Steps one execution may take (default 2000, at most 20000)."),
        .init(name: "max-executions", value: "n", help: "Executions before the search stops (default 1000000)."),
        .init(name: "preemption-bound", value: "n", help: "Preemptions one execution may make (default: no bound)."),
        .init(name: "time-limit", value: "seconds", help: "Stop the search after this long (default 60)."),
    ]

    /// Said whenever a strict-priority scheduler decides who runs.
    static let strictPriorityNote =
        "Scheduling: strict priority: only the highest-priority threads that can run may take the next step (ties are explored), so every verdict is over the schedules such a scheduler allows.\n"

    static let spec = CommandSpec(
        name: "explore",
        abstract: "Visit every interleaving: outcomes, verdicts, and the simplest counterexample.",
        usage: "racelab explore <name> [--fix <fix> | --all-fixes] [--search \(SearchChoice.usage)] [--format \(TextOrJSON.usage)] [bounds]",
        arguments: [("name", "A scenario name (see 'racelab list') or a path to a .race file.")],
        options: [
            .init(name: "fix", value: "fix", help: "Explore a fix instead of the broken version."),
            .init(name: "all-fixes", value: nil, help: "Explore the broken version and every fix, one after another."),
            .init(
                name: "strategy", value: "priority",
                help: "priority: only the schedules a strict-priority scheduler allows\n(the highest-priority runnable thread runs; ties are explored)."),
            .textOrJSON, Spoilers.option, ScenarioLocator.exercisesOption,
        ] + boundOptions,
        discussion: """
            A bound that cuts the search is reported ("not exhaustive: …"): the verdict is
            then not a proof. Exit status: 0 proven (every interleaving passes), 1 some
            interleaving fails, 2 no failure found but the search was cut, 64 usage error,
            65 script error.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let spec = Self.spec
        // One clock for the whole command: every search, counterexamples included.
        let config = try Self.config(parsed, spec).started()
        let wantsJSON = try parsed.wantsJSON(spec)
        let scenario: Scenario
        switch try context.scenario() {
        case .success(let s): scenario = s
        case .failure(let output): return output
        }
        if parsed.flags.contains("all-fixes") && parsed.values["fix"] != nil {
            throw UsageError("--fix and --all-fixes cannot be combined", command: spec)
        }
        let strictPriority = try parsed.value("strategy", spec) == ExploreStrategy.priority
        let versions = parsed.flags.contains("all-fixes") ? scenario.versions : [try context.version(in: scenario)]
        let held = context.guarded(scenario, versions)
        let guarded = held?.kind
        if let held, held.kind == .predictIt { return Spoilers.refusal("explore", scenario, as: parsed.positionals[0], held) }
        var out = "\(scenario.name): \(scenario.title)\n"
        var explorations: [JSON] = []
        var worst = ExitCode.success
        for version in versions {
            let fix = version.fix
            var program = version.program
            if strictPriority { program.strictPriority = true }
            // On a guarded exercise a counterexample would be an answer: none is made.
            let analysis = Analysis.of(
                program, config: config, needs: .init(counterexample: guarded == nil), progress: ProgressLine(sink: progress).callback)
            var result = analysis.exploration
            // A break-it exercise's answer is any failing schedule: none is shown.
            if guarded == .breakIt {
                for index in result.outcomes.indices { result.outcomes[index].schedule = [] }
            }
            let counterexample = analysis.replayedCounterexample
            explorations.append(
                ExplorationJSON(program: program).render(result, version: fix, counterexample: counterexample?.0))
            out += "\nExploring \(Words.version(version)) (\(Words.search(result))).\n"
            if program.strictPriority { out += Self.strictPriorityNote }
            if let reason = result.searchReason { out += "Search chosen: \(Words.searchReason(reason))\n" }
            let replay = ReplayCommand(parsed.positionals[0], fix: fix)
            out += ExplorationRenderer(program: program).render(result, counterexample: counterexample, replay: replay)
            if let held, held.kind == .breakIt, result.failingExecutions > 0 { out += Spoilers.hiddenCounterexample(held) }
            // 0, 1 or 2: each is an ExitCode.
            let code = ExitCode(rawValue: result.verdict().exitStatus)!
            // With --all-fixes, the verdict is about the fixes that are meant to work.
            if versions.count == 1 || version.role == .fix { worst = ExitCode.worse(worst, code) }
        }
        if wantsJSON {
            let json = ExplorationJSON.document(scenario, explorations: explorations)
            return CommandOutput(stdout: json.serialized() + "\n", status: worst)
        }
        return CommandOutput(stdout: out, status: worst)
    }

    /// The search and bounds from the command line, each checked against its limits.
    /// With neither `--search` nor `--reduction`, or with `--search auto`, the command
    /// chooses the search itself; `--reduction` alone asks for the stateless search.
    static func config(_ parsed: ParsedArguments, _ spec: CommandSpec) throws(UsageError) -> ExploreConfig {
        var config = ExploreConfig()
        let search: SearchChoice? = try parsed.value("search", spec)
        let reduction: ReductionChoice? = try parsed.value("reduction", spec)
        switch (reduction, search) {
        case (nil, _): break
        case (.sleepSets, nil), (.sleepSets, .stateful):
            // Sleep sets are the reduction the stateful search takes: they ask for it.
            config.sleepSets = true
        case (.sleepSets, let search?):
            throw UsageError("--reduction sleep-sets is for the stateful search, not --search \(search.rawValue)", command: spec)
        case (.dpor, .stateful):
            throw UsageError("the stateful search takes --reduction none or sleep-sets, not 'dpor'", command: spec)
        case (.everyInterleaving, _): config.reduction = .none
        case (.dpor, _): config.reduction = .dpor
        }
        config.search =
            search == .auto || (search == nil && reduction == nil) ? .automatic : search == .stateful || config.sleepSets ? .stateful : .stateless
        let limits = ExploreConfig.limits
        let square = " (the search keeps an order over every pair of an execution's steps: its memory grows with the square of the bound)"
        if let n = try parsed.number("max-steps", in: limits.maxSteps, spec, why: square) { config.maxSteps = n }
        if let n = try parsed.number("max-executions", in: limits.maxExecutions, spec) { config.maxExecutions = n }
        if let n = try parsed.number("preemption-bound", in: limits.preemptionBound, spec) { config.preemptionBound = n }
        if let n = try parsed.number("time-limit", in: limits.timeLimit, spec) { config.timeLimit = n }
        if let n = try parsed.number("max-states", in: limits.maxStates, spec) { config.maxStates = n }
        if let n = try parsed.number("max-memory", in: 1...1_048_576, spec) { config.maxStateMemory = n << 20 }
        switch (parsed.flags.contains("all-outcomes"), parsed.flags.contains("first-failure")) {
        case (true, true): throw UsageError("--all-outcomes goes past the first failure and --first-failure stops there: give one", command: spec)
        case (true, false): config.failureMargin = nil
        case (false, true): config.failureMargin = 0
        case (false, false): break
        }
        return config
    }
}

/// The live line of a long search: executions, executions per second, and a rough
/// estimate of the total, redrawn at most four times a second.
final class ProgressLine: @unchecked Sendable {
    let sink: (@Sendable (String) -> Void)?
    let start = HostClock.nanoseconds()
    var lastDraw: Int64?
    var drew = false

    init(sink: (@Sendable (String) -> Void)?) {
        self.sink = sink
    }

    deinit {
        if drew { sink?("") }
    }

    var callback: Explorer.Progress? {
        guard sink != nil else { return nil }
        return { [self] result in
            let now = HostClock.nanoseconds()
            if let lastDraw, now - lastDraw < 250_000_000 { return true }
            lastDraw = now
            drew = true
            let seconds = max(Double(now - start) / 1e9, 0.001)
            var line: String
            if result.search == .stateful {
                // The stateful search counts states; its estimate is what it has seen.
                line = "exploring: \(result.states) states, \(Int(Double(result.states) / seconds)) per second"
            } else {
                line = "exploring: \(result.executions) executions, \(Int(Double(result.executions) / seconds)) per second"
                if result.estimate > result.executions { line += ", roughly \(result.estimate) in all" }
            }
            sink?(line)
            return true
        }
    }
}
