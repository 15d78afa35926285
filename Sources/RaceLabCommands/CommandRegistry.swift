import RaceLabEngine
import RaceLabGrading

/// A subcommand: its spec (name, help, options) and how it runs from its context.
package protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput
}

extension Command {
    /// Every command's prologue: its arguments parsed and checked against its spec,
    /// `--help` (or `-h`) answered with the spec's help, and the scenario folders the
    /// arguments name added to `locator`'s.
    func run(_ arguments: [String], locator: ScenarioLocator) throws(UsageError) -> CommandOutput {
        let parsed = try Self.spec.parse(arguments)
        if parsed.wantsHelp { return CommandOutput(stdout: Self.spec.help) }
        return try run(CommandContext(spec: Self.spec, parsed: parsed, locator: locator.adding(exercises: parsed.values["exercises"])))
    }
}

/// What a command starts from: its arguments parsed against its spec, the scenario
/// and exercise folders (the shipped ones and `--exercises`), and from them the
/// scenario it names and what of it the caller may see.
package struct CommandContext {
    package let spec: CommandSpec
    package let parsed: ParsedArguments
    package let locator: ScenarioLocator

    /// Whether the caller may see every answer (`--teacher`, `RACELAB_TEACHER=1`).
    var isTeacher: Bool { Spoilers.teacher(parsed, locator.environment) }

    /// What of `versions` of `scenario` is kept from the caller (`Spoilers.guarded`):
    /// nil for a teacher, or programs that hold no exercise's answer.
    func guarded(_ scenario: Scenario, _ versions: [Version]) -> Spoilers.Guard? {
        guard !isTeacher else { return nil }
        // A folder that cannot be read hides no shipped exercise: those are built in.
        return Spoilers.guarded(scenario, versions.map { $0.program }) { (try? locator.exercises().get().exercises) ?? [] }
    }

    /// The one scenario the arguments name, loaded, or the output that says why not.
    func scenario() throws(UsageError) -> Result<Scenario, CommandOutput> {
        guard parsed.positionals.count == 1 else {
            throw UsageError(
                parsed.positionals.isEmpty ? "missing scenario name" : "expected one scenario name, got \(parsed.positionals.count)", command: spec)
        }
        return loadScenario(parsed.positionals[0], locator)
    }

    /// The scenario and the version `--fix` names, or the output that says why not.
    func version() throws(UsageError) -> Result<(Scenario, Version), CommandOutput> {
        switch try scenario() {
        case .success(let scenario): return .success((scenario, try version(in: scenario)))
        case .failure(let output): return .failure(output)
        }
    }

    /// The version of `scenario` that `--fix` names (none: the broken version), or a
    /// usage error naming the fixes there are.
    func version(in scenario: Scenario) throws(UsageError) -> Version {
        let name = parsed.values["fix"]
        if let version = scenario.version(name) { return version }
        let names = scenario.fixes.map { $0.name }
        throw UsageError(
            "scenario '\(scenario.name)' has no fix '\(name ?? "")'" + suggestion(name ?? "", names)
                + " (fixes: \(names.isEmpty ? "none" : names.joined(separator: ", ")))", command: nil)
    }
}

extension RaceLab {
    /// One subcommand in the registry: its spec, whether the help lists it, and how it
    /// runs, as this `racelab`'s settings make it (a closure, not an existential: the
    /// browser build's Embedded Swift has none).
    package struct Entry: Sendable {
        let spec: CommandSpec
        let listed: Bool
        let run: @Sendable (RaceLab, [String], ScenarioLocator) throws(UsageError) -> CommandOutput

        package init<C: Command>(_ type: C.Type, listed: Bool = true, _ make: @escaping @Sendable (RaceLab) -> C) {
            spec = type.spec
            self.listed = listed
            run = { racelab, arguments, locator throws(UsageError) in try make(racelab).run(arguments, locator: locator) }
        }
    }

    /// Every subcommand, in the order the help lists them: dispatch, `help NAME`, the
    /// root help's list and "did you mean" all read it, and nothing else names them.
    static let registry: [Entry] = [
        Entry(ListCommand.self) { _ in ListCommand() },
        Entry(ShowCommand.self) { _ in ShowCommand() },
        Entry(RunCommand.self) { _ in RunCommand() },
        Entry(ExploreCommand.self) { ExploreCommand(progress: $0.progress) },
        Entry(VerifyCommand.self) { VerifyCommand(progress: $0.progress) },
        Entry(StepCommand.self) { StepCommand(terminal: $0.terminal, readLine: $0.readLine) },
        Entry(ExportCommand.self) { _ in ExportCommand() },
        Entry(GradeCommand.self) { GradeCommand(progress: $0.progress, workers: $0.workers) },
        Entry(HintCommand.self) { _ in HintCommand() },
        Entry(CourseCommand.self) { _ in CourseCommand() },
        Entry(NewCommand.self) { _ in NewCommand() },
    ]

    /// Every subcommand this `racelab` has: the registry's, then this platform's own.
    var entries: [Entry] { Self.registry + unlisted }

    /// The subcommand named `name`, listed or not.
    func entry(_ name: String) -> Entry? {
        entries.first { $0.spec.name == name }
    }

    /// The names a person may mean: every listed subcommand, and `help`.
    static var commandNames: [String] { registry.filter { $0.listed }.map { $0.spec.name } + ["help"] }

    /// The root help's list: each listed subcommand and what it does.
    static var subcommandList: String {
        String(registry.filter { $0.listed }.map { CommandSpec.row($0.spec.name, $0.spec.abstract) }.joined().dropLast())
    }
}
