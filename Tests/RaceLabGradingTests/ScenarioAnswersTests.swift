import Foundation
import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation
import RaceLabTestSupport
import Testing

@testable import RaceLabGrading

/// Exercises that need thought: no shipped scenario's output answers an exercise
/// (a break-it's schedule, a predict-it's outcomes, a fix-it's code as `show` prints
/// it), every exercise is a program of its own, and no break-it falls to a short
/// schedule or to a run with one preemption. Every exercise the tests find is held
/// to it, later ones too.
struct ScenarioAnswersTests {
    static let breakIts = GraderTests.exercises.filter { $0.kind == .breakIt }
    static let predictIts = GraderTests.exercises.filter { $0.kind == .predictIt }
    static let fixIts = GraderTests.exercises.filter { $0.kind == .fixIt }

    /// Every shipped scenario's every version, with what a student can print of it:
    /// its named schedules, its outcomes' schedules and counterexample, and its
    /// outcomes' final worlds.
    static let scenarioRuns: [(name: String, schedules: [Schedule], worlds: [(Program, World)])] = {
        var config = ExploreConfig.automatic
        config.failureMargin = nil
        config.timeLimit = nil
        // What a student sees within the default budgets, and a little less: a larger
        // version's printed schedules are its counterexample and first outcomes.
        config.maxStates = 50_000
        config.maxExecutions = 5_000
        var all: [(String, [Schedule], [(Program, World)])] = []
        for name in Shipped.scenarioNames {
            guard let scenario = try? Shipped.scenario(name) else { continue }
            for version in scenario.versions {
                let program = version.program
                let analysis = Analysis.of(program, config: config)
                var schedules = scenario.schedules(fix: version.fix).compactMap { try? Schedule(parsing: $0.steps, limit: 10_000) }
                schedules += analysis.exploration.outcomes.map(\.schedule)
                if let example = analysis.counterexample { schedules.append(example.schedule) }
                if let shortest = analysis.exploration.shortestFailure { schedules.append(shortest) }
                var worlds: [(Program, World)] = []
                for outcome in analysis.exploration.outcomes where outcome.outcome.end.ranToTheEnd {
                    var scheduler = FixedScheduler(outcome.schedule)
                    if let run = try? Runner(program: program, maxSteps: 10_000).run(&scheduler) { worlds.append((program, run.world)) }
                }
                all.append(("\(name) \(version.fix ?? "")", schedules, worlds))
            }
        }
        return all
    }()

    /// `exercise`'s file with `answer` in its answer line.
    static func submission(_ exercise: Exercise, answer: String) -> SourceFile {
        let file = exercise.scenario.file
        let line = exercise.kind == .breakIt ? "schedule answer \"\"" : "answer \"\""
        let filled = exercise.kind == .breakIt ? "schedule answer \"\(answer)\"" : "answer \"\(answer)\""
        return SourceFile(name: file.name, text: file.text.replacingOccurrences(of: line, with: filled))
    }

    /// Every schedule a scenario's outputs print, handed in to every break-it: none passes.
    @Test(.exhaustive, arguments: breakIts.map(\.id))
    func noScenarioScheduleBreaksABreakItExercise(id: String) throws {
        let exercise = try #require(Self.breakIts.first { $0.id == id })
        #expect(exercise.scenario.file.text.contains("schedule answer \"\""))
        var tried = 0
        for (name, schedules, _) in Self.scenarioRuns {
            for schedule in Set(schedules.map(\.text)) where !schedule.isEmpty {
                tried += 1
                let grade = GraderTests.grader.grade(Self.submission(exercise, answer: schedule), student: "s")
                #expect(!grade.passed, "\(id) is answered by \(name)'s schedule \(schedule)")
            }
        }
        #expect(tried > 100)
    }

    /// Every set of final values a scenario's outcomes show, for every variable,
    /// handed in to every predict-it: none passes.
    @Test(.exhaustive, arguments: predictIts.map(\.id))
    func noScenarioOutcomeListAnswersAPredictItExercise(id: String) throws {
        let exercise = try #require(Self.predictIts.first { $0.id == id })
        var answers: Set<String> = []
        for (_, _, worlds) in Self.scenarioRuns {
            guard let program = worlds.first?.0 else { continue }
            for index in program.globals.indices where !program.globals[index].isLet {
                var values: [String] = []
                for (_, world) in worlds {
                    let value = world.describe(world.globals[index], elided: false)
                    if !values.contains(value) { values.append(value) }
                }
                answers.insert(values.joined(separator: ", "))
                answers.insert(values.sorted().joined(separator: ", "))
            }
        }
        #expect(answers.count > 20)
        for answer in answers {
            let grade = GraderTests.grader.grade(Self.submission(exercise, answer: answer.replacingOccurrences(of: "\"", with: "")), student: "s")
            #expect(!grade.passed, "\(id) is answered by a scenario's outcomes: \(answer)")
        }
    }

    /// No break-it passes with a schedule of three steps or fewer (the run then goes
    /// on one thread at a time), and no run that preempts a thread at most once
    /// reaches its goal: the shortest answer has at least four steps and two
    /// preemptions.
    @Test(.exhaustive, arguments: breakIts.map(\.id))
    func everyBreakItNeedsFourStepsAndTwoPreemptions(id: String) throws {
        let exercise = try #require(Self.breakIts.first { $0.id == id })
        var config = ExploreConfig()
        config.search = .stateless
        config.reduction = .none
        config.failureMargin = nil
        config.timeLimit = nil
        config.detectRaces = false
        config.countInterleavings = false
        config.preemptionBound = 1
        let bounded = Explorer(program: exercise.program, config: config).explore()
        #expect(bounded.executions > 0)
        let goal = exercise.goal
        for outcome in bounded.outcomes {
            let hit = outcome.outcome.findings.contains { goal == nil || $0 == goal }
            #expect(!hit, "\(id) reaches its goal with one preemption: \(outcome.schedule.text)")
        }
        // Every thread name a run of it uses, spawned ones too.
        var unbounded = config
        unbounded.preemptionBound = nil
        unbounded.reduction = .dpor
        let names = Set(Explorer(program: exercise.program, config: unbounded).explore().outcomes.flatMap(\.schedule.steps)).sorted()
        var prefixes: [[String]] = [[]]
        for _ in 1...3 {
            prefixes = prefixes.flatMap { prefix in names.map { prefix + [$0] } }
            for prefix in prefixes {
                let grade = GraderTests.grader.grade(Self.submission(exercise, answer: prefix.joined(separator: " ")), student: "s")
                #expect(!grade.passed, "\(id) passes with \(prefix.joined(separator: " "))")
            }
        }
    }

    /// Every version of every shipped scenario, with its behaviour, every shared
    /// variable's values kept (a correct program has one outcome, and what it leaves
    /// behind is what tells it apart); none for a version too large to be an
    /// exercise's program.
    static let scenarioBehaviours: [(name: String, behaviour: Behaviour)] = Shipped.scenarioNames.flatMap { name in
        let versions = (try? Shipped.scenario(name))?.versions ?? []
        return versions.compactMap { version in
            Behaviour.of(version.program, constants: true).map { ("\(name) \(version.fix ?? "")", $0) }
        }
    }

    /// A fix-it exercise is a program of its own: neither its starter nor its
    /// reference solution behaves as any version of any shipped scenario, so no
    /// scenario's fix is its answer under other names.
    @Test(.exhaustive, arguments: fixIts.map(\.id))
    func everyFixItIsAProgramOfItsOwn(id: String) throws {
        let exercise = try #require(Self.fixIts.first { $0.id == id })
        let solution = try GraderTests.file(GraderTests.solutionFolder.appendingPathComponent("\(id).race"))
        let programs = [("starter", exercise.program), ("solution", try Scenario.load(name: id, file: solution).versions[0].program)]
        #expect(Self.scenarioBehaviours.count > 40)
        for (which, program) in programs {
            let behaviour = try #require(Behaviour.of(program, constants: true), "\(id)'s \(which) is too large to compare")
            for (name, other) in Self.scenarioBehaviours {
                #expect(behaviour != other, "\(id)'s \(which) behaves as \(name)")
            }
        }
    }

    /// `exercise`'s starter with `fix`'s code where a student copying from
    /// `racelab show` would paste it: the fix's new declarations into each region at
    /// the top level, and its body of a function or thread into each region inside
    /// the function or thread of that name. Nil when nothing fits anywhere.
    static func pasted(_ fix: Scenario.Fix, of scenario: Scenario, into exercise: Exercise) -> SourceFile? {
        let file = exercise.scenario.file
        guard let template = try? Template.parse(file) else { return nil }
        let base = Set(scenario.declarations.compactMap { $0.replacementKey?.name })
        var added: [String] = []
        var bodies: [String: [String]] = [:]
        for declaration in fix.declarations {
            guard let key = declaration.replacementKey, key.what != "schedule", key.what != "metadata" else { continue }
            if case .remove = declaration.kind { continue }
            let lines = ScenarioCode.text(of: declaration, in: scenario.file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if base.contains(key.name) && lines.count > 2 {
                bodies[key.name] = Array(lines.dropFirst().dropLast())
            } else if !base.contains(key.name) {
                added += lines
            }
        }
        var lines = file.lines
        var changed = false
        for region in template.regions.reversed() {
            let indent = String(lines[region.begin - 1].prefix { $0 == " " })
            var code = added
            if !indent.isEmpty {
                let header = lines[..<(region.begin - 1)].last { $0.hasPrefix("func ") || $0.hasPrefix("thread ") } ?? ""
                let name = header.split(separator: " ").dropFirst().first.map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) } ?? ""
                code = (bodies[name] ?? []).map { String(indent.dropFirst(4)) + $0 }
            }
            guard !code.isEmpty else { continue }
            lines.replaceSubrange(region.begin..<(region.end - 1), with: code)
            changed = true
        }
        return changed ? SourceFile(name: file.name, text: lines.joined(separator: "\n")) : nil
    }

    /// Every fix of every shipped scenario, pasted into every fix-it exercise the way
    /// a student copying `racelab show`'s diff would: none passes.
    @Test(.exhaustive)
    func noScenarioFixPastedIntoAFixItPasses() throws {
        var tried = 0
        for exercise in Self.fixIts {
            for name in Shipped.scenarioNames {
                let scenario = try Shipped.scenario(name)
                for fix in scenario.fixes {
                    guard let submission = Self.pasted(fix, of: scenario, into: exercise) else { continue }
                    tried += 1
                    let grade = GraderTests.grader.grade(submission, student: "s")
                    #expect(!grade.passed, "\(exercise.id) passes with \(name)'s fix \(fix.name) pasted in:\n\(submission.text)")
                }
            }
        }
        #expect(tried > 100)
    }
}
