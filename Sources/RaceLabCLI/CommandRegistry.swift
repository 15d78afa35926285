/// A subcommand: its spec (name, help, options) and how it runs once its arguments
/// are parsed against the spec.
protocol Command {
    static var spec: CommandSpec { get }
    func run(_ parsed: ParsedArguments) throws(UsageError) -> CommandOutput
}

extension Command {
    /// Every command's prologue: its arguments parsed and checked against its spec,
    /// and `--help` (or `-h`) answered with the spec's help.
    func run(_ arguments: [String]) throws(UsageError) -> CommandOutput {
        let parsed = try Self.spec.parse(arguments)
        if parsed.wantsHelp { return CommandOutput(stdout: Self.spec.help) }
        return try run(parsed)
    }
}

extension RaceLab {
    /// One subcommand in the registry: its spec, whether the help lists it, and the
    /// command as this `racelab`'s settings make it.
    struct Entry: Sendable {
        let spec: CommandSpec
        let listed: Bool
        let make: @Sendable (RaceLab) -> any Command

        init<C: Command>(_ type: C.Type, listed: Bool = true, _ make: @escaping @Sendable (RaceLab) -> C) {
            spec = type.spec
            self.listed = listed
            self.make = make
        }
    }

    /// Every subcommand, in the order the help lists them: dispatch, `help NAME`, the
    /// root help's list and "did you mean" all read it, and nothing else names them.
    static let registry: [Entry] = [
        Entry(ListCommand.self) { ListCommand(locator: $0.locator) },
        Entry(ShowCommand.self) { ShowCommand(locator: $0.locator) },
        Entry(RunCommand.self) { RunCommand(locator: $0.locator) },
        Entry(ExploreCommand.self) { ExploreCommand(locator: $0.locator, progress: $0.progress) },
        Entry(VerifyCommand.self) { VerifyCommand(locator: $0.locator, progress: $0.progress) },
        Entry(StepCommand.self) { StepCommand(locator: $0.locator, environment: $0.environment, terminal: $0.terminal, readLine: $0.readLine) },
        Entry(ExportCommand.self) { ExportCommand(locator: $0.locator) },
        Entry(GradeCommand.self) { GradeCommand(locator: $0.locator, progress: $0.progress, workerExecutable: $0.workerExecutable) },
        Entry(HintCommand.self) { HintCommand(locator: $0.locator) },
        Entry(NewCommand.self) { _ in NewCommand() },
        // Internal: `grade` runs it in each worker process.
        Entry(GradeWorkerCommand.self, listed: false) { GradeWorkerCommand(environment: $0.environment) },
    ]

    /// The subcommand named `name`, listed or not.
    static func entry(_ name: String) -> Entry? {
        registry.first { $0.spec.name == name }
    }

    /// The names a person may mean: every listed subcommand, and `help`.
    static var commandNames: [String] { registry.filter(\.listed).map(\.spec.name) + ["help"] }

    /// The root help's list: each listed subcommand and what it does.
    static var subcommandList: String {
        registry.filter(\.listed).map { "  " + $0.spec.name + String(repeating: " ", count: max(1, 24 - $0.spec.name.count)) + $0.spec.abstract }
            .joined(separator: "\n")
    }
}
