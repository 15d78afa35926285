import Foundation
import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage

/// `racelab grade FILE…`: grades submissions against the exercises.
struct GradeCommand {
    var locator: ScenarioLocator
    var progress: (@Sendable (String) -> Void)?

    static let spec = CommandSpec(
        name: "grade",
        abstract: "Grade exercise submissions: every interleaving, a reason for each failure.",
        usage:
            "racelab grade <file-or-folder>... [--format text|json|junit|csv] [--csv <file>] [--junit <file>] [--json <file>] [--exercise <id>] [--exercises <folder>]",
        arguments: [("file-or-folder", "A submitted .race file, or a folder searched for them (recursively).")],
        options: [
            .init(name: "format", value: "format", help: "text (the default), json, junit (JUnit XML) or csv (one row per\nstudent and exercise)."),
            .init(name: "csv", value: "file", help: "Also write the CSV report to this file."),
            .init(name: "junit", value: "file", help: "Also write the JUnit XML report to this file."),
            .init(name: "json", value: "file", help: "Also write the JSON report to this file."),
            .init(name: "exercise", value: "id", help: "Every file must be a submission for this exercise."),
            ScenarioLocator.exercisesOption,
            .init(
                name: "check-solution", value: nil,
                help: "The files are reference solutions: check that each passes with\nfull points, and that its exercise's starter fails."),
            .init(
                name: "teacher", value: nil,
                help: "Tell a wrong prediction which values it missed (and with\nwhich schedule); or set RACELAB_TEACHER=1."),
        ],
        discussion: """
            Each file names its exercise on its 'exercise "ID"' line. The student is the
            folder right under a graded folder (submissions/alice/fix.race: alice), or the
            folder holding a file given by itself. A fix must pass in every interleaving,
            within bounds that do not depend on the machine; a search that a bound cuts
            does not pass. --csv, --junit and --json write more reports from the same
            grading: racelab grade submissions --csv grades.csv --junit grades.xml.
            See docs/TEACHING.md.

            Exit status: 0 only if every file passed, 1 otherwise, 64 usage error,
            73 a report file could not be written.
            """
    )

    func run(_ arguments: [String]) throws(UsageError) -> CommandOutput {
        let parsed = try Self.spec.parse(arguments)
        if parsed.wantsHelp { return CommandOutput(stdout: Self.spec.help) }
        let locator = self.locator.adding(exercises: parsed.values["exercises"])
        let formatName = parsed.values["format"] ?? "text"
        guard let format = GradeReport.Format(rawValue: formatName) else {
            let names = GradeReport.Format.allCases.map(\.rawValue)
            throw UsageError("unknown format '\(formatName)'; use \(names.joined(separator: ", "))" + suggestion(formatName, names), command: Self.spec)
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError("name at least one submitted file or folder", command: Self.spec)
        }
        let (exercises, warnings) = try locator.exercises().mapError { UsageError($0.message, command: Self.spec) }.get()
        if let expected = parsed.values["exercise"], !exercises.contains(where: { $0.id == expected }) {
            throw UsageError("unknown exercise '\(expected)'" + suggestion(expected, exercises.map(\.id)), command: Self.spec)
        }
        // Two reports in one file, or a report over a submission, would lose work.
        let reportPaths = [GradeReport.Format.csv, .junit, .json].compactMap { format in parsed.values[format.rawValue].map { (format, $0) } }
        for (index, (format, path)) in reportPaths.enumerated() {
            let resolved = URL(fileURLWithPath: path).standardizedFileURL.path
            if let (other, _) = reportPaths[..<index].first(where: { URL(fileURLWithPath: $0.1).standardizedFileURL.path == resolved }) {
                throw UsageError("--\(other.rawValue) and --\(format.rawValue) name the same file, \(path): give each report its own", command: Self.spec)
            }
            if parsed.positionals.contains(where: { URL(fileURLWithPath: $0).standardizedFileURL.path == resolved }) {
                throw UsageError("--\(format.rawValue) \(path) would overwrite a file being graded", command: Self.spec)
            }
        }
        let grader = Grader(exercises: exercises, revealsAnswers: Spoilers.teacher(parsed, locator.environment))
        if parsed.flags.contains("check-solution") {
            return checkSolutions(parsed.positionals, grader, warnings)
        }
        var grades: [Grade] = []
        for target in parsed.positionals {
            for item in submissions(target) {
                progress?("grading \(item.path) …")
                switch item.file {
                case .success(let file):
                    grades.append(grader.grade(file, student: item.student, expected: parsed.values["exercise"]))
                case .failure(let failure):
                    grades.append(Grade.invalid(file: item.path, student: item.student, reason: failure.message))
                }
            }
        }
        progress?("")
        let report = GradeReport(grades: grades)
        for (extra, path) in reportPaths {
            if let failure = FileIO.write(report.render(extra), to: path) {
                return CommandOutput(
                    stdout: report.render(format), stderr: warnings + "error: \(failure.message)\n",
                    exitCode: failure.exitCode)
            }
        }
        return CommandOutput(
            stdout: report.render(format), stderr: warnings,
            exitCode: report.allPassed ? ExitCode.success : ExitCode.finding)
    }

    /// `--check-solution`: each file must pass with full points, and the starter of its
    /// exercise (the exercise file as handed out) must not: a teacher's check of an
    /// exercise of their own, with the binary alone.
    func checkSolutions(_ paths: [String], _ grader: Grader, _ warnings: String) -> CommandOutput {
        var out = ""
        var ok = true
        for path in paths {
            let file: SourceFile
            switch ScenarioLocator.read(path) {
            case .success(let read): file = read
            case .failure(let failure):
                return CommandOutput(stdout: out, stderr: warnings + "error: \(failure.message)\n", exitCode: ExitCode.noInput)
            }
            let solution = grader.grade(file, student: "teacher")
            guard let id = solution.exercise, let exercise = grader.exercise(id) else {
                ok = false
                out += "FAIL  \(path): \(solution.reason)\n"
                continue
            }
            let starter = grader.grade(exercise.scenario.file, student: "teacher", expected: id)
            let solutionPasses = solution.status == .passed && solution.points == exercise.points
            let starterFails = starter.status != .passed
            ok = ok && solutionPasses && starterFails
            out += "\(solutionPasses && starterFails ? "OK  " : "FAIL")  \(path)  \(id) (\(exercise.kind.rawValue), \(exercise.points) points)\n"
            out += "      the solution \(solutionPasses ? "passes" : "does not pass"): \(solution.reason)\n"
            out += "      the starter \(starterFails ? "fails" : "passes, so there is nothing to do"): \(starter.reason)\n"
        }
        let count = "\(paths.count) solution\(paths.count == 1 ? "" : "s")"
        out += ok ? "\n\(count) checked: every one passes, and every starter fails.\n" : "\n\(count) checked: some do not hold; see above.\n"
        return CommandOutput(stdout: out, stderr: warnings, exitCode: ok ? ExitCode.success : ExitCode.finding)
    }

    struct Submission {
        var path: String
        var student: String
        var file: Result<SourceFile, GradingError>
    }

    /// The files to grade for one argument: the file itself, or every `.race` file
    /// under a folder, sorted by path.
    func submissions(_ target: String) -> [Submission] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: target, isDirectory: &isDirectory) else {
            // The precise reason: missing, a loop of links, a dangling link, no permission.
            let reason = ScenarioLocator.read(target).failure?.message ?? "no such file or folder"
            return [Submission(path: target, student: "-", file: .failure(GradingError(reason)))]
        }
        guard isDirectory.boolValue else {
            let folder = URL(fileURLWithPath: target).standardizedFileURL.deletingLastPathComponent().lastPathComponent
            return [Submission(path: target, student: folder, file: ScenarioLocator.read(target))]
        }
        let base = target.hasSuffix("/") ? String(target.dropLast()) : target
        var found: [String] = []
        if let walker = manager.enumerator(atPath: target) {
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".race") { found.append(relative) }
            }
        }
        if found.isEmpty {
            return [Submission(path: target, student: "-", file: .failure(GradingError("no .race files in this folder")))]
        }
        return found.sorted().map { relative in
            let parts = relative.split(separator: "/")
            let student = parts.count > 1 ? String(parts[0]) : String(relative.dropLast(5))
            let path = base + "/" + relative
            return Submission(path: path, student: student, file: ScenarioLocator.read(path))
        }
    }
}
