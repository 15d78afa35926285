import RaceLabEngine

/// The words RaceLab says to people about a result, each phrased once: how many of
/// something, which version, which search ran, and the verdict in each place it is
/// given (a report's last line, a table's cell, a page's summary, a grade's reason).
/// Every renderer, command and the grader take their words from here. Entries are
/// sorted by name.
public enum Words {
    /// "1 step", "3 steps"; `plural` for a noun that does not take an s.
    public static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }

    /// "1 interleaving", "12 interleavings", "at least 9223372036854775807 interleavings".
    public static func count(_ n: InterleavingCount, _ noun: String) -> String {
        "\(n) " + (n.isOne ? noun : noun + "s")
    }

    /// "fails in 3 of 6 interleavings", "fails in its one interleaving".
    public static func failingShare(_ result: Exploration) -> String {
        result.interleavings.isOne
            ? "fails in its one interleaving" : "fails in \(result.failingInterleavings) of \(result.interleavings) interleavings"
    }

    /// `["a", "b", "c"]` as "a, b or c" (`conjunction` "or"), or "a, b and c".
    public static func list(_ items: [String], _ conjunction: String) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// A passing search's reach: "every one of 6 interleavings passes (3 executions
    /// explored)", "its one interleaving passes (…)", "every run passes (40 states
    /// explored)" where runs can go on forever.
    public static func passingShare(_ result: Exploration) -> String {
        let visited = result.search == .stateful ? "\(result.states) states explored" : "\(count(result.executions, "execution")) explored"
        // A graph with a cycle has endlessly many runs: its counts are final states.
        if !result.countsInterleavings { return "every run passes (\(visited))" }
        if result.interleavings.isOne { return "its one interleaving passes (\(visited))" }
        return "every one of \(result.interleavings) interleavings passes (\(visited))"
    }

    /// The search that ran, in a report's heading: "DPOR", "no reduction",
    /// "stateful search".
    public static func search(_ result: Exploration) -> String {
        result.search == .stateful ? "stateful search" : result.reduction == .dpor ? "DPOR" : "no reduction"
    }

    /// The search that ran, in a table's column or JSON: "dpor", "stateful".
    public static func searchColumn(_ result: Exploration) -> String {
        result.search == .stateful ? "stateful" : "dpor"
    }

    /// Why the search that ran was taken (`SearchReason`), after "Search chosen: ".
    public static func searchReason(_ reason: SearchReason) -> String {
        switch reason {
        case .forced(let forced, let feature):
            let taken =
                switch forced {
                case .stateful: "stateful search"
                case .everyInterleaving: "no reduction"
                case .noSleepSets: "stateful search without sleep sets"
                }
            let why =
                switch feature {
                case .progress: "the program marks progress, so it is meant to run forever"
                case .spuriousWakeups: "the program waits on conditions, whose spurious wakeups DPOR's reduction cannot follow"
                case .strictPriority: "a strict-priority scheduler picks who runs by the threads' priorities, which DPOR's reduction cannot follow"
                }
            return "\(taken): \(why)"
        case .stepBound(let steps):
            return "stateful search: an execution reached the step bound (\(steps) steps), so the program may never end; "
                + "the stateful search follows loops without a bound"
        case .statelessCut(let cut, let states):
            return "stateful search: DPOR \(cut), and the stateful search finished (\(states) states)"
        case .statelessWon(let reduction, let executions, let cut, let statefulCut):
            let name = reduction == .dpor ? "DPOR" : "every interleaving"
            let how = cut.map { "\(name), cut: \($0)" } ?? "\(name): it finished first (\(count(executions, "execution")))"
            return how + (statefulCut.map { "; the stateful search \(Self.stopped($0))" } ?? "")
        case .statefulWon(let states, let cut, let executions):
            let how = cut.map { "a bound cut it first (\($0))" } ?? "it finished first (\(states) states)"
            return "stateful search: \(how), while DPOR had run \(executions) executions without finishing"
        }
    }

    /// How a bound stopped the search that lost the choice: "reached its budget (…)",
    /// or, stopped past a data race with no outcome yet, "found a data race first (…)".
    static func stopped(_ cut: Cut) -> String {
        if case .afterFailure = cut { return "found a data race first (\(cut))" }
        return "reached its budget (\(cut))"
    }

    /// What the Swift 6 compiler says of a program that uses Swift concurrency
    /// (`Program.swift6Rejections`), under the mapping that makes a scenario's
    /// top-level variables a script's: the main actor's.
    public static func swift6(_ rejections: [String]) -> String {
        let mapping = "top-level variables are the main actor's, as a script's are"
        guard !rejections.isEmpty else { return "compiles it (\(mapping)): it finds no data race to refuse" }
        return "rejects it (\(mapping)): " + rejections.joined(separator: "; ")
    }

    /// A version's verdict in a table's cell: "proven", "FAILS", "fails, as expected".
    public static func verdictCell(_ verdict: Verdict, _ role: VersionRole) -> String {
        switch (verdict, role) {
        case (.notExhaustive, _): return "not exhaustive"
        case (.proven, _): return "proven"
        case (.fails, _): return "FAILS"
        case (.failsAsExpected, .expectedToFail): return "fails, as expected"
        case (.failsAsExpected, _): return "fails (broken)"
        case (.passesUnexpectedly, .expectedToFail): return "passes, though marked as failing"
        case (.passesUnexpectedly, _): return "passes, but it is the broken version"
        }
    }

    /// The verdict as a report's last line says it, after "Verdict: ".
    public static func verdictSentence(_ result: Exploration) -> String {
        switch result.verdict() {
        case .fails, .failsAsExpected:
            if result.failsByRacesAlone { return "FAILS: \(racesAloneSummary(result)) (Data races, above)." }
            return result.failingExecutions == 1 && result.livelock != nil ? "FAILS: the threads can livelock." : "FAILS: some interleavings break it."
        case .proven, .passesUnexpectedly: return "proven: every interleaving passes."
        case .notExhaustive: return "no failure found, but the search was cut, so this is not a proof."
        }
    }

    /// Why a program whose checks all held fails: its accesses race.
    static func racesAloneSummary(_ result: Exploration) -> String {
        let checks = result.isExhaustive ? "every interleaving passes its checks" : "no interleaving explored failed a check"
        return checks + ", but " + (result.dataRaces.count == 1 ? "one pair of accesses races" : "accesses race")
    }

    /// The verdict in a few words, as the lesson page gives it beside each version.
    public static func verdictSummary(_ result: Exploration) -> String {
        if result.failsByRacesAlone { return racesAloneSummary(result) }
        switch result.verdict() {
        case .proven: return "proven: every interleaving passes"
        case .fails, .failsAsExpected: return "fails in \(result.failingInterleavings) of \(result.interleavings) interleavings"
        case .passesUnexpectedly: return "passes in every interleaving, though it is marked to fail"
        case .notExhaustive(let cut): return "not exhaustive (\(cut)): no failure found"
        }
    }

    /// A version in a sentence: "the broken version", "fix 'mutex'", "the broken
    /// variant 'forIn'".
    public static func version(_ version: Version) -> String {
        guard let fix = version.fix else { return "the broken version" }
        return version.role == .variant ? "the broken variant '\(fix)'" : "fix '\(fix)'"
    }

    /// A version in a table's first column: "broken", "mutex", "forIn (variant)".
    public static func versionLabel(_ version: Version) -> String {
        guard let fix = version.fix else { return "broken" }
        return version.role == .variant ? "\(fix) (variant)" : fix
    }

    /// A run the reader can watch, on the lesson page's button.
    public static func watch(_ kind: Analysis.Watch.Kind) -> String {
        switch kind {
        case .story: return "the story"
        case .shortestFailure: return "the shortest failing run"
        }
    }
}
