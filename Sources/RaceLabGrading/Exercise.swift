import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// An exercise: a scenario file with a task, editable regions, checks, hints and
/// points (see docs/TEACHING.md). The file a student starts from is the exercise
/// itself; a submission is the same file with the editable regions filled in.
public struct Exercise: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Make every interleaving pass without touching the locked parts.
        case fixIt = "fix it"
        /// Hand in `schedule answer "…"`, a schedule whose replay breaks the scenario.
        case breakIt = "break it"
        /// Hand in `answer "…"`: every final value of a variable, or whether a deadlock can happen.
        case predictIt = "predict it"

        /// Whether the exercise's answer is kept from a student: a break-it's failing
        /// schedule and a predict-it's outcomes are the answer; a fix-it's
        /// counterexample is what the student studies.
        public var answerIsSecret: Bool { self != .fixIt }
    }

    /// What a predict-it exercise asks for.
    public enum Prediction: Sendable, Equatable {
        /// Every value the shared variable can hold when a run completes.
        case values(of: String)
        /// Whether some interleaving deadlocks: "yes" or "no".
        case deadlock
    }

    /// What a wrong prediction is told (`feedback "…"`, in the exercise's locked part).
    public enum Feedback: String, Sendable, CaseIterable {
        /// Right or wrong, and no more: the default, so that grading is no oracle.
        case rightOrWrong = "right or wrong"
        /// How many of the values are wrong, and how many are missing.
        case count
    }

    public var id: String
    public var kind: Kind
    /// "easy", "medium" or "hard".
    public var level: String
    public var title: String
    public var task: String
    /// Shown one at a time by `racelab hint`.
    public var hints: [String]
    public var points: Int
    /// For break-it: the kind of finding the schedule must cause; nil for any.
    public var goal: Finding.Kind?
    /// For predict-it.
    public var prediction: Prediction?
    /// For predict-it: what a wrong answer is told.
    public var feedback = Feedback.rightOrWrong
    /// A fix-it exercise's points, split across what earns them (`credit N "…"`): an
    /// `expect` check's message, a `required` block's name, or `no data race`. Each
    /// earns its share when it holds in every interleaving; empty: all or nothing.
    public var credits: [(check: String, points: Int)] = []

    /// The most points one exercise may be worth.
    public static let maxPoints = 1_000_000

    /// What `credit` may name besides checks and required work.
    public static let noDataRace = "no data race"
    /// The exercise as handed out (the starter).
    public var scenario: Scenario
    /// Its program, compiled once: break-it and predict-it answers are graded on it.
    public var program: Program

    /// The name of the schedule a break-it submission hands in.
    public static let answerSchedule = "answer"

    /// Goal words accepted by `goal "…"`.
    public static let goals: [(word: String, kind: Finding.Kind)] = [
        ("check", .expectation), ("crash", .crash), ("deadlock", .deadlock),
        ("main thread", .mainThread), ("assertion", .assertion), ("invariant", .invariant),
        ("mutual exclusion", .exclusion),
    ]

    /// The `exercise "ID"` line of a file, found without parsing it (so a submission
    /// with syntax errors can still be matched to its exercise). A byte-order mark
    /// before it, as some Windows editors save, does not hide it.
    public static func declaredID(in file: SourceFile) -> String? {
        for line in file.lines {
            let words = line.trimmingCharacters(in: " \t\u{FEFF}")
            guard words.hasPrefix("exercise") else { continue }
            let rest = String(words.dropFirst("exercise".count)).trimmingCharacters(in: " \t")
            guard rest.hasPrefix("\""), let close = rest.dropFirst().firstIndex(of: "\"") else { continue }
            return String(rest[rest.index(after: rest.startIndex)..<close])
        }
        return nil
    }

    /// Reads an exercise from a loaded scenario.
    /// - Throws: what is missing or wrong in the exercise metadata.
    public init(_ scenario: Scenario) throws(GradingError) {
        var values: [String: String] = [:]
        var hints: [String] = []
        var credits: [(check: String, points: Int)] = []
        for declaration in scenario.declarations {
            guard case .metadata(let key, let value) = declaration.kind else { continue }
            if key == "hint" {
                hints.append(value)
            } else if key == "credit" {
                let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                credits.append((parts.count > 1 ? String(parts[1]) : "", Int(parts[0]) ?? 0))
            } else {
                values[key] = value
            }
        }
        guard let id = values["exercise"], !id.isEmpty else {
            throw GradingError("not an exercise: the file has no 'exercise \"ID\"' line")
        }
        guard let kindName = values["kind"], let kind = Kind(rawValue: kindName) else {
            let names = Kind.allCases.map({ $0.rawValue })
            throw GradingError("exercise '\(id)': 'kind' must be one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        // Bounded, so that a class's totals (a sum over every row) cannot overflow.
        guard let points = Int(values["points"] ?? ""), (1...Self.maxPoints).contains(points) else {
            throw GradingError("exercise '\(id)': 'points' must be a whole number from 1 to \(Self.maxPoints)")
        }
        guard let task = values["task"], !task.isEmpty else {
            throw GradingError("exercise '\(id)': 'task' says what to do; it is missing")
        }
        program = scenario.versions[0].program
        self.id = id
        self.kind = kind
        self.level = values["level"] ?? "medium"
        self.title = scenario.title
        self.task = task
        self.hints = hints
        self.points = points
        self.scenario = scenario
        if let word = values["goal"] {
            guard let goal = Self.goals.first(where: { $0.word == word }) else {
                throw GradingError("exercise '\(id)': 'goal' must be one of \(Self.goals.map { "\"\($0.word)\"" }.joined(separator: ", "))")
            }
            self.goal = goal.kind
        }
        if let word = values["feedback"] {
            guard kind == .predictIt, let feedback = Feedback(rawValue: word) else {
                throw GradingError(
                    "exercise '\(id)': 'feedback' is for a predict-it exercise, and must be one of \(Feedback.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
                )
            }
            self.feedback = feedback
        }
        if !credits.isEmpty {
            guard kind == .fixIt else {
                throw GradingError("exercise '\(id)': only a fix-it exercise splits its points with 'credit' (an answer is right or wrong)")
            }
            let checks = program.expectations.map { expectation in
                expectation.requirement.map { program.requirements[$0].name } ?? expectation.message
            }
            for credit in credits {
                guard (1...points).contains(credit.points) else {
                    throw GradingError("exercise '\(id)': 'credit \(credit.points) …' must be from 1 to its \(points) points")
                }
                guard checks.contains(credit.check) || credit.check == Self.noDataRace else {
                    let names = checks.map { "\"\($0)\"" } + ["\"\(Self.noDataRace)\""]
                    throw GradingError(
                        "exercise '\(id)': 'credit \(credit.points) \"\(credit.check)\"' names no check; use one of \(names.joined(separator: ", "))")
                }
            }
            // Each credit is at most `points` (≤ 1,000,000), and a file of at most 4 MiB
            // has fewer than 400,000 credit lines: the sum cannot overflow.
            let total = credits.map({ $0.points }).reduce(0, +)
            guard total == points else {
                throw GradingError("exercise '\(id)': its credits add up to \(total) points, but it is worth \(points)")
            }
        }
        self.credits = credits
        switch kind {
        case .fixIt:
            break
        case .breakIt:
            guard scenario.schedules(fix: nil).contains(where: { $0.name == Self.answerSchedule }) else {
                throw GradingError("exercise '\(id)': a break-it exercise hands out 'schedule \(Self.answerSchedule) \"\"' in an editable region")
            }
        case .predictIt:
            guard let target = values["predict"] else {
                throw GradingError("exercise '\(id)': a predict-it exercise says what to predict: 'predict \"deadlock\"' or 'predict \"VARIABLE\"'")
            }
            guard values["answer"] != nil else {
                throw GradingError("exercise '\(id)': a predict-it exercise hands out 'answer \"\"' in an editable region")
            }
            if target == "deadlock" {
                prediction = .deadlock
            } else {
                guard program.globals.contains(where: { $0.name == target && !$0.isLet }) else {
                    throw GradingError("exercise '\(id)': 'predict \"\(target)\"' names no shared var")
                }
                prediction = .values(of: target)
            }
        }
        do throws(GradingError) {
            let template = try Template.parse(scenario.file)
            if template.regions.isEmpty {
                throw GradingError("it has no '\(Template.beginMarker)' region for the student to fill in")
            }
            if let model = template.exerciseStatement(in: scenario.file) { throw model }
        } catch {
            throw GradingError("exercise '\(id)': \(error.message)")
        }
    }
}
