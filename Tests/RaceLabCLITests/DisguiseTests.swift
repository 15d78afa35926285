import Foundation
import RaceLabCLI
import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabTestSupport
import Testing

/// The spoiler guard knows a break-it or predict-it exercise's program, not its
/// header: every disguise of every such shipped exercise is refused as the exercise
/// is, and a program that behaves differently is not.
struct DisguiseTests {
    let racelab = RaceLab(environment: [:])

    /// One way a student may copy an exercise to get its answer printed.
    enum Disguise: String, CaseIterable {
        case headerRemoved, kindChanged, idRenamed, commentsAndWhitespace, namesRenamed, reordered
        case deadStatement, unusedVariable, idleThread, everything

        /// `exercise`'s file, disguised.
        func apply(to exercise: Exercise) -> String {
            let file = exercise.scenario.file
            let declarations = exercise.scenario.declarations
            // Each declaration runs up to the next one (a check's range ends at its condition).
            var parts: [(kind: DeclarationKind, text: String)] = declarations.indices.map { index in
                let end =
                    index + 1 < declarations.count ? declarations[index + 1].range.start : RaceLabLanguage.SourceLocation(line: file.lines.count + 1, column: 1)
                return (kind: declarations[index].kind, text: Self.text(from: declarations[index].range.start, to: end, in: file))
            }
            let all = self == .everything
            if self == .kindChanged {
                parts = parts.map { part in
                    guard case .metadata("kind", _) = part.kind else { return part }
                    return (part.kind, "kind \"fix it\"")
                }
            }
            if self == .idRenamed {
                parts = parts.map { part in
                    guard case .metadata("exercise", _) = part.kind else { return part }
                    return (part.kind, "exercise \"my-own-copy\"")
                }
            }
            // Only a changed kind or ID keeps the header: every other disguise tests the
            // guard on the program alone.
            if self != .kindChanged && self != .idRenamed {
                parts.removeAll { if case .metadata = $0.kind { true } else { false } }
            }
            if self == .reordered || all {
                // Threads, checks and variables each in the opposite order; classes and
                // functions after the threads that call them.
                let rank: (DeclarationKind) -> Int = { kind in
                    switch kind {
                    case .metadata: 0
                    case .global: 1
                    case .thread: 2
                    case .class, .function: 3
                    default: 4
                    }
                }
                parts = parts.enumerated().sorted { a, b in
                    (rank(a.element.kind), -a.offset) < (rank(b.element.kind), -b.offset)
                }.map(\.element)
            }
            if self == .deadStatement || all {
                if let index = parts.firstIndex(where: { if case .thread = $0.kind { true } else { false } }),
                    let brace = parts[index].text.firstIndex(of: "{")
                {
                    parts[index].text.insert(contentsOf: "\n    let unusedPadding = 1\n    if false { }", at: parts[index].text.index(after: brace))
                }
            }
            if self == .unusedVariable || all {
                parts.insert((.metadata(key: "", value: ""), "var neverUsed = 42"), at: 0)
            }
            if self == .idleThread || all {
                parts.append((.metadata(key: "", value: ""), "thread Idle {\n    var local = 0\n    local += 1\n    local += 1\n}"))
            }
            var text = parts.map(\.text).joined(separator: self == .commentsAndWhitespace || all ? "\n\n   // copied, not mine\n\n" : "\n\n")
            if self == .commentsAndWhitespace || all {
                text = text.replacingOccurrences(of: "    ", with: "\t") + "\n// the end\n"
            }
            if self == .namesRenamed || all {
                let program = exercise.program
                let names =
                    program.globals.map(\.name) + program.classes.map(\.name) + program.threads.map(\.name).filter { $0 != "main" }
                    + exercise.scenario.declarations.compactMap { if case .function(let f) = $0.kind { f.name } else { nil } }
                text = Self.renamed(text, Dictionary(uniqueKeysWithValues: Set(names).map { ($0, "\($0)Copy") }))
            }
            return text + "\n"
        }

        /// The text of `file` from `start` up to `end`, without the comment lines
        /// before `end` (the next declaration's) and trailing blank lines.
        static func text(from start: RaceLabLanguage.SourceLocation, to end: RaceLabLanguage.SourceLocation, in file: SourceFile) -> String {
            var lines: [String] = []
            for number in start.line...min(end.line, file.lines.count) {
                let scalars = Array(file.line(number).unicodeScalars)
                let from = number == start.line ? start.column - 1 : 0
                let to = number == end.line ? min(end.column - 1, scalars.count) : scalars.count
                lines.append(from < to ? String(String.UnicodeScalarView(scalars[from..<to])) : "")
            }
            while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty || last.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                lines.removeLast()
            }
            return lines.joined(separator: "\n")
        }

        /// `text` with each identifier in `names` replaced, whole words only.
        static func renamed(_ text: String, _ names: [String: String]) -> String {
            var result = ""
            var word = ""
            for character in text + " " {
                if character.isLetter || character.isNumber || character == "_" {
                    word.append(character)
                } else {
                    result += names[word] ?? word
                    word = ""
                    result.append(character)
                }
            }
            return String(result.dropLast())
        }
    }

    /// The guarded shipped exercises.
    static func guarded() throws -> [Exercise] {
        try Shipped.exerciseNames.map { id in
            try Exercise(Scenario.load(name: id, file: SourceFile(name: id + ".race", text: try Shipped.exerciseText(id))))
        }.filter(\.kind.answerIsSecret)
    }

    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-disguises")
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Every disguise of every break-it and predict-it exercise: it compiles, behaves
    /// as the exercise, and `explore`, `verify`, `run`, `export` and `step` keep its
    /// answer, naming the exercise it behaves as; the teacher's switch shows it.
    @Test(.exhaustive) func everyDisguiseIsRefusedAsTheExerciseIs() throws {
        let exercises = try Self.guarded()
        #expect(exercises.count >= 10)
        for exercise in exercises {
            for disguise in Disguise.allCases {
                let path = Self.folder.appendingPathComponent("\(exercise.id)-\(disguise.rawValue).race").path
                try disguise.apply(to: exercise).write(toFile: path, atomically: true, encoding: .utf8)
                let label = "\(exercise.id), \(disguise.rawValue)"
                let scenario: Scenario
                do {
                    scenario = try Scenario.load(name: "copy", file: SourceFile(name: path, text: try String(contentsOfFile: path, encoding: .utf8)))
                } catch {
                    Issue.record("\(label) does not compile: \((error as? ScriptError)?.rendered ?? "\(error)")")
                    continue
                }
                #expect(Behaviour.of(scenario.versions[0].program) == Behaviour.of(exercise.program), "\(label)")
                let resembles =
                    disguise == .idRenamed
                    ? "is a \(exercise.kind.rawValue.replacingOccurrences(of: " ", with: "-")) exercise"
                    : "behaves as a \(exercise.kind.rawValue.replacingOccurrences(of: " ", with: "-")) exercise, '\(exercise.id)'"
                // Explore on every disguise; every other command on the one that does it
                // all (each asks the same guard).
                let explore = racelab.main(["explore", path])
                switch exercise.kind {
                case .predictIt:
                    #expect(explore.exitCode == 64 && explore.stderr.contains(resembles), "\(label): \(explore.stderr)")
                default:
                    #expect(explore.stdout.contains("Counterexample: hidden"), "\(label): \(explore.stdout)")
                    #expect(!explore.stdout.contains("--schedule"), "\(label)")
                }
                guard disguise == .everything else { continue }
                if exercise.kind == .predictIt {
                    let verify = racelab.main(["verify", path])
                    #expect(verify.exitCode == 64 && verify.stderr.contains(resembles), "\(label): \(verify.stderr)")
                }
                let run = racelab.main(["run", path])
                #expect(run.exitCode == 64 && run.stderr.contains(resembles), "\(label): \(run.stderr)")
                let export = racelab.main(["export", path, "--format", "html"])
                #expect(export.exitCode == 64 && export.stderr.contains(resembles), "\(label): \(export.stderr)")
                var stepper = RaceLab(environment: [:])
                var input = ["h", "x", "q"][...]
                stepper.readLine = { input.popFirst() }
                let step = stepper.main(["step", path])
                #expect(step.stdout.contains("no hints that look ahead here"), "\(label): \(step.stdout)")
                #expect(step.stdout.contains("hint \(exercise.id))"), "\(label): the exercise's own hints")
                #expect(step.stdout.contains("no random runs here"), "\(label)")
                let teacher = racelab.main(["explore", path, "--teacher"])
                #expect(teacher.exitCode != 64 && teacher.stdout.contains("Outcomes") && !teacher.stdout.contains("hidden"), "\(label)")
            }
        }
    }

    /// No shipped scenario's version, and no fix-it exercise's starter, behaves as a
    /// guarded exercise: the guard never refuses them, as shipped or copied.
    @Test(.exhaustive) func noShippedProgramBehavesAsAGuardedExercise() throws {
        let behaviours = try Self.guarded().map { (id: $0.id, behaviour: Behaviour.of($0.program)) }
        for (id, behaviour) in behaviours { #expect(behaviour != nil, "\(id) is too large to be recognised") }
        var programs: [(String, Program)] = []
        for name in Shipped.scenarioNames {
            for version in try Shipped.scenario(name).versions { programs.append(("\(name) \(version.fix ?? "")", version.program)) }
        }
        for id in Shipped.exerciseNames {
            let scenario = try Scenario.load(name: id, file: SourceFile(name: id + ".race", text: try Shipped.exerciseText(id)))
            if try !Exercise(scenario).kind.answerIsSecret { programs.append((id, scenario.versions[0].program)) }
        }
        for (name, program) in programs {
            guard let behaviour = Behaviour.of(program) else { continue }
            for guarded in behaviours where guarded.behaviour == behaviour {
                Issue.record("\(name) behaves as the exercise \(guarded.id)")
            }
        }
        // A copy of a shipped scenario under another name is explored as usual.
        let path = Self.folder.appendingPathComponent("my-singleton.race").path
        try Shipped.text("singleton-race").write(toFile: path, atomically: true, encoding: .utf8)
        let explore = racelab.main(["explore", path])
        #expect(explore.exitCode == 1 && explore.stdout.contains("racelab run \(path) --schedule"), "\(explore.stderr)")
    }

    /// What the guard compares with does not depend on the disk: an `--exercises`
    /// folder that is missing or a file, or one holding a student's own exercise under
    /// a shipped ID, hides no shipped exercise; a copy named like a shipped scenario is
    /// no shipped scenario; and a variable wrapped in an array is the same variable.
    @Test func theGuardFailsClosed() throws {
        let exercise = try #require(try Self.guarded().first { $0.id == "counter-predict" })
        let copy = Self.folder.appendingPathComponent("counter-copy.race").path
        try Disguise.headerRemoved.apply(to: exercise).write(toFile: copy, atomically: true, encoding: .utf8)
        let own = Self.folder.appendingPathComponent("own")
        try? FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        _ = racelab.main(["new", "exercise", "counter-predict", "--kind", "fix", "--output", own.appendingPathComponent("counter-predict.race").path])
        for extra in [["--exercises", "/no/such/folder"], ["--exercises", copy], ["--exercises", own.path]] {
            let explore = racelab.main(["explore", copy] + extra)
            #expect(explore.exitCode == 64 && explore.stderr.contains("behaves as a predict-it exercise, 'counter-predict'"), "\(extra): \(explore.stderr)")
        }
        let byEnvironment = RaceLab(environment: ["RACELAB_EXERCISES": own.path]).main(["explore", copy])
        #expect(byEnvironment.exitCode == 64, "\(byEnvironment.stdout)")
        // Named like a shipped scenario, in a folder of its own.
        let named = Self.folder.appendingPathComponent("lost-update.race").path
        try Disguise.headerRemoved.apply(to: exercise).write(toFile: named, atomically: true, encoding: .utf8)
        #expect(racelab.main(["explore", named]).exitCode == 64)
        // The counter held in a one-element array.
        let wrapped = Disguise.headerRemoved.apply(to: exercise).replacingOccurrences(of: "var visits = 0", with: "var visits = [0]")
            .replacingOccurrences(of: "visits += ", with: "visits[0] += ")
        #expect(wrapped.contains("visits[0] += "))
        let wrappedPath = Self.folder.appendingPathComponent("counter-wrapped.race").path
        try wrapped.write(toFile: wrappedPath, atomically: true, encoding: .utf8)
        let explore = racelab.main(["explore", wrappedPath])
        #expect(explore.exitCode == 64, "\(explore.stdout)")
    }

    /// The teacher's switch is named in `racelab help teaching` only: in no help
    /// screen, usage line or refusal a student meets.
    @Test func theTeachersSwitchIsNamedOnlyInItsTopic() throws {
        let root = racelab.main(["help"]).stdout
        let names = root.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first, word.allSatisfy(\.isLetter) else { return nil }
            return String(word)
        }
        #expect(names.count >= 10, "\(names)")
        var screens = [root, racelab.main(["explore", "no-such-scenario"]).stderr]
        for name in names { screens.append(racelab.main(["help", name]).stdout + racelab.main([name, "--no-such-option"]).stderr) }
        let ids = try Self.guarded().map(\.id)
        for id in ids {
            screens += ["explore", "verify", "run", "export"].map { racelab.main([$0, id]).stderr }
        }
        for screen in screens { #expect(!screen.lowercased().contains("teacher"), "\(screen)") }
        let topic = racelab.main(["help", "teaching"])
        #expect(topic.exitCode == 0 && topic.stdout.contains("--teacher") && topic.stdout.contains("RACELAB_TEACHER=1"))
    }
}
