import RaceLabEngine

/// The report of `racelab explore`: counts, the outcome histogram, the verdict per
/// check and per finding kind, and the simplest counterexample with its cause.
public struct ExplorationRenderer: Sendable {
    public var program: Program

    public init(program: Program) {
        self.program = program
    }

    public func render(_ result: Exploration, counterexample: (Counterexample, Run)?, replay: ReplayCommand) -> String {
        var out = ""
        if let note = result.orderingNote { out += "Orderings: \(note).\n" }
        if program.usesConcurrency { out += "Swift 6: \(Words.swift6(program.swift6Rejections))\n" }
        if result.search == .stateful {
            out += "States: \(result.states) distinct worlds, \(result.transitions) steps between them; "
            out += "every state is within \(result.depth) steps of the start\n"
            let perState = result.memory / max(1, result.states)
            out += "Memory: at most \(Self.megabytes(result.memory)) for the states, the graph and the worlds waiting (\(perState) bytes a state)\n"
            if result.sleepSets {
                out += "Reduction: sleep sets (a step that another order of the same steps already covers is not taken again; "
                out += "a block on a held lock goes with the step before it)\n"
            }
            if let first = result.sleepSetsRetried {
                out += "Sleep sets: the graph has a cycle without progress and livelock needs every step, so the search was repeated without them "
                out += "(with them: \(first.states) states, \(first.steps) steps)\n"
            }
            out += "Final states: \(result.executions)"
            out +=
                result.executions == 0
                ? "\n"
                : result.countsInterleavings
                    ? ", standing for \(result.interleavings) \(result.interleavings.isOne ? "interleaving (a path" : "interleavings (paths") from the start to a final state)\n"
                    : result.sleepSets
                        ? "; the counts below are final states (sleep sets skip steps, so paths are not counted)\n"
                        : "; the counts below are final states (a cycle makes the paths to them endless, or the search was cut)\n"
        } else {
            out += "Executions: \(result.executions)"
            switch result.reduction {
            case .dpor:
                out += " (one per Mazurkiewicz trace), standing for \(Words.count(result.interleavings, "interleaving"))\n"
                if result.sleepBlocked > 0 { out += "Sleep-set-blocked executions (redundant, abandoned): \(result.sleepBlocked)\n" }
            case .none:
                out += " (every interleaving, no reduction)\n"
            }
        }
        out += "Steps taken: \(result.steps)\n"
        out += result.cut.map { "Search: not exhaustive: \($0)\n" } ?? "Search: exhaustive\n"
        if !result.growing.isEmpty {
            let names = result.growing.map { "'\($0)'" }.joined(separator: ", ")
            out += "  \(names) \(result.growing.count == 1 ? "keeps" : "keep") growing on the way to the deepest state reached: the states may never end\n"
        }

        let unit = result.countsInterleavings ? "interleavings" : "final states"
        if result.outcomes.isEmpty && result.search == .stateful && result.isExhaustive {
            out += "\nOutcomes (0): no run ends; every run goes on forever\n"
        } else {
            out += "\nOutcomes (\(result.outcomes.count); shares of \(unit), not probabilities)\n"
        }
        let order = result.outcomes.indices.sorted {
            (result.outcomes[$0].interleavings, $1) > (result.outcomes[$1].interleavings, $0)
        }
        let shownFacts = Self.distinguishingFacts(result.outcomes.map({ $0.outcome }))
        for (entry, facts) in order.map({ (result.outcomes[$0], shownFacts[$0]) }) {
            // Past Int.max the shares of two saturated counts are unknown.
            let percent = entry.interleavings.percent(of: result.interleavings)
            var share = result.interleavings.isSaturated ? "   n/a" : percent < 0.05 ? " <0.1%" : (String(tenths: percent) + "%").padded(6, right: true)
            // Shares of lower bounds are estimates.
            if !result.interleavings.isExact && !result.interleavings.isSaturated { share = "~" + share.drop { $0 == " " } }
            let mark = entry.outcome.isFailure ? "FAIL" : entry.outcome.end == .stepLimit ? "cut " : "ok  "
            out += "  \(mark) \(entry.interleavings.description.padded(9, right: true)) \(share)  \(describe(entry.outcome, facts: facts))\n"
        }

        out += "\nChecks\n"
        // A check is evaluated only where the run gets to its end: say where it never was.
        let unchecked = result.interleavings { !$0.end.ranToTheEnd }
        for (index, expectation) in program.expectations.enumerated() {
            let failing = result.interleavings { $0.failedChecks.contains(index) }
            let verdict =
                failing == .zero ? (result.isExhaustive ? "holds" : "held where searched") : "FAILS in \(failing) of \(result.interleavings) \(unit)"
            out += "  [\(verdict)] \(expectation.message)"
            if unchecked != .zero {
                out += " (not checked in \(unchecked) of \(result.interleavings) \(unit): they did not complete)"
            }
            out += "\n"
        }
        out += "\nFindings\n"
        let kinds = result.findingKinds.filter { $0 != .expectation }
        if kinds.isEmpty { out += result.findingKinds.isEmpty ? "  none\n" : "  none besides the failing checks above\n" }
        for kind in kinds {
            let interleavings = result.interleavings { $0.findings.contains(kind) }
            if kind == .livelock { out += "  livelock: see below\n"; continue }
            out += "  \(kind.rawValue): in \(interleavings) \(unit)\n"
        }

        if let livelock = result.livelock {
            out += "\nLivelock\n"
            let from = livelock.prefix.isEmpty ? "from the start" : "after \(livelock.prefix.text)"
            let steps = livelock.cycle.count == 1 ? "this step repeats" : "these \(livelock.cycle.count) steps repeat"
            out += "  \(from), \(steps) forever: \(livelock.cycle.text)\n"
            out += "  every thread that can run takes its turn in them, and "
            out +=
                livelock.progressMarked
                ? "none of them reaches a 'progress' statement\n" : "none of them completes a round of a thread's outermost 'while true' loop\n"
            let repeated = livelock.prefix + livelock.cycle + livelock.cycle
            out += "  replay (the cycle twice): \(replay.schedule(repeated))\n"
        }
        if result.sleepSets && result.hasCycle {
            out += "\nLivelock\n  not checked: the graph has a cycle, and sleep sets skip steps a fair cycle needs (search without --reduction)\n"
        }
        out += "\nData races (\(result.dataRaces.count))\n"
        if result.dataRaces.isEmpty { out += "  none: every conflicting pair of accesses is ordered by a lock, a queue or a thread start\n" }
        for race in result.dataRaces {
            out += "  \(race.target): \(Self.side(race.first)) and \(Self.side(race.second)), with nothing ordering them\n"
        }

        let inversions = result.lockInversions
        out += "\nLock order (\(inversions.isEmpty ? "consistent" : "\(Words.count(inversions.count, "inversion"))"))\n"
        if inversions.isEmpty { out += "  no two locks are ever taken in opposite orders\n" }
        for inversion in inversions {
            let parts = inversion.edges.map { edge in
                "\(edge.thread) takes \(edge.taken) while holding \(edge.held)" + (edge.line.map { " (line \($0))" } ?? "")
            }
            out += "  \(parts.joined(separator: "; ")): these can deadlock\n"
        }

        out += "\nVerdict: \(Words.verdictSentence(result))\n"
        if let (example, run) = counterexample {
            let counts = "\(Words.count(example.preemptions, "preemption")), \(run.schedule.count) steps"
            if example.isShortest {
                out += "\nShortest counterexample (fewest steps, breadth first): \(counts)\n"
            } else if example.isShortestReduced {
                out += "\nCounterexample: \(counts) (the shortest in the graph sleep sets left; one taking steps they skipped may be shorter)\n"
            } else if let cut = example.notSimplest {
                out += "\nCounterexample: \(counts) (the shortest failing execution seen; the search for the simplest one was cut: \(cut))\n"
            } else {
                out += "\nSimplest counterexample: \(counts)\n"
            }
            out += ColumnTrace(run: run).render(highlight: example.why.map { [$0.first, $0.second] } ?? [])
            // What went wrong, in the run's own words (a deadlock names its wait-for cycle).
            if let finding = run.findings.first {
                out += "\nIt fails: \(finding.kind.rawValue): \(finding.message)\n"
            }
            if let why = example.why { out += "\nWhy: \(why.what)\n     \(why.otherwise)\n" }
            out += "\nReplay: \(replay.schedule(run.schedule))\n"
        }
        return out
    }

    /// `1.2 MB`, `340 KB`.
    static func megabytes(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? String(tenths: Double(bytes) / 1_000_000) + " MB" : "\(max(1, bytes / 1_000)) KB"
    }

    /// For each outcome, the facts that tell it apart from the others that print the
    /// same variables: those not common to all of them. Two rows never read the same
    /// while one fails and one passes without saying why (one MySingle created or two).
    static func distinguishingFacts(_ outcomes: [Outcome]) -> [[String]] {
        outcomes.map { outcome in
            let alike = outcomes.filter { $0.state == outcome.state }
            guard alike.count > 1 else { return [] }
            return outcome.facts.filter { fact in !alike.allSatisfy { $0.facts.contains(fact) } }
        }
    }

    /// `gotA = MySingle#1, …; 2 MySingle created  (deadlocked; breaks: exactly one…)`.
    func describe(_ outcome: Outcome, facts: [String] = []) -> String {
        var text = ([outcome.state] + facts).filter { !$0.isEmpty }.joined(separator: "; ")
        if text.isEmpty { text = "(no shared variables)" }
        var notes: [String] = []
        if outcome.end != .completed { notes.append(outcome.end.rawValue) }
        let kinds = outcome.findings.filter { $0 != .expectation }.map({ $0.rawValue })
        if !kinds.isEmpty { notes.append(kinds.joined(separator: ", ")) }
        if !outcome.failedChecks.isEmpty {
            notes.append("breaks: " + outcome.failedChecks.map { program.expectations[$0].message }.joined(separator: "; "))
        }
        if !notes.isEmpty { text += "  (" + notes.joined(separator: "; ") + ")" }
        return text
    }

    /// `A writes it (line 12)`.
    public static func side(_ side: DataRace.Side) -> String {
        let verb = side.kind == .read ? "reads" : "writes"
        return "\(side.thread) \(verb) it" + (side.line.map { " (line \($0))" } ?? "")
    }

    /// `B reads singleton: nil`: the thread and what it did at a 0-based step.
    public static func stepText(_ run: Run, _ step: Int) -> String {
        let thread = run.schedule[step]
        let text = run.events.first { $0.step == step + 1 }?.text ?? "runs"
        return "\(thread) \(text)"
    }
}

/// A trace with one column per thread, so who did what, and when, reads across.
public struct ColumnTrace: Sendable {
    public var run: Run
    var columnWidth = 34

    public init(run: Run) {
        self.run = run
    }

    /// - Parameter highlight: steps (0-based) to mark with `>`.
    public func render(highlight: [Int] = []) -> String {
        let threads = run.world.threads.indices.filter { id in run.events.contains { $0.thread == id } }
        var trace = self
        // As wide as the longest sentence, within about 100 columns in all.
        trace.columnWidth = min(run.events.map({ $0.text.count }).max() ?? 10, max(24, 92 / max(1, threads.count) - 1))
        return trace.rows(threads, highlight)
    }

    func rows(_ threads: [ThreadID], _ highlight: [Int]) -> String {
        var header = "  step  " + threads.map { fit(run.world.threadNames[$0]) }.joined(separator: " ")
        while header.last == " " { header.removeLast() }
        var out = header + "\n"
        var lastStep = 0
        let shown = shownSteps(highlight)
        var skipped: [ThreadID: Int] = [:]
        for event in run.events {
            // A long run keeps its start, its end and the marked steps: what lies
            // between is one line saying how many steps of which threads it holds.
            guard shown.contains(event.step) else {
                if event.step != lastStep { skipped[event.thread, default: 0] += 1 }
                lastStep = event.step
                continue
            }
            if !skipped.isEmpty {
                let total = skipped.values.reduce(0, +)
                let parts = threads.compactMap { id in skipped[id].map { "\(run.world.threadNames[id]) \($0)" } }
                out += "     … \(total) more steps (\(parts.joined(separator: ", "))) …\n"
                skipped = [:]
            }
            let mark = highlight.contains(event.step - 1) && event.step != lastStep ? ">" : " "
            let number = event.step == lastStep ? "" : String(event.step)
            lastStep = event.step
            var row = " \(mark)" + String(repeating: " ", count: max(0, 4 - number.count)) + "\(number)  "
            row += threads.map { $0 == event.thread ? fit(event.text) : fit("") }.joined(separator: " ")
            while row.last == " " { row.removeLast() }
            out += row + "\n"
        }
        return out
    }

    /// A run of at most `fullLength` steps shows every step; a longer one its first
    /// and last `edge` steps and `context` steps around each marked one (1-based).
    func shownSteps(_ highlight: [Int]) -> Set<Int> {
        let length = run.schedule.count
        guard length > Self.fullLength else { return Set(0...length) }
        var shown = Set(0...Self.edge).union(max(0, length - Self.edge)...length)
        for step in highlight { shown.formUnion(max(0, step + 1 - Self.context)...min(length, step + 1 + Self.context)) }
        return shown
    }

    static let fullLength = 80
    static let edge = 20
    static let context = 3

    func fit(_ text: String) -> String {
        if text.count > columnWidth { return String(text.prefix(columnWidth - 1)) + "…" }
        return text + String(repeating: " ", count: columnWidth - text.count)
    }
}
