import RaceLabEngine
import RaceLabLanguage

/// The text report of a run: one line per step, then the final state, the checks,
/// each finding explained, and the schedule to replay it.
public struct TextRenderer: Sendable {
    public var title: String
    public var replay: ReplayCommand?

    public init(title: String, replay: ReplayCommand? = nil) {
        self.title = title
        self.replay = replay
    }

    public func render(_ run: Run) -> String {
        let names = run.world.threadNames
        let nameWidth = max(6, names.map({ $0.count }).max() ?? 6)
        var out = title + "\n\n"
        out += "step  " + "thread".padded(nameWidth) + "  line  what happened\n"
        let sentences = run.events.map { "\(names[$0.thread]) \($0.text)" }
        // The source column lines up after the longest sentence, up to a limit.
        let sentenceWidth = min(sentences.map({ $0.count }).max() ?? 0, 44)
        var lastStep = -1
        for (event, sentence) in zip(run.events, sentences) {
            let stepText = event.step == lastStep ? "" : String(event.step)
            lastStep = event.step
            let line = event.range.map { String($0.start.line) } ?? ""
            var row = stepText.padded(4, right: true) + "  " + names[event.thread].padded(nameWidth) + "  " + line.padded(4, right: true)
            row += "  " + sentence
            if let range = event.range {
                let source = run.program.file.line(range.start.line).trimmingCharacters(in: " \t")
                if !source.isEmpty { row += String(repeating: " ", count: max(0, sentenceWidth - sentence.count)) + "  | " + source }
            }
            out += row + "\n"
        }
        out += "\n\(run.endSentence)\n"
        out += finalState(run)
        if !run.expectations.isEmpty {
            out += "\nChecks\n"
            for check in run.expectations {
                let mark = check.passed == true ? "passed" : check.passed == false ? "FAILED" : "not checked"
                out += "  [\(mark)] \(check.message)" + (check.note.map { " (\($0))" } ?? "") + "\n"
            }
        }
        if run.findings.isEmpty {
            out += "\nNo findings: this interleaving is fine.\n"
        } else {
            out += "\nFindings (\(run.findings.count))\n"
            for (number, finding) in run.findings.enumerated() {
                var place = ""
                if finding.step > 0, let thread = finding.thread {
                    place = " at step \(finding.step) on \(names[thread])"
                } else if finding.kind == .deadlock {
                    place = " after step \(finding.step)"
                }
                if let range = finding.range { place += ", line \(range.start.line)" }
                out += "  \(number + 1). \(finding.kind.rawValue)\(place): \(finding.message)\n"
                out += "     \(FindingExplainer.explanation(finding))\n"
            }
        }
        out += "\nSchedule: \(run.schedule.text)\n"
        if let replay { out += "Replay:   \(replay.schedule(run.schedule))\n" }
        return out
    }

    func finalState(_ run: Run) -> String {
        let formatter = ValueFormatter(world: run.world)
        var out = "\nFinal state\n"
        for (index, global) in run.program.globals.enumerated() {
            out += "  \(global.name) = \(formatter.describe(run.world.globals[index]))\n"
        }
        // An actor's (or a `@MainActor` class's) isolated state, as an outcome shows it.
        for term in run.program.actorState(in: run.world) { out += "  \(term.name) = \(formatter.describe(term.value))\n" }
        let objects = formatter.objects
        if !objects.isEmpty { out += "  objects: " + objects.joined(separator: ", ") + "\n" }
        out += "  steps: " + stepsPerThread(run).joined(separator: ", ") + "\n"
        if !run.world.output.isEmpty {
            out += "  printed:\n" + run.world.output.map { "    \($0)\n" }.joined()
        }
        return out
    }

    /// How many steps each thread took; a cancelled operation's steps are marked as
    /// wasted work, so cancellation that stops early shows up as a small number.
    func stepsPerThread(_ run: Run) -> [String] {
        zip(run.world.threads, run.world.threadNames).map { thread, name in
            let count = run.schedule.filter { $0 == name }.count
            var text = "\(name) \(count)"
            if let id = thread.operation, case .operation(let op) = run.world.heap[id].kind, op.isCancelled {
                text += " (operation cancelled: wasted work)"
            }
            return text
        }
    }
}
