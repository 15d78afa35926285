import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// `racelab course -o FILE`: the course as a static site of one page: the playground,
/// with every shipped scenario and exercise as a level, in order, and each student's
/// progress kept in their browser.
struct CourseCommand: Command {
    static let spec = CommandSpec(
        name: "course",
        abstract: "Write the course as one page: every scenario and exercise as a level, with the engine.",
        usage: "racelab course --output <file>",
        options: [.init(name: "output", value: "file", help: "The page to write (index.html, to host the course as a site).", short: "o")],
        discussion: """
            The page is the playground (see 'racelab help export') with a list of levels:
            the five canonical scenarios, the others by name, then the exercises from
            easy to hard. A scenario is done once it is explored or verified; an
            exercise once it is graded and passes. Progress is kept in the browser's
            local storage. The page works offline, from disk, or from any static host.
            """
    )

    /// The scenarios every course starts with, in this order.
    static let canonical = ["singleton-race", "array-mutation", "stale-results", "dealloc-wrong-thread", "deadlock"]

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed, locator = context.locator
        if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'", command: Self.spec) }
        guard let output = parsed.values["output"] else { throw UsageError("say where to write the page: --output index.html", command: Self.spec) }
        let names = locator.names()
        let ordered = Self.canonical.filter(names.contains) + names.filter { !Self.canonical.contains($0) }
        var levels: [PlaygroundPage.Level] = []
        var first: (file: String, source: String, title: String)?
        for name in ordered {
            guard case .success(let scenario) = loadScenario(name, locator) else { continue }
            levels.append(.init(path: PlaygroundPage.shippedPath(name, exercise: false), title: scenario.title, kind: "scenario"))
            first = first ?? (file: "\(name).race", source: scenario.file.text, title: "RaceLab course")
        }
        let rank = ["easy": 0, "medium": 1, "hard": 2]
        let exercises = ((try? locator.exercises().get().exercises) ?? []).sorted {
            (rank[$0.level] ?? 1, $0.id) < (rank[$1.level] ?? 1, $1.id)
        }
        for exercise in exercises {
            levels.append(
                .init(
                    path: PlaygroundPage.shippedPath(exercise.id, exercise: true), title: exercise.title,
                    kind: "\(exercise.kind.rawValue), \(exercise.level)"))
        }
        guard let first else {
            return CommandOutput(stderr: "error: \(ScenarioLocator.noScenarios)\n", status: .noInput)
        }
        switch ExportCommand.playgroundPage(first, levels: levels, locator) {
        case .success(let page):
            if let failure = locator.files.write(page, output, false) {
                return CommandOutput(stderr: "error: \(failure.message)\n", status: failure.status)
            }
            return CommandOutput(stdout: "wrote \(output): \(Words.count(levels.count, "level"))\n")
        case .failure(let refusal): return refusal
        }
    }
}
