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
    /// The scenario and every version's analysis with its state space (`Lesson.of`).
    public let lesson: Lesson
    /// The version shown first: nil for the broken one, or a fix's name.
    public let selected: String?
    /// How the reader names the scenario to `racelab run` (its name, or its file's path).
    public let argument: String

    public static let defaultMaxStates = 5_000

    public init(lesson: Lesson, selected: String?, argument: String? = nil) {
        self.lesson = lesson
        self.selected = selected
        self.argument = argument ?? lesson.scenario.name
    }

    var scenario: Scenario { lesson.scenario }

    /// The challenge, as step mode states it.
    var goal: String { scenario.challenge ?? "make the run go wrong: break a check, crash it, or deadlock it" }

    /// Every version (the broken one, then each fix and variant), each with its graph,
    /// its verdict over every interleaving, its outcomes, its code, and the runs the
    /// reader can watch (its story, a counterexample) as moves.
    public func versions() -> JSON {
        .array(
            lesson.versions.map { version, analysis in
                let fix = version.fix, result = analysis.exploration
                let outcomes: [JSON] = result.outcomes.map { count in
                    .array([
                        .string(count.outcome.state.isEmpty ? "(no shared variables)" : count.outcome.state), .string("\(count.interleavings)"),
                        .bool(count.outcome.isFailure),
                    ])
                }
                let watch: [JSON] = analysis.watch.map { run in
                    .array([.string(Words.watch(run.kind)), .array(run.moves.map { .int($0 + 1) })])
                }
                let info = fix.flatMap { scenario.fix(named: $0) }
                let graph = analysis.space.map { Self.graph($0, version.program) } ?? .null
                return .object([
                    ("name", fix.map(JSON.string) ?? .null), ("label", .string(Words.version(version))),
                    ("summary", .string(info.map { $0.variant ?? $0.summary } ?? "")),
                    ("code", .string(ScenarioCode.code(of: scenario, fix: fix))), ("verdict", .string(Words.verdictSummary(result))),
                    ("proven", .bool(result.verdict() == .proven)), ("outcomes", .array(outcomes)), ("watch", .array(watch)),
                    ("graph", graph),
                ])
            })
    }

    /// The embedded graph, as JSON: every text once in `strings`; the code each thread
    /// can stand in (`codes`: its name, first line and lines); per state its threads
    /// (`[name, status, code, line]`, code -1 when finished), its actors if it has any
    /// (`[name, holder, mailbox]`: "actor images", "held by A", "mailbox: B" or ""), its
    /// lines of shared state, its failure (`[text, why]`) if any, its steps out as
    /// `[thread, target, sentence]` (a fourth element, true, for a step that runs
    /// `progress`), `cut` when the budget left some of its steps out, and `loop`
    /// (`[thread, length]`) when a livelock's loop runs from it; texts by their number.
    public static func graph(_ space: StateSpace, _ program: Program) -> JSON {
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
                switch space.standings[index][thread] {
                case .finished: status = "finished"
                case .canRun: status = "can run"
                case .waiting(let text): status = text
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
            // A lane per actor, beside the threads': who holds it, who waits in its mailbox.
            let actors: [JSON] = world.heap.indices.compactMap { id in
                ActorLane.standing(world, id).map { actor in
                    let names = world.threadNames
                    return .array([
                        number("actor " + world.heap[id].name), number(actor.holderText(names)), number(actor.mailbox.isEmpty ? "" : actor.mailboxText(names)),
                    ])
                }
            }
            if !actors.isEmpty { fields.append(("actors", .array(actors))) }
            // Past the budget: this state has steps the page does not hold.
            if space.cut[index] { fields.append(("cut", .bool(true))) }
            // A livelock from here: the thread that goes round the loop first, and its steps.
            if let loop = space.loops[index] { fields.append(("loop", .array([.int(loop.next), .int(loop.length)]))) }
            states.append(.object(fields))
        }
        return .object([
            ("complete", .bool(space.isComplete)), ("strings", .array(strings.map(JSON.string))), ("codes", .array(codes)),
            ("states", .array(states)),
        ])
    }
}
