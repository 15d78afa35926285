import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// `racelab grade FILE…`: grades submissions against the exercises.
struct GradeCommand: Command {
    var progress: (@Sendable (String) -> Void)?
    /// The worker processes that grade each file (the CLI's `grade-worker`); nil
    /// grades in this process.
    var workers: WorkerGrading?

    static let spec = CommandSpec(
        name: "grade",
        abstract: "Grade exercise submissions: every interleaving, a reason for each failure.",
        usage:
            "racelab grade <file-or-folder>... [--format \(GradeReport.Format.usage)] [--csv <file>] [--junit <file>] [--json <file>] [--roster <file>] [--assigned <ids>] [--exercise <id>] [--exercises <folder>] [--jobs <n>] [--worker-memory <MB>] [--worker-time <seconds>] | --check-solution <file>...",
        arguments: [("file-or-folder", "A submitted .race file, or a folder searched for them (recursively).")],
        options: [
            .init(
                name: "format", value: "format",
                help:
                    "text (the default), json, junit (JUnit XML), csv (one row per\nstudent and exercise), gradescope (results.json) or classroom\n(a GitHub Classroom runner's result)."
            ),
            .init(name: "csv", value: "file", help: "Also write the CSV report to this file."),
            .init(name: "junit", value: "file", help: "Also write the JUnit XML report to this file."),
            .init(name: "json", value: "file", help: "Also write the JSON report to this file."),
            .init(name: "gradescope", value: "file", help: "Also write Gradescope's results.json to this file."),
            .init(name: "classroom", value: "file", help: "Also write the GitHub Classroom result to this file."),
            .init(
                name: "student", value: "name",
                help: "Every file is this student's: the folder is one submission\n(as on Gradescope or in a Classroom repository)."),
            .init(name: "exercise", value: "id", help: "Every file must be a submission for this exercise."),
            ScenarioLocator.exercisesOption,
            .init(
                name: "roster", value: "file", help: "The class: one student per line (the folder names).\nEach one's missing exercises get a 'missing' row."),
            .init(
                name: "assigned", value: "ids",
                help: "The exercises every student hands in, separated by commas\n(default with --roster: those anyone handed in)."),
            .init(
                name: "check-solution", value: nil,
                help: "The files are reference solutions: check that each passes with\nfull points, and that its exercise's starter fails."),
            .init(
                name: "teacher", value: nil,
                help: "Tell a wrong prediction which values it missed (and with\nwhich schedule); or set RACELAB_TEACHER=1.", hidden: true),
            .init(name: "jobs", value: "n", help: "Grade this many files at once, each in a worker process\n(default: the number of cores)."),
            .init(
                name: "worker-memory", value: "MB",
                help: "The memory one worker may use (default 2048). A file that\nneeds more gets an 'error' row; the others are graded."),
            .init(
                name: "worker-time", value: "seconds",
                help: "The time one file may take (default 600). A file that takes\nlonger gets an 'error' row, and its worker is replaced."),
        ],
        discussion: """
            Each file names its exercise on its 'exercise "ID"' line. The student is the
            folder right under a graded folder (submissions/alice/fix.race: alice), or the
            folder holding a file given by itself. A fix must pass in every interleaving,
            within bounds that do not depend on the machine; a search that a bound cuts
            does not pass. --csv, --junit and --json write more reports from the same
            grading: racelab grade submissions --csv grades.csv --junit grades.xml.
            Each file is graded in a worker process (racelab itself) with its own
            memory and time: a file that crashes the grader, or needs more than the
            limits, gets an 'error' row saying why, and every other file is graded.
            See docs/TEACHING.md.

            Exit status: 0 only if every file passed, 1 otherwise, 64 usage error,
            73 a report file could not be written.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        let locator = context.locator
        let format: GradeReport.Format = try parsed.value("format", Self.spec) ?? .text
        guard !parsed.positionals.isEmpty else {
            throw UsageError("name at least one submitted file or folder", command: Self.spec)
        }
        let (exercises, warnings) = try locator.exercises().mapError { UsageError($0.message, command: Self.spec) }.get()
        if let expected = parsed.values["exercise"], !exercises.contains(where: { $0.id == expected }) {
            throw UsageError("unknown exercise '\(expected)'" + suggestion(expected, exercises.map { $0.id }), command: Self.spec)
        }
        // Two reports in one file, or a report over a submission, would lose work.
        let reportPaths = [GradeReport.Format.csv, .junit, .json, .gradescope, .classroom].compactMap { format in
            parsed.values[format.rawValue].map { (format, $0) }
        }
        for (index, (format, path)) in reportPaths.enumerated() {
            let files = locator.files
            let resolved = files.standardized(path)
            if let (other, _) = reportPaths[..<index].first(where: { files.standardized($0.1) == resolved }) {
                throw UsageError("--\(other.rawValue) and --\(format.rawValue) name the same file, \(path): give each report its own", command: Self.spec)
            }
            if parsed.positionals.contains(where: { files.standardized($0) == resolved }) {
                throw UsageError("--\(format.rawValue) \(path) would overwrite a file being graded", command: Self.spec)
            }
        }
        let grader = Grader(exercises: exercises, revealsAnswers: context.isTeacher)
        let grading = try Grading(context, grader: grader, command: self)
        if parsed.flags.contains("check-solution") {
            return checkSolutions(parsed.positionals, locator, grading, warnings)
        }
        let roster: [String]?
        switch try readRoster(parsed.values["roster"], locator.files) {
        case .success(let names): roster = names
        case .failure(let output): return output
        }
        var assigned: [Exercise]?
        if let list = parsed.values["assigned"] {
            assigned = []
            for id in list.split(separator: ",").map({ String($0).trimmingCharacters(in: " \t") }) where !id.isEmpty {
                guard let exercise = grader.exercise(id) else {
                    throw UsageError("--assigned names an unknown exercise '\(id)'" + suggestion(id, exercises.map { $0.id }), command: Self.spec)
                }
                assigned!.append(exercise)
            }
        }
        // Every file read first, then graded (in workers); each row where its file was.
        var rows: [Grade?] = []
        var jobs: [WorkerProtocol.Job] = []
        for target in parsed.positionals {
            for item in submissions(target, locator, exercises: grader, student: parsed.values["student"], assigned: assigned != nil) {
                switch item.file {
                case .success(let file):
                    rows.append(nil)
                    jobs.append(WorkerProtocol.Job(file: file, student: item.student, expected: parsed.values["exercise"]))
                case .failure(let failure):
                    let named = grader.exercise(Self.stem(of: item.path))
                    rows.append(Grade.invalid(file: item.path, student: item.student, reason: failure.message, exercise: named, status: item.status))
                }
            }
        }
        var graded = grading.grade(jobs).makeIterator()
        var grades = rows.map { $0 ?? graded.next()! }
        progress?("")
        grades = Self.withMissing(grades, missingRows(grades, roster: roster, assigned: assigned, grader, student: parsed.values["student"]))
        var notes = warnings
        if let roster {
            let listed = Set(roster)
            var unlisted: [String] = []
            var warned: Set<String> = []
            for grade in grades where grade.student != "-" && !listed.contains(grade.student) && warned.insert(grade.student).inserted {
                unlisted.append(grade.student)
            }
            for student in unlisted { notes += "warning: \(student) handed in files but is not on the roster\n" }
        }
        let report = GradeReport(grades: grades)
        for (extra, path) in reportPaths {
            if let failure = locator.files.write(report.render(extra), path, false) {
                return CommandOutput(
                    stdout: report.render(format), stderr: notes + "error: \(failure.message)\n",
                    status: failure.status)
            }
        }
        return CommandOutput(
            stdout: report.render(format), stderr: notes,
            status: report.allPassed ? .success : .finding)
    }

    /// `--check-solution`: each file must pass with full points, and the starter of its
    /// exercise (the exercise file as handed out) must not: a teacher's check of an
    /// exercise of their own, with the binary alone.
    func checkSolutions(_ paths: [String], _ locator: ScenarioLocator, _ grading: Grading, _ warnings: String) -> CommandOutput {
        let grader = grading.grader
        // The files up to the first that cannot be read (which ends the check).
        var files: [SourceFile] = []
        var unreadable: GradingError?
        for path in paths {
            switch locator.read(path) {
            case .success(let read): files.append(read)
            case .failure(let failure): unreadable = failure
            }
            if unreadable != nil { break }
        }
        let solutions = grading.grade(files.map { WorkerProtocol.Job(file: $0, student: "teacher", expected: nil) })
        let exercises = solutions.map { solution in solution.exercise.flatMap(grader.exercise) }
        let starterJobs = exercises.compactMap { $0.map { WorkerProtocol.Job(file: $0.scenario.file, student: "teacher", expected: $0.id) } }
        var starters = grading.grade(starterJobs).makeIterator()
        var out = ""
        var ok = true
        for (index, solution) in solutions.enumerated() {
            let path = paths[index]
            guard let exercise = exercises[index] else {
                ok = false
                out += "FAIL  \(path): \(solution.reason)\n"
                continue
            }
            let starter = starters.next()!
            let solutionPasses = solution.status == .passed && solution.points == exercise.points
            let starterFails = starter.status != .passed
            ok = ok && solutionPasses && starterFails
            out += "\(solutionPasses && starterFails ? "OK  " : "FAIL")  \(path)  \(exercise.id) (\(exercise.kind.rawValue), \(exercise.points) points)\n"
            out += "      the solution \(solutionPasses ? "passes" : "does not pass"): \(solution.reason)\n"
            out += "      the starter \(starterFails ? "fails" : "passes, so there is nothing to do"): \(starter.reason)\n"
        }
        if let unreadable {
            return CommandOutput(stdout: out, stderr: warnings + "error: \(unreadable.message)\n", status: .noInput)
        }
        let count = Words.count(paths.count, "solution")
        out += ok ? "\n\(count) checked: every one passes, and every starter fails.\n" : "\n\(count) checked: some do not hold; see above.\n"
        return CommandOutput(stdout: out, stderr: warnings, status: ok ? .success : .finding)
    }

    struct Submission {
        var path: String
        var student: String
        var file: Result<SourceFile, GradingError>
        /// For a file that is not graded: `error` when it could not be read,
        /// `invalid` when it is not where or what a submission is.
        var status: Grade.Status = .error
    }

    /// A file's name without its folders and everything from its first dot:
    /// `alice/counter-fix.race.txt` → `counter-fix`.
    static func stem(of path: String) -> String {
        String((path.split(separator: "/").last ?? "").split(separator: ".", omittingEmptySubsequences: false).first ?? "")
    }

    /// The files to grade for one argument: the file itself, or every `.race` file
    /// right inside a student's folder under a folder, sorted by path. A file that is
    /// almost a submission (another extension, `counter-fix.race.txt`, or a folder
    /// inside the student's) is a row that says why it was not graded, never a
    /// silent skip; hidden files and files named after no exercise are left out.
    ///
    /// With `--student` and `--assigned`, a folder with no submission in it (empty, a
    /// README, unrelated files) is a student who handed nothing in: no row here, and a
    /// 'missing' row for each assigned exercise (`missingRows`).
    func submissions(
        _ target: String, _ locator: ScenarioLocator, exercises grader: Grader, student owner: String? = nil, assigned: Bool = false
    ) -> [Submission] {
        let files = locator.files
        guard let kind = files.kind(target) else {
            // The precise reason: missing, a loop of links, a dangling link, no permission.
            let reason = locator.read(target).failure?.message ?? "no such file or folder"
            return [Submission(path: target, student: "-", file: .failure(GradingError(reason)))]
        }
        guard kind == .directory else {
            let folder = Path.lastPart(Path.parent(files.standardized(target)))
            return [Submission(path: target, student: owner ?? folder, file: locator.read(target))]
        }
        let base = target.hasSuffix("/") ? String(target.dropLast()) : target
        var found: [String] = []
        for relative in files.walk(target) {
            // Hidden files and folders (.git, a checkout of RaceLab itself) are not submissions.
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }), files.kind(base + "/" + relative) == .file
            else { continue }
            if relative.hasSuffix(".race") || relative.includes(".race") || grader.exercise(Self.stem(of: relative)) != nil {
                found.append(relative)
            }
        }
        if found.isEmpty {
            if owner != nil && assigned { return [] }
            return [Submission(path: target, student: owner ?? "-", file: .failure(GradingError("no .race files in this folder")), status: .invalid)]
        }
        return found.sorted().map { relative in
            // One student's folder (--student): its files are the submissions, so the
            // parts are counted as if it were inside a class folder.
            let parts = (owner.map { [Substring($0)] } ?? []) + relative.split(separator: "/")
            let student = parts.count > 1 ? String(parts[0]) : String(relative.dropLast(5))
            let path = base + "/" + relative
            let name = String(parts.last!)
            if !name.hasSuffix(".race") {
                let wanted = grader.exercise(Self.stem(of: name)).map { "\($0.id).race" } ?? "after its exercise, ending in .race"
                let why = "not graded: the file is named \(name); a submission is named \(wanted)"
                return Submission(path: path, student: student, file: .failure(GradingError(why)), status: .invalid)
            }
            if parts.count > 2 {
                let folders = parts.dropFirst().dropLast().joined(separator: "/")
                let why =
                    owner == nil
                    ? "not graded: it is in a folder inside \(student)'s (\(folders)); put it right in \(student)/"
                    : "not graded: it is in a folder (\(folders)); put it at the top of the submission"
                return Submission(path: path, student: student, file: .failure(GradingError(why)), status: .invalid)
            }
            return Submission(path: path, student: student, file: locator.read(path))
        }
    }

    /// The class list of a roster file: one name per line; blank lines and lines
    /// starting with '#' are left out, each name once.
    func readRoster(_ path: String?, _ files: FileSystem) throws(UsageError) -> Result<[String]?, CommandOutput> {
        guard let path else { return .success(nil) }
        let text: String
        switch files.read(path) {
        case .success(let read): text = read
        case .failure(let failure): return .failure(CommandOutput(stderr: "error: --roster: \(failure.message)\n", status: failure.status))
        }
        var names: [String] = []
        var seen: Set<String> = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            let name = String(line).trimmingCharacters(in: " \t")
            guard !name.isEmpty, !name.hasPrefix("#") else { continue }
            guard !name.contains("/") else { throw UsageError("--roster \(path): '\(name)' is not a student's folder name", command: Self.spec) }
            if seen.insert(name).inserted { names.append(name) }
        }
        return .success(names)
    }

    /// A 'missing' row for each student of the class and each assigned exercise with
    /// no row yet (a row for the exercise in any status counts as handed in). The
    /// class is the roster, or else the students found (and the `--student`, who may
    /// have handed in nothing); the assignment is `--assigned`, or else, with a roster,
    /// the exercises anyone handed in.
    func missingRows(_ grades: [Grade], roster: [String]?, assigned: [Exercise]?, _ grader: Grader, student: String? = nil) -> [Grade] {
        guard roster != nil || assigned != nil else { return [] }
        var students = roster ?? []
        if roster == nil {
            var found: Set<String> = []
            for grade in grades where grade.student != "-" && found.insert(grade.student).inserted { students.append(grade.student) }
            if let student, found.insert(student).inserted { students.append(student) }
        }
        let handedIn = Set(grades.compactMap { grade in grade.exercise.map { "\(grade.student)\u{0}\($0)" } })
        let anyHandedIn = Set(grades.compactMap { $0.exercise })
        let exercises = assigned ?? grader.exercises.filter { anyHandedIn.contains($0.id) }
        var rows: [Grade] = []
        for student in students {
            for exercise in exercises where !handedIn.contains("\(student)\u{0}\(exercise.id)") {
                rows.append(.missing(student: student, exercise: exercise))
            }
        }
        return rows
    }

    /// `grades` with each student's missing rows right after their other rows (a
    /// student with none at the end), in one pass.
    static func withMissing(_ grades: [Grade], _ missing: [Grade]) -> [Grade] {
        guard !missing.isEmpty else { return grades }
        var rowsOf: [String: [Grade]] = [:]
        var order: [String] = []
        for row in missing {
            if rowsOf[row.student] == nil { order.append(row.student) }
            rowsOf[row.student, default: []].append(row)
        }
        var last: [String: Int] = [:]
        for (index, grade) in grades.enumerated() { last[grade.student] = index }
        var out: [Grade] = []
        out.reserveCapacity(grades.count + missing.count)
        for (index, grade) in grades.enumerated() {
            out.append(grade)
            if last[grade.student] == index, let rows = rowsOf[grade.student] { out += rows }
        }
        for student in order where last[student] == nil { out += rowsOf[student]! }
        return out
    }
}
