import RaceLabEngine
import RaceLabLanguage

/// A scenario as one self-contained HTML page: its story and source; play mode, where
/// the reader picks which thread runs next (buttons, or a thread's number; u undoes, r
/// restarts, h looks ahead as step mode does) and sees each thread's code with its next
/// line marked, each step's sentence, the shared state as step mode shows it, and a
/// debrief when the goal is reached (a failure, or a livelock's loop gone round); the
/// story and the shortest failing run to watch; and, for the broken version and each
/// fix, its verdict and outcomes over every interleaving and its code, each version
/// with its own play mode. The page embeds each version's reachable state graph (each
/// state's display once, and the steps between states), so it needs no engine; past
/// `maxStates` a version keeps the states of the runs to watch and those nearest the
/// start and them, and the page says so. A link can name a version and carry moves:
/// `page.html#fix=mutex&moves=2,3,u`.
public struct LessonPage {
    public let scenario: Scenario
    /// The version shown first: nil for the broken one, or a fix's name.
    public let selected: String?
    public let maxStates: Int
    /// How the reader names the scenario to `racelab run` (its name, or its file's path).
    public let argument: String
    /// The bounds of every version's exploration: one started deadline bounds the
    /// whole page (a version it cuts says so in its verdict).
    public let config: ExploreConfig

    public static let defaultMaxStates = 5_000

    public init(
        scenario: Scenario, selected: String?, maxStates: Int = LessonPage.defaultMaxStates, argument: String? = nil,
        config: ExploreConfig = .automatic
    ) {
        self.scenario = scenario
        self.selected = selected
        self.maxStates = maxStates
        self.argument = argument ?? scenario.name
        self.config = config.started()
    }

    /// The challenge, as step mode states it.
    var goal: String { scenario.challenge ?? "make the run go wrong: break a check, crash it, or deadlock it" }

    /// Every version (the broken one, then each fix and variant), each with its graph,
    /// its verdict over every interleaving, its outcomes, its code, and the runs the
    /// reader can watch (its story, a counterexample) as moves.
    public func versions() -> (json: JSON, complete: [Bool], states: [Int]) {
        var versions: [JSON] = []
        var complete: [Bool] = []
        var sizes: [Int] = []
        for version in scenario.versions {
            let fix = version.fix, program = version.program
            let explorer = Explorer(program: program, config: config)
            let result = explorer.explore()
            let verdict = Words.verdictSummary(result)
            // The runs worth watching, kept whole however many states the version has.
            var runs: [(label: String, schedule: Schedule)] = []
            if let story = scenario.schedules(fix: fix).first(where: { $0.name == "story" }),
                let steps = try? Schedule(parsing: story.steps, limit: 10_000)
            {
                runs.append(("the story", steps))
            }
            if result.failingExecutions > 0, let example = explorer.counterexample(for: result) {
                runs.append(("the shortest failing run", example.schedule))
            }
            let (graph, space) = self.graph(program, keeping: runs.map(\.schedule))
            complete.append(space.isComplete)
            sizes.append(space.worlds.count)
            let outcomes: [JSON] = result.outcomes.map { count in
                .array([
                    .string(count.outcome.state.isEmpty ? "(no shared variables)" : count.outcome.state), .string("\(count.interleavings)"),
                    .bool(count.outcome.isFailure),
                ])
            }
            // A run the version cannot follow to its end or its failure (a story
            // written for another version) is not offered.
            let watch: [JSON] = runs.compactMap { run in
                let moves = Self.moves(run.schedule, in: space)
                guard moves.count == run.schedule.count || space.failures[Self.state(after: moves, in: space)] != nil else { return nil }
                return .array([.string(run.label), .array(moves.map { .int($0 + 1) })])
            }
            let info = fix.flatMap { scenario.fix(named: $0) }
            versions.append(
                .object([
                    ("name", fix.map(JSON.string) ?? .null), ("label", .string(Words.version(version))),
                    ("summary", .string(info.map { $0.variant ?? $0.summary } ?? "")),
                    ("code", .string(ScenarioCode.code(of: scenario, fix: fix))), ("verdict", .string(verdict)),
                    ("proven", .bool(result.verdict() == .proven)), ("outcomes", .array(outcomes)), ("watch", .array(watch)),
                    ("graph", graph),
                ]))
        }
        return (.array(versions), complete, sizes)
    }

    /// A schedule of thread names as the threads' numbers in the space, from the start
    /// as far as the space has its steps.
    static func moves(_ schedule: Schedule, in space: StateSpace) -> [ThreadID] {
        var state = 0
        var moves: [ThreadID] = []
        for name in schedule {
            guard let thread = space.worlds[state].thread(named: name),
                let edge = space.edges[state].first(where: { $0.thread == thread })
            else { break }
            moves.append(thread)
            state = edge.target
        }
        return moves
    }

    /// The state a run of moves from the start reaches.
    static func state(after moves: [ThreadID], in space: StateSpace) -> Int {
        moves.reduce(0) { state, thread in space.edges[state].first { $0.thread == thread }?.target ?? state }
    }

    /// The embedded graph, as JSON: every text once in `strings`; the code each thread
    /// can stand in (`codes`: its name, first line and lines); per state its threads
    /// (`[name, status, code, line]`, code -1 when finished), its lines of shared state,
    /// its failure (`[text, why]`) if any, its steps out as `[thread, target, sentence]`
    /// (a fourth element, true, for a step that runs `progress`), `cut` when the budget
    /// left some of its steps out, and `loop` (`[thread, length]`) when a livelock's
    /// loop runs from it; texts by their number.
    public func graph(_ program: Program, keeping runs: [Schedule] = []) -> (json: JSON, space: StateSpace) {
        let engine = Engine(program: program)
        let space = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: maxStates, keeping: runs, deadline: config.deadline)
        // Every text once: states refer to them by number.
        var strings: [String] = []
        var numbers: [String: Int] = [:]
        func number(_ text: String) -> JSON {
            if let known = numbers[text] { return .int(known) }
            numbers[text] = strings.count
            strings.append(text)
            return .int(strings.count - 1)
        }
        // Each code a thread stands in, once: its name, and its lines.
        var codes: [JSON] = []
        var codeNumbers: [Int: Int] = [:]
        func codeNumber(_ code: Int) -> Int {
            if let known = codeNumbers[code] { return known }
            let lines = program.codes[code].ranges.compactMap { $0?.start.line }
            let first = lines.min() ?? 0
            let last = lines.max() ?? -1
            let texts: [JSON] = first <= last ? (first...last).map { number(program.file.line($0)) } : []
            codeNumbers[code] = codes.count
            codes.append(.array([number(program.codes[code].name), .int(first), .array(texts)]))
            return codes.count - 1
        }
        var states: [JSON] = []
        for (index, world) in space.worlds.enumerated() {
            // As step mode shows it, a variable a line.
            let shared: [JSON] = SharedState.lines(world, program).flatMap { $0.label.isEmpty ? $0.items : [$0.text] }.map(number)
            let threads: [JSON] = world.threads.indices.map { thread in
                let status: String
                if world.threads[thread].isFinished {
                    status = "finished"
                } else if engine.runnableThreads(world).contains(thread) {
                    status = "can run"
                } else {
                    status = engine.waitDescription(world, thread)?.text ?? "cannot run"
                }
                // Where it stands: the line of its next step, as the step screen marks it.
                var code = -1
                var line = 0
                if !world.threads[thread].isFinished, let top = world.threads[thread].frames.last {
                    code = codeNumber(top.code)
                    let ranges = program.codes[top.code].ranges
                    if top.pc < ranges.count, let at = ranges[top.pc]?.start.line { line = at }
                }
                return .array([number(world.threadNames[thread]), number(status), .int(code), .int(line)])
            }
            let edges: [JSON] = space.edges[index].map { edge in
                let text = edge.events.map { "\(world.threadNames[edge.thread]) \($0.text)" }.joined(separator: "; ")
                // A step that runs a `progress` statement says so: a loop through it is no livelock.
                return .array([.int(edge.thread), .int(edge.target), number(text)] + (edge.progressed ? [.bool(true)] : []))
            }
            let failure: JSON =
                space.failures[index].map { failure in
                    .array([number(failure.text), number(FindingExplainer.explanation(failure.kind, message: failure.text))])
                } ?? .null
            var fields: [(String, JSON)] = [("threads", .array(threads)), ("shared", .array(shared)), ("failure", failure), ("steps", .array(edges))]
            // Past the budget: this state has steps the page does not hold.
            if space.cut[index] { fields.append(("cut", .bool(true))) }
            // A livelock from here: the thread that goes round the loop first, and its steps.
            if let loop = space.loops[index] { fields.append(("loop", .array([.int(loop.next), .int(loop.length)]))) }
            states.append(.object(fields))
        }
        return (
            .object([
                ("complete", .bool(space.isComplete)), ("strings", .array(strings.map(JSON.string))), ("codes", .array(codes)),
                ("states", .array(states)),
            ]), space
        )
    }
}
