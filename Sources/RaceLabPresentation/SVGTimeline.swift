import RaceLabEngine
import RaceLabLanguage

/// A run as an SVG timeline: one lane per thread (a column), one box per step in its
/// thread's lane, one row per step from top to bottom, and right of the threads one
/// lane per actor (who holds it, who waits in its mailbox: `SVGTimeline+Actors.swift`).
/// The picture grows downward (a 100-step run is 100 rows) and never scales its text.
/// Lock holds are bars at a lane's edge, blocked and spinning time is shaded, the
/// decisive pair of steps is joined by an arrow, the failing step is marked, and the
/// final state and findings are written under the lanes. Text is real SVG text;
/// colors follow the reader's light or dark scheme.
public struct SVGTimeline {
    public let replay: ReplayedRun
    public let title: String
    /// The two steps (0-based) whose order decided the outcome, if known.
    public let decisive: (first: Int, second: Int)?

    public init(replay: ReplayedRun, title: String, decisive: (first: Int, second: Int)? = nil) {
        self.replay = replay
        self.title = title
        self.decisive = decisive
    }

    var run: Run { replay.run }

    static let laneWidth = 250, rowHeight = 22, gutter = 44, top = 70, margin = 16

    public func render() -> String {
        let names = run.world.threadNames
        let steps = replay.threads.count
        let byStep = Dictionary(grouping: run.events, by: { $0.step })
        let failing = Set(run.findings.compactMap { $0.thread == nil ? nil : $0.step - 1 })
        let actors = ActorLane.lanes(replay)
        let width = Self.gutter + names.count * Self.laneWidth + actors.count * Self.actorLaneWidth + Self.margin
        // Long lines wrap at the picture's width (7 pixels a character).
        let footer = footerLines().flatMap { line -> [String] in
            let indent = line.hasPrefix("  ") ? "  " : ""
            return String(line.dropFirst(indent.count)).wordWrapped(max(40, (width - 2 * Self.margin) / 7 - 4), hanging: 0).map { indent + $0 }
        }
        let height = Self.top + steps * Self.rowHeight + 24 + footer.count * 16 + Self.margin
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="Menlo, Consolas, monospace" font-size="12">
            <title>\(XML.escape(title))</title>
            <desc>One lane per thread, one row per step, top to bottom\(actors.isEmpty ? "" : ", then one lane per actor (who holds it after each step, who waits in its mailbox)"): the picture grows downward and does not scale.</desc>
            <style>
            .bg { fill: #ffffff; } .ink { fill: #1b1f24; } .dim { fill: #57606a; }
            .lane { stroke: #d0d7de; } .box { fill: #ddf4ff; stroke: #54aeff; } .fail { fill: #ffebe9; stroke: #cf222e; stroke-width: 2; }
            .blocked { fill: #eaeef2; } .spinning { fill: #fff8c5; } .hold { fill: #8250df; } .arrow { stroke: #cf222e; stroke-width: 1.5; fill: none; }
            @media (prefers-color-scheme: dark) {
              .bg { fill: #0d1117; } .ink { fill: #e6edf3; } .dim { fill: #8d96a0; } .lane { stroke: #30363d; }
              .box { fill: #0c2d6b; stroke: #388bfd; } .fail { fill: #4b1113; stroke: #f85149; } .blocked { fill: #21262d; }
              .spinning { fill: #3b2e00; } .hold { fill: #a371f7; } .arrow { stroke: #f85149; }
            }
            \(actors.isEmpty ? "" : Self.actorStyle)</style>
            <defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#cf222e"/></marker></defs>
            <rect class="bg" x="0" y="0" width="\(width)" height="\(height)"/>
            <text class="ink" x="\(Self.margin)" y="22" font-size="14" font-weight="bold">\(XML.escape(title))</text>

            """
        for (lane, name) in names.enumerated() {
            let x = Self.gutter + lane * Self.laneWidth
            out += "<line class=\"lane\" x1=\"\(x)\" y1=\"\(Self.top - 24)\" x2=\"\(x)\" y2=\"\(Self.top + steps * Self.rowHeight)\"/>\n"
            // Beside actor lanes, a thread's swatch gives the colour of its holds there.
            let swatch = actors.isEmpty ? "" : Self.swatch(lane, x: x + 8)
            out += swatch
            out += "<text class=\"ink\" x=\"\(x + (swatch.isEmpty ? 8 : 22))\" y=\"\(Self.top - 8)\" font-weight=\"bold\">\(XML.escape(name))</text>\n"
        }
        for step in 0..<steps {
            let y = Self.top + step * Self.rowHeight
            out += "<text class=\"dim\" x=\"\(Self.margin)\" y=\"\(y + 15)\">\(step + 1)</text>\n"
            // Who waited, spun or held a lock while this step ran.
            for lane in names.indices {
                let x = Self.gutter + lane * Self.laneWidth
                switch replay.lane(lane, before: step) {
                case .blocked:
                    out +=
                        "<rect class=\"blocked\" x=\"\(x + 1)\" y=\"\(y)\" width=\"\(Self.laneWidth - 2)\" height=\"\(Self.rowHeight)\"><title>\(XML.escape(blockedText(lane, before: step)))</title></rect>\n"
                case .spinning:
                    out +=
                        "<rect class=\"spinning\" x=\"\(x + 1)\" y=\"\(y)\" width=\"\(Self.laneWidth - 2)\" height=\"\(Self.rowHeight)\"><title>\(XML.escape(names[lane])) spins</title></rect>\n"
                case .ready: break
                }
            }
            for (index, (lock, owner)) in replay.held[step + 1].enumerated() where owner < names.count {
                let x = Self.gutter + (owner + 1) * Self.laneWidth - 6 - index * 5
                out +=
                    "<rect class=\"hold\" x=\"\(x)\" y=\"\(y)\" width=\"3\" height=\"\(Self.rowHeight)\"><title>\(XML.escape(names[owner])) holds \(XML.escape(run.world.heap[lock].name))</title></rect>\n"
            }
            let thread = replay.threads[step]
            let events = byStep[step + 1] ?? []
            let text = events.map({ $0.text }).joined(separator: "; ")
            let line = events.first?.range?.start.line
            let source = line.map { run.program.file.line($0).trimmingCharacters(in: " \t") } ?? ""
            let x = Self.gutter + thread * Self.laneWidth + 6
            let label = (line.map { "\($0) " } ?? "") + text
            out += "<g><title>\(XML.escape("step \(step + 1), \(names[thread]): \(text)" + (source.isEmpty ? "" : " | \(source)")))</title>"
            out +=
                "<rect class=\"\(failing.contains(step) ? "fail" : "box")\" x=\"\(x)\" y=\"\(y + 2)\" width=\"\(Self.laneWidth - 22)\" height=\"\(Self.rowHeight - 4)\" rx=\"3\"/>"
            out += "<text class=\"ink\" x=\"\(x + 4)\" y=\"\(y + 15)\">\(XML.escape(Self.fit(label, Self.laneWidth - 30)))</text></g>\n"
        }
        out += actorLanes(actors, left: Self.gutter + names.count * Self.laneWidth)
        if let decisive, decisive.first < steps, decisive.second < steps {
            let point = { (step: Int) -> (Int, Int) in
                (Self.gutter + replay.threads[step] * Self.laneWidth + Self.laneWidth / 2, Self.top + step * Self.rowHeight + Self.rowHeight / 2)
            }
            let (x1, y1) = point(decisive.first), (x2, y2) = point(decisive.second)
            out +=
                "<path class=\"arrow\" d=\"M\(x1),\(y1) C\(x1 + 40),\(y1) \(x2 - 40),\(y2) \(x2),\(y2)\" marker-end=\"url(#head)\"><title>the order of these two steps decided the outcome</title></path>\n"
        }
        var y = Self.top + steps * Self.rowHeight + 24
        for line in footer {
            // An indented line is a value or a finding: indented by position, not spaces.
            let indented = line.hasPrefix("  ")
            let x = Self.margin + (indented ? 16 : 0)
            let text = indented ? String(line.dropFirst(2)) : line
            out += "<text class=\"\(indented ? "ink" : "dim")\" x=\"\(x)\" y=\"\(y)\">\(XML.escape(text))</text>\n"
            y += 16
        }
        return out + "</svg>\n"
    }

    /// The final state and the findings, a line each.
    func footerLines() -> [String] {
        let formatter = ValueFormatter(world: run.world)
        var lines = ["Final state (\(run.end.rawValue) after \(run.schedule.count) steps)"]
        for (index, global) in run.program.globals.enumerated() where global.isShown {
            lines.append("  \(global.name) = \(formatter.describe(run.world.globals[index]))")
        }
        // Each object with its retain count, or dead: what manual memory is about.
        let objects = formatter.objects
        if !objects.isEmpty { lines.append("  objects: " + objects.joined(separator: ", ")) }
        // Swift concurrency: the actors' state, and each actor, task and stream.
        for term in run.program.actorState(in: run.world) { lines.append("  \(term.name) = \(formatter.describe(term.value))") }
        for line in SharedState.concurrencyLines(run.world, run.program) { lines.append("  " + line.text) }
        lines.append(run.findings.isEmpty ? "No findings." : "Findings")
        for finding in run.findings { lines.append("  \(finding.kind.rawValue): \(finding.message)") }
        return lines
    }

    /// A label cut to fit `width` pixels (7 a character in the 12-pixel font).
    static func fit(_ text: String, _ width: Int) -> String {
        let most = max(4, width / 7)
        return text.count <= most ? text : String(text.prefix(most - 1)) + "…"
    }
}
