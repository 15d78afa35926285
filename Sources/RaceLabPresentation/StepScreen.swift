import RaceLabEngine
import RaceLabLanguage

/// The step mode's screen: one column per thread (its code, a marker on the next
/// step, whether it can run), then the shared state, the last steps and the keys.
/// Too narrow for columns, the threads are listed one under another instead.
public struct StepScreen: Sendable {
    /// "singleton-race: The singleton race (the broken version)".
    public var title: String
    /// The challenge's goal, shown under the title.
    public var goal: String?
    /// Total width in characters.
    public var width: Int
    /// ANSI colours (a terminal without NO_COLOR).
    public var color: Bool
    /// How many of the last steps the trace shows.
    public var recent = 6

    public init(title: String, goal: String? = nil, width: Int = 100, color: Bool = false) {
        self.title = title
        self.goal = goal
        self.width = max(20, width)
        self.color = color
    }

    /// Narrower columns than this stack the threads instead.
    static let minimumColumn = 24

    public func render(_ session: StepSession) -> String {
        var lines = Cell.wrapped(title, width, .header).map { paint($0.fitted(width), .header) }
        if let goal { lines += Cell.wrapped("Goal: \(goal)", width, .plain).map { $0.fitted(width) } }
        lines.append("")
        let gap = 2
        let count = session.world.threads.count
        let column = count == 0 ? width : (width - gap * (count - 1)) / count
        let stacked = column < StepScreen.minimumColumn
        let blocks = session.world.threads.indices.map { threadBlock(session, $0, width: stacked ? width : column) }
        if !stacked {
            let height = blocks.map({ $0.count }).max() ?? 0
            for row in 0..<height {
                var line = ""
                for (index, block) in blocks.enumerated() {
                    let cell = row < block.count ? block[row] : Cell("")
                    let fitted = cell.fitted(column)
                    line += paint(fitted, cell.style)
                    if index < count - 1 { line += String(repeating: " ", count: column - fitted.count + gap) }
                }
                lines.append(trimmedRight(line))
            }
        } else {
            for block in blocks {
                lines += block.map { paint($0.fitted(width), $0.style) }
                lines.append("")
            }
            if lines.last == "" { lines.removeLast() }
        }
        lines.append("")
        lines += sharedState(session.world, session.engine.program).map { Cell($0).fitted(width) }
        lines.append("")
        lines += trace(session).map { Cell($0).fitted(width) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Threads

    struct Cell {
        enum Style { case plain, header, runnable, blocked, finished, marker }
        var text: String
        var style: Style

        init(_ text: String, _ style: Style = .plain) {
            // A script's control characters must not act on the terminal.
            self.text = TerminalText.escaped(text)
            self.style = style
        }

        /// The text over as many lines as it takes, broken between words.
        static func wrapped(_ text: String, _ width: Int, _ style: Style) -> [Cell] {
            text.wordWrapped(width).map { Cell($0, style) }
        }

        func fitted(_ width: Int) -> String {
            text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
        }
    }

    /// What one thread's lane shows, whoever draws it (this screen, or the page from
    /// `json`): its key and name, its state, its next step, and where its code is.
    struct Lane {
        enum State: String { case runnable, blocked, idle, finished, stopped }
        var key: Int
        var name: String
        var state: State
        /// "runnable", "blocked: …", "idle: the main queue is empty", "finished"; nil
        /// when there is nothing to say.
        var status: String?
        /// What its next step does, when it can take one.
        var next: String?
        /// The function it is in, and that function's lines.
        var function: String?
        var lines: ClosedRange<Int>?
        /// The line of its next step.
        var current: Int?
    }

    func lane(_ session: StepSession, _ id: ThreadID) -> Lane {
        let world = session.world
        let thread = world.threads[id]
        var lane = Lane(key: id + 1, name: world.threadNames[id], state: .finished, status: "finished")
        if thread.isFinished { return lane }
        if session.isOver && world.halted {
            lane.state = .stopped
            lane.status = "stopped: the program crashed"
            return lane
        }
        lane.state = .idle
        lane.status = nil
        if let preview = session.preview(id) {
            // Under strict priority, who may run depends on it.
            let priority = preview.priority.map { " (priority \($0))" } ?? ""
            lane.state = .runnable
            lane.status = "runnable" + priority
            lane.next = preview.event?.text ?? "a step"
            lane.current = preview.event?.range?.start.line
        } else if let wait = session.wait(id) {
            // Idle, or outranked under strict priority: not blocked, so no "blocked:".
            lane.state = wait.blocked ? .blocked : .idle
            lane.status = wait.blocked ? "blocked: \(wait.text)" : String(wait.text.dropFirst(wait.text.hasPrefix("is ") ? 3 : 0))
        }
        guard let top = thread.frames.last else { return lane }
        let code = session.engine.program.codes[top.code]
        if lane.current == nil, top.pc < code.ranges.count { lane.current = code.ranges[top.pc]?.start.line }
        let codeLines = code.ranges.compactMap { $0?.start.line }
        guard let first = codeLines.min(), let last = codeLines.max() else { return lane }
        lane.function = code.name
        lane.lines = first...last
        return lane
    }

    /// One thread: its key and name, its state, its next step, and its code around it.
    func threadBlock(_ session: StepSession, _ id: ThreadID, width: Int) -> [Cell] {
        let lane = lane(session, id)
        var cells = [Cell("[\(lane.key)] \(lane.name)", .header)]
        switch lane.state {
        case .finished, .stopped:
            cells.append(Cell(lane.status ?? "", .finished))
            return cells
        case .runnable:
            cells.append(Cell(lane.status ?? "", .runnable))
            cells += Cell.wrapped("next: " + (lane.next ?? "a step"), width, .runnable)
        case .blocked, .idle:
            if let status = lane.status { cells += Cell.wrapped(status, width, .blocked) }
        }
        guard let function = lane.function, let lines = lane.lines else { return cells }
        cells.append(Cell("in \(function)"))
        // A window of at most seven lines, around the next step.
        let marker = lane.current ?? lines.lowerBound
        let start = max(lines.lowerBound, min(marker - 3, lines.upperBound - 6))
        let end = min(lines.upperBound, start + 6)
        let file = session.engine.program.file
        for number in start...max(start, end) {
            let source = file.line(number).trimmingCharacters(in: " \t")
            let mark = number == marker ? ">" : " "
            let numberText = String(number)
            cells.append(
                Cell(
                    "\(mark)\(String(repeating: " ", count: max(0, 3 - numberText.count)))\(numberText) \(source)",
                    number == marker ? .marker : .plain))
        }
        return cells
    }

    // MARK: - Shared state

    func sharedState(_ world: World, _ program: Program) -> [String] {
        ["Shared state"] + SharedState.lines(world, program).flatMap { wrap($0.items, indent: "  " + $0.label) }
    }

    /// Items joined on lines no wider than the screen, the first line after `indent`.
    func wrap(_ items: [String], indent: String) -> [String] {
        var lines: [String] = []
        var line = indent
        let continuation = String(repeating: " ", count: indent.count)
        for item in items {
            let separator = line == indent || line == continuation ? "" : ", "
            if line.count + separator.count + item.count > width && line != indent && line != continuation {
                lines.append(line + ",")
                line = continuation + item
            } else {
                line += separator + item
            }
        }
        lines.append(line)
        return lines
    }

    // MARK: - Trace

    func trace(_ session: StepSession) -> [String] {
        let names = session.world.threadNames
        guard !session.steps.isEmpty else { return ["No steps yet."] }
        var lines = ["Last steps"]
        let first = max(0, session.steps.count - recent)
        for index in first..<session.steps.count {
            let step = self.step(session, index)
            let thread = step.thread
            let text = step.text
            let line = step.line.map { "line \($0)" } ?? ""
            let nameWidth = names.map({ $0.count }).max() ?? 0
            // Numbers right-aligned, as wide as the last one shown (10,000 has five digits).
            let numberWidth = max(4, String(session.steps.count).count)
            lines.append("  \(String(index + 1).padded(numberWidth, right: true))  \(thread.padded(nameWidth))  \(line.padded(8))  \(text)")
        }
        return lines
    }

    // MARK: - Text

    func trimmedRight(_ text: String) -> String {
        var text = Substring(text)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    func paint(_ text: String, _ style: Cell.Style) -> String {
        guard color else { return text }
        switch style {
        case .plain: return text
        case .header: return "\u{1B}[1m\(text)\u{1B}[0m"
        case .runnable: return "\u{1B}[32m\(text)\u{1B}[0m"
        case .blocked: return "\u{1B}[33m\(text)\u{1B}[0m"
        case .finished: return "\u{1B}[2m\(text)\u{1B}[0m"
        case .marker: return "\u{1B}[7m\(text)\u{1B}[0m"
        }
    }
}
