import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// Grades submissions against a set of exercises. Deterministic: the bounds are
/// step and execution counts, not time (the time limit is only a guard against a
/// machine gone wrong, and a search it cuts does not pass).
public struct Grader: Sendable {
    /// Sorted by ID.
    public var exercises: [Exercise]
    public var config: ExploreConfig
    /// Whether a failed break-it or predict-it answer is told the answer (the values
    /// it missed, a schedule that deadlocks): for the teacher only. A student is told
    /// how many values are wrong or missing, never which.
    public var revealsAnswers: Bool
    /// Explorations already made (see `GradingCache`).
    let cache = GradingCache()

    /// The bounds every grading search uses: a fix must be proven within them.
    public static var defaultConfig: ExploreConfig {
        var config = ExploreConfig.automatic
        config.maxSteps = 2_000
        config.maxExecutions = 20_000
        config.timeLimit = 300
        return config
    }

    public init(exercises: [Exercise], config: ExploreConfig = Grader.defaultConfig, revealsAnswers: Bool = false) {
        self.exercises = exercises.sorted { $0.id < $1.id }
        self.config = config
        self.revealsAnswers = revealsAnswers
    }

    public func exercise(_ id: String) -> Exercise? {
        exercises.first { $0.id == id }
    }

    /// Grades one file.
    /// - Parameters:
    ///   - student: who handed it in (shown in every format).
    ///   - expected: the exercise the file must be for, when the caller knows it.
    public func grade(_ file: SourceFile, student: String, expected: String? = nil) -> Grade {
        // Until the file says which exercise it is, its name may: an invalid file
        // still counts against that exercise's points.
        let stem = String(file.name.split(separator: "/").last ?? "").replacingSuffix(".race")
        let named = exercise(expected ?? stem)
        var grade = Grade(
            file: file.name, student: student, exercise: named?.id, kind: named?.kind, status: .invalid,
            points: 0, maxPoints: named?.points ?? 0, reason: "", details: "")
        /// The grade as it stands (invalid, or failed once the exercise is known), with its reason.
        func finish(_ reason: String, _ details: String = "") -> Grade {
            grade.reason = reason
            grade.details = details
            return grade
        }
        if file.text.allSatisfy({ $0.isWhitespace }) {
            return finish("the file is empty")
        }
        guard let id = Exercise.declaredID(in: file) else {
            return finish("not an exercise: the file has no 'exercise \"ID\"' line (start from the exercise file)")
        }
        guard let exercise = exercise(id) else {
            let hint = Suggestion.closest(to: id, in: exercises.map({ $0.id })).map { "; did you mean '\($0)'?" } ?? ""
            return finish("unknown exercise '\(id)'\(hint)")
        }
        if let expected, expected != id {
            return finish("this is a submission for exercise '\(id)', not '\(expected)'")
        }
        if expected == nil, stem != id, self.exercise(stem) != nil {
            return finish("the file is named \(stem).race, after exercise '\(stem)', but it holds exercise '\(id)'")
        }
        grade.exercise = id
        grade.kind = exercise.kind
        grade.maxPoints = exercise.points

        do throws(GradingError) {
            grade.status = .failed
            if let change = try Template.firstChange(exercise: exercise.scenario.file, submission: file) {
                return finish(describe(change, exercise, file), changeDetails(change, exercise, file))
            }
            if let shadow = try Template.shadowing(in: file) { return finish(shadow.message) }
            if let model = try Template.parse(file).exerciseStatement(in: file) { return finish(model.message) }
        } catch {
            return finish(error.message)
        }
        // Locked code that every complete run of the exercise reaches must run in every
        // complete run of a fix: an early `return` may not skip the work.
        var probes: Set<Int> = []
        if exercise.kind == .fixIt, let map = try? Template.lineMap(exercise: exercise.scenario.file, submission: file) {
            probes = Set(requiredLines(exercise).compactMap { map[$0] })
        }
        let scenario: Scenario
        let program: Program
        do throws(ScriptError) {
            scenario = try Scenario.load(name: id, file: file, probes: probes)
            program = scenario.versions[0].program
        } catch {
            let first = error.diagnostics.first.map { "line \($0.range.start.line): \($0.message)" } ?? "it does not compile"
            grade.status = .invalid
            return finish("the file does not compile: \(first)", error.rendered)
        }

        // A schedule or a prediction is graded on the exercise's own program: code
        // added around the answer does not count.
        var verdict: (passed: Bool, reason: String, details: String)
        switch exercise.kind {
        case .fixIt:
            let (passed, reason, details, result) = gradeFix(program, file, key: GradingCache.key(id, file))
            verdict = (passed, reason, details)
            if !passed, !exercise.credits.isEmpty, let result {
                let (earned, line) = credit(exercise, program, result)
                grade.points = earned
                verdict.reason += "; \(line)"
            }
        case .breakIt: verdict = gradeBreak(exercise, scenario, file)
        case .predictIt: verdict = gradePrediction(exercise, scenario, file)
        }
        grade.reason = verdict.reason
        grade.details = verdict.details
        if verdict.passed {
            grade.status = .passed
            grade.points = exercise.points
        }
        return grade
    }

    // MARK: - Fix it

    /// The lines of locked code in `exercise` that every run of a fix that ends must
    /// reach (found once): the statements at the top of a thread's body that no pair
    /// of editable regions may wrap in an `if` (`Template.unguardedLines`), and of
    /// those, the ones every run of the starter that ends reaches (a thread's code
    /// after a loop it may rest in for ever is not required); all of them when no
    /// run of the starter ends (it always deadlocks, say).
    func requiredLines(_ exercise: Exercise) -> Set<Int> {
        cache.requiredLines(exercise.id) {
            let file = exercise.scenario.file
            guard let template = try? Template.parse(file) else { return [] }
            let unguarded = template.unguardedLines(of: file)
            guard let reached = Self.alwaysReached(file, config: config) else { return unguarded }
            return unguarded.intersection(reached)
        }
    }

    /// The locked lines of an exercise file (a starter, or a solution) whose code runs
    /// in every run that ends (completed or idle), explored exhaustively with a probe
    /// on each: nil when no run ends, none when the search is cut (nothing is known).
    public static func alwaysReached(_ file: SourceFile, config: ExploreConfig) -> Set<Int>? {
        guard let template = try? Template.parse(file),
            let program = try? Scenario.load(name: "exercise", file: file, probes: template.lockedLines(of: file)).versions[0].program
        else { return [] }
        var config = config.everyOutcome
        config.countInterleavings = false
        let result = Analysis.of(program, config: config, needs: .init(counterexample: false)).exploration
        guard result.cut == nil else { return [] }
        let ended = result.outcomes.filter({ $0.outcome.end.ranToTheEnd })
        guard !ended.isEmpty else { return nil }
        var lines: Set<Int> = []
        for (index, expectation) in program.expectations.enumerated() {
            guard let requirement = expectation.requirement, let line = program.requirements[requirement].probeLine else { continue }
            if !ended.contains(where: { $0.outcome.failedChecks.contains(index) }) { lines.insert(line) }
        }
        return lines
    }

    /// The verdict on a fix, and the exploration it stands on.
    func gradeFix(_ program: Program, _ file: SourceFile, key: String) -> (Bool, String, String, Exploration?) {
        // The search is the one `explore` runs (`SearchPlan`): a fix is graded as it is judged.
        // A run that reaches the step bound means the fix cannot be proven: the search
        // stops there (its other interleavings, each as long, could take hours).
        let analysis = cache.fix(key) {
            Analysis.of(program, config: config) { $0.outcomes.allSatisfy { $0.outcome.end != .stepLimit } }
        }
        let result = analysis.exploration
        if result.verdict() == .fails && !result.failsByRacesAlone {
            let ways = Words.failingShare(result)
            guard let (example, run) = analysis.replayedCounterexample else {
                if let first = result.outcomes.first(where: { $0.outcome.isFailure }) {
                    return (false, ways, "Replay: \(ReplayCommand(file.name).schedule(first.schedule))\n", result)
                }
                // The only failure is a livelock: no run ends, so none is a counterexample.
                let cycle = result.livelock.map { "Then for ever: \($0.cycle.text)\n" } ?? ""
                let prefix = result.livelock.map { "Replay: \(ReplayCommand(file.name).schedule($0.prefix))\n" } ?? ""
                return (false, "\(ways): the threads can livelock (a cycle of steps that gets nowhere)", prefix + cycle, result)
            }
            return (false, "\(ways): \(headline(run))", counterexample(run, example.why, file), result)
        }
        if let cut = result.cut {
            if let endless = result.outcomes.first(where: { $0.outcome.end == .stepLimit }) {
                return (
                    false, "a run never ends: after \(config.maxSteps) steps a thread was still going (a loop that never stops?)",
                    "Replay: \(ReplayCommand(file.name).schedule(endless.schedule))\n", result
                )
            }
            return (
                false, "not exhaustive: \(cut): a fix must be proven in every interleaving, so this does not pass",
                "Make the program smaller, or ask your teacher about the bounds.\n", result
            )
        }
        if let race = result.dataRaces.first {
            return (
                false,
                "every interleaving passes, but \(race.target) has a data race: \(ExplorationRenderer.side(race.first)) and \(ExplorationRenderer.side(race.second)), with nothing ordering them",
                "Protect every access to \(race.target) the same way (one lock, one queue, or one thread).\n", result
            )
        }
        return (true, Words.passingShare(result), "", result)
    }

    /// Partial credit: each credited check that holds in every interleaving earns its
    /// points; it holds only where every interleaving was explored and ran to its end
    /// (a crash or a deadlock leaves the checks unproven), and `no data race` where
    /// the exhaustive search saw none. Returns the points and a line saying which.
    func credit(_ exercise: Exercise, _ program: Program, _ result: Exploration) -> (Int, String) {
        // Work skipped earns nothing: a check that holds because locked code never ran
        // proves nothing.
        let skipped = program.expectations.indices.first { index in
            program.expectations[index].requirement.map { program.requirements[$0].probeLine != nil } == true
                && result.outcomes.contains { $0.outcome.failedChecks.contains(index) }
        }
        if let skipped, let line = program.expectations[skipped].requirement.flatMap({ program.requirements[$0].probeLine }) {
            return (0, "no partial credit: the locked code at line \(line) never ran")
        }
        let proven = result.isExhaustive && result.outcomes.allSatisfy { $0.outcome.end.ranToTheEnd }
        var earned = 0
        var held: [String] = []
        var missed: [String] = []
        for (check, points) in exercise.credits {
            let holds: Bool
            if check == Exercise.noDataRace {
                holds = result.isExhaustive && result.dataRaces.isEmpty
            } else {
                let index = program.expectations.firstIndex {
                    ($0.requirement.map { program.requirements[$0].name } ?? $0.message) == check
                }
                holds = proven && index.map { index in result.interleavings { $0.failedChecks.contains(index) } == .zero } == true
            }
            if holds {
                earned += points
                held.append("\"\(check)\" (\(points))")
            } else {
                missed.append("\"\(check)\" (\(points))")
            }
        }
        var line = "partial credit: \(earned) of \(exercise.points) points"
        if !held.isEmpty { line += ", for \(held.joined(separator: ", "))" }
        if !missed.isEmpty { line += "; not for \(missed.joined(separator: ", "))" }
        return (earned, line)
    }

    // MARK: - Break it

    /// `scenario` is the submission's, for its answer; the schedule runs on the exercise's program.
    func gradeBreak(_ exercise: Exercise, _ scenario: Scenario, _ file: SourceFile) -> (Bool, String, String) {
        let program = exercise.program
        guard let steps = scenario.schedules(fix: nil).first(where: { $0.name == Exercise.answerSchedule })?.steps,
            !steps.allSatisfy({ $0.isWhitespace })
        else {
            return (false, "no answer: write your schedule in 'schedule \(Exercise.answerSchedule) \"…\"'", "")
        }
        let run: Run
        do throws(ScheduleError) {
            var scheduler = try FixedScheduler(steps, limit: config.maxSteps)
            run = try Runner(program: program, maxSteps: config.maxSteps).run(&scheduler)
        } catch {
            return (false, "the schedule cannot be followed: \(error.message)", "")
        }
        let trace = ColumnTrace(run: run).render() + "\nReplay: \(ReplayCommand(file.name).named("answer"))\n"
        let goal = exercise.goal
        let hits = run.findings.filter { goal == nil || $0.kind == goal }
        if !hits.isEmpty {
            return (true, "your schedule breaks it: \(describe(hits[0]))", trace)
        }
        if let other = run.findings.first, let goal {
            let word = Exercise.goals.first { $0.kind == goal }!.word
            return (false, "your schedule ends in \(describe(other)), but the goal is a \(word) failure", trace)
        }
        return (false, "your schedule runs to the end (\(run.end.rawValue)) and breaks nothing", trace)
    }

    // MARK: - Reasons

    /// The run an outcome's schedule takes (a prediction's final values are read off it).
    func replay(_ program: Program, _ schedule: Schedule) -> Run? {
        var scheduler = FixedScheduler(schedule)
        return try? Runner(program: program, maxSteps: config.maxSteps).run(&scheduler)
    }

    /// The run's first finding, in words.
    func headline(_ run: Run) -> String {
        run.findings.first.map(describe) ?? "it fails"
    }

    func describe(_ finding: Finding) -> String {
        switch finding.kind {
        case .expectation where finding.message.hasPrefix(Finding.workNotDone): return finding.message
        case .expectation: return "the check \"\(finding.message)\" fails"
        default: return "\(finding.kind.rawValue): \(finding.message)"
        }
    }

    func counterexample(_ run: Run, _ why: DecisivePair?, _ file: SourceFile) -> String {
        var out = ""
        if !run.schedule.isEmpty {
            out += "Simplest counterexample (\(run.schedule.count) steps):\n"
            out += ColumnTrace(run: run).render(highlight: why.map { [$0.first, $0.second] } ?? [])
        }
        if let why { out += "Why: \(why.what)\n     \(why.otherwise)\n" }
        out += "Replay: " + (run.schedule.isEmpty ? ReplayCommand(file.name).text : ReplayCommand(file.name).schedule(run.schedule)) + "\n"
        return out
    }

    /// "thread B was deleted", "the check "…" was changed or removed", …
    func describe(_ change: LockedChange, _ exercise: Exercise, _ file: SourceFile) -> String {
        let line = change.exerciseLine
        let owner = exercise.scenario.declarations.first { $0.range.start.line <= line && line <= $0.range.end.line }
        let submitted = (try? Parser.parse(file).declarations) ?? []
        let verb = change.added ? "has code added to it" : "was changed"
        switch owner?.kind {
        case .thread(let name, _)?:
            let kept = submitted.contains { if case .thread(name, _) = $0.kind { return true } else { return false } }
            let what = name == "main" ? "the main thread" : "thread \(name)"
            return kept ? "a locked line of \(what) \(verb) (line \(line) of the exercise)" : "\(what) was deleted"
        case .expect(_, let message)?:
            let kept = submitted.contains { if case .expect(_, message) = $0.kind { return true } else { return false } }
            return kept ? "the check \"\(message)\" \(verb)" : "the check \"\(message)\" was removed or changed"
        case .function(let function)?:
            return "a locked line of func \(function.name) \(verb) (line \(line) of the exercise)"
        case .metadata(let key, _)?:
            return "the locked '\(key)' line \(verb)"
        default:
            return "a locked part \(verb) at line \(line) of the exercise"
        }
    }

    func changeDetails(_ change: LockedChange, _ exercise: Exercise, _ file: SourceFile) -> String {
        var out = "The exercise, line \(change.exerciseLine): \(exercise.scenario.file.line(change.exerciseLine).trimmingCharacters(in: " \t"))\n"
        if let line = change.submissionLine {
            out += "Your file, line \(line): \(file.line(line).trimmingCharacters(in: " \t"))\n"
        }
        out += "Only the code between '\(Template.beginMarker)' and '\(Template.endMarker)' may change.\n"
        return out
    }
}

extension String {
    func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
