import RaceLabEngine
import RaceLabPresentation

/// The end of a run in step mode: what it showed, and in a challenge the debrief (won
/// by a failure, or by going round a livelock's loop; on a sound fix, the proof that
/// no order wins).
extension StepController {
    /// In a challenge: the threads are back where they were, with no progress on the
    /// way, in a state from which a fair scheduler can keep them going round forever
    /// (the explorer's loop, checked from here): the goal of a livelock, reached.
    mutating func wentRound() -> String? {
        // The reader's own loop must be fair: every thread that could run in it ran.
        let fair = session.loopsBack().first { back in
            Set(session.worlds.suffix(back + 1).flatMap { session.engine.runnableThreads($0) }).isSubset(of: session.schedule.suffix(back))
        }
        guard let back = fair, case .livelock(0, _, let cycle) = Foresight.look(session.engine, from: session.world) else { return nil }
        var lines = [
            "Challenge won: \(goal).",
            "The threads are back in the state they were in \(Words.count(back, "step")) ago: every thread that could run took a step, and nothing made progress.",
            "From here a fair scheduler, one that gives every thread its turn, could keep them going round a loop of \(Words.count(cycle, "step")) forever: no thread is blocked, yet none gets anywhere (a livelock).",
        ]
        if guarded {
            lines.append("The threads you picked, in order, are an answer: write them in 'schedule answer \"…\"' and grade it.")
        } else {
            lines.append("Schedule: \(session.scheduleNames.text)")
        }
        lines.append("Press u to undo, r to restart, or q to quit.")
        debrief = lines.dropLast().joined(separator: "\n")
        return lines.joined(separator: "\n")
    }

    /// The end of a run: what it showed, remembering a won challenge's debrief for
    /// the normal screen after the session.
    mutating func finish() -> String {
        let (text, won) = ending()
        // Without its last line, the keys to press next.
        if won { debrief = text.split(separator: "\n").dropLast().joined(separator: "\n") }
        return text
    }

    /// What the finished run showed; in a challenge, the debrief, and whether it was won.
    func ending() -> (text: String, won: Bool) {
        guard let run = session.outcome() else { return ("", false) }
        var lines = [run.endSentence]
        for check in run.expectations where check.passed != true {
            lines.append("  [\(check.passed == false ? "FAILED" : "not checked")] \(check.message)")
        }
        for finding in run.findings where finding.kind != .expectation {
            lines.append("  \(finding.kind.rawValue): \(finding.message)")
        }
        if !challenge {
            if !run.failed { lines.append("Every check passed: this interleaving is fine.") }
            lines.append("Press u to undo, r to restart, s for the schedule, or q to quit.")
            return (lines.joined(separator: "\n"), false)
        }
        if run.failed {
            lines.insert("Challenge won: \(goal).", at: 0)
            lines += whatMattered(run)
            lines.append("Press u to undo and try to lose, r to restart, or q to quit.")
            return (lines.joined(separator: "\n"), true)
        } else if isSoundFix {
            lines += fixDebrief()
        } else {
            lines.append("Finished without reaching the goal: every check passed this time.")
            lines.append("Press u to undo a few steps and try another order, or r to restart.")
        }
        return (lines.joined(separator: "\n"), false)
    }

    /// Which steps mattered, and the schedule to replay the win.
    func whatMattered(_ run: Run) -> [String] {
        var lines: [String] = []
        let explorer = Explorer(program: session.engine.program)
        if let pair = explorer.decisivePair(run.schedule) {
            lines.append("The steps that mattered: \(pair.what)")
            lines.append(pair.otherwise)
        }
        if guarded {
            lines.append("The threads you picked, in order, are an answer: write them in 'schedule answer \"…\"' and grade it.")
            return lines
        }
        lines.append("Schedule: \(run.schedule.text)")
        lines.append("Replay:   \(ReplayCommand(argument, fix: fix).schedule(run.schedule))")
        return lines
    }

    /// Why no schedule can win on this fix: the explorer's proof.
    func fixDebrief() -> [String] {
        let summary = fix.flatMap { scenario.fix(named: $0)?.summary } ?? ""
        var lines = ["This is fix '\(fix ?? "")': \(summary)"]
        var config = ExploreConfig()
        config.maxExecutions = 200_000
        config.timeLimit = 20
        config.search = .automatic
        let result = Analysis.of(session.engine.program, config: config, needs: .init(counterexample: false)).exploration
        switch result.verdict() {
        case _ where result.failsByRacesAlone:
            lines.append("No schedule can reach the goal, but the fix has data races: racelab explore \(argument)\(fixFlag) lists them.")
        case .proven where !result.countsInterleavings, .passesUnexpectedly where !result.countsInterleavings:
            lines.append(
                "No schedule can reach the goal: racelab explore \(argument)\(fixFlag) visits all \(result.states) states of this fix (its threads can run forever), and none fails."
            )
        case .proven, .passesUnexpectedly:
            let count =
                result.interleavings.isExact
                ? "all \(result.interleavings) interleaving\(result.interleavings == InterleavingCount(1) ? "" : "s") of this fix"
                : "every interleaving of this fix (\(result.interleavings))"
            lines.append("No schedule can reach the goal: racelab explore \(argument)\(fixFlag) runs \(count), and every one passes.")
        case .notExhaustive(let cut):
            lines.append("No schedule reached the goal in \(result.executions) executions explored (not exhaustive: \(cut)).")
        case .fails, .failsAsExpected:
            lines.append("Some schedule does reach the goal: try again" + (guarded ? "." : " (racelab explore \(argument)\(fixFlag) shows one)."))
        }
        lines.append("Press u or r to try other orders anyway, or q to quit.")
        return lines
    }
}
