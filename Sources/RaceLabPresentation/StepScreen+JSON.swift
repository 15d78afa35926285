import RaceLabEngine
import RaceLabLanguage

extension StepScreen {
    /// The screen as data, for a page that draws its own (`racelab step --format
    /// json`): the title and goal; each thread's lane (its state, its next step, and
    /// the whole of the function it is in, as the source has it); the shared state;
    /// and every step taken, with its thread, line and what it did.
    public func json(_ session: StepSession) -> JSON {
        let file = session.engine.program.file
        let threads = session.world.threads.indices.map { id -> JSON in
            let lane = lane(session, id)
            let code: JSON = lane.lines.map { lines in .array(lines.map { .string(file.line($0)) }) } ?? .null
            return .object([
                ("key", .int(lane.key)), ("name", .string(lane.name)), ("state", .string(lane.state.rawValue)),
                ("status", lane.status.map(JSON.string) ?? .null), ("next", lane.next.map(JSON.string) ?? .null),
                ("function", lane.function.map(JSON.string) ?? .null), ("firstLine", lane.lines.map { .int($0.lowerBound) } ?? .null),
                ("code", code), ("currentLine", lane.current.map(JSON.int) ?? .null),
            ])
        }
        let shared = SharedState.lines(session.world, session.engine.program).map { line -> JSON in
            .object([("label", .string(line.label)), ("items", .array(line.items.map(JSON.string)))])
        }
        let steps = session.steps.indices.map { index -> JSON in
            let step = step(session, index)
            return .object([("thread", .string(step.thread)), ("line", step.line.map(JSON.int) ?? .null), ("text", .string(step.text))])
        }
        return .object([
            ("title", .string(title)), ("goal", goal.map(JSON.string) ?? .null), ("threads", .array(threads)),
            ("shared", .array(shared)), ("steps", .array(steps)),
        ])
    }

    /// Step `index` of the session: who took it, the line it began on, what it did.
    func step(_ session: StepSession, _ index: Int) -> (thread: String, line: Int?, text: String) {
        let events = session.steps[index]
        let text = events.isEmpty ? "takes a step" : events.map({ $0.text }).joined(separator: "; ")
        return (session.world.threadNames[session.schedule[index]], events.first?.range?.start.line, text)
    }
}
