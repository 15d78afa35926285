import RaceLabPresentation

/// Grades written out for people (text), programs (JSON), gradebooks (CSV) and
/// autograders (JUnit XML, Gradescope, GitHub Classroom). Rows keep the order the
/// files were graded in.
public struct GradeReport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, junit, csv
        /// Gradescope's `results.json` (one student's submission).
        case gradescope
        /// The result a GitHub Classroom runner hands its grading reporter (base64 it).
        case classroom
    }

    public var grades: [Grade]

    public init(grades: [Grade]) {
        self.grades = grades
    }

    public var allPassed: Bool { grades.allSatisfy({ $0.passed }) }

    public func render(_ format: Format) -> String {
        switch format {
        case .text: return text()
        case .json: return json().serialized() + "\n"
        case .junit: return junit()
        case .csv: return csv()
        case .gradescope: return gradescope().serialized() + "\n"
        case .classroom: return classroom().serialized() + "\n"
        }
    }

    /// A row's name as a test: its exercise, or else its file.
    func testName(_ grade: Grade) -> String { grade.exercise ?? (grade.file.isEmpty ? grade.student : grade.file) }

    /// What a row says to the student: the reason, then the details.
    func output(_ grade: Grade) -> String {
        grade.details.isEmpty ? grade.reason : grade.reason + "\n\n" + grade.details
    }

    /// Gradescope's autograder results: one test per row, each with its points; a
    /// predict-it row is visible only after the due date (its reason counts how many
    /// values were wrong, and students compare notes), every other row at once.
    /// Fields as Gradescope's autograder specification documents them.
    func gradescope() -> JSON {
        let score = grades.map({ $0.points }).reduce(0, +)
        return .object([
            ("score", .int(score)),
            ("output", .string(summary)),
            ("output_format", .string("text")),
            ("test_output_format", .string("text")),
            ("visibility", .string("visible")),
            ("stdout_visibility", .string("hidden")),
            (
                "tests",
                .array(
                    grades.enumerated().map { index, grade in
                        .object([
                            ("name", .string(testName(grade))),
                            ("number", .string(String(index + 1))),
                            ("score", .int(grade.points)),
                            ("max_score", .int(grade.maxPoints)),
                            ("status", .string(grade.passed ? "passed" : "failed")),
                            ("output", .string(output(grade))),
                            ("tags", .array([.string(grade.status.rawValue)] + (grade.kind.map { [.string($0.rawValue)] } ?? []))),
                            ("visibility", .string(grade.kind == .predictIt ? "after_due_date" : "visible")),
                        ])
                    })
            ),
        ])
    }

    /// A GitHub Classroom test runner's result, as `autograding-grading-reporter`
    /// reads it (base64-encoded, from `<RUNNER>_RESULTS`): one test per row with its
    /// points. `invalid` and `error` rows are the runner's "error" status.
    func classroom() -> JSON {
        func status(_ grade: Grade) -> String {
            switch grade.status {
            case .passed: return "pass"
            case .failed, .missing: return "fail"
            case .invalid, .error: return "error"
            }
        }
        return .object([
            ("version", .int(1)),
            ("status", .string(allPassed ? "pass" : grades.contains { status($0) == "error" } ? "error" : "fail")),
            ("max_score", .int(grades.map({ $0.maxPoints }).reduce(0, +))),
            (
                "tests",
                .array(
                    grades.map { grade in
                        .object([
                            ("name", .string(testName(grade))),
                            ("status", .string(status(grade))),
                            ("message", .string(output(grade))),
                            ("test_code", .string(grade.file.isEmpty ? "" : "racelab grade \(grade.file)")),
                            ("filename", .string(grade.file)),
                            ("line_no", .int(0)),
                            ("execution_time", .string("0s")),
                            ("score", .int(grade.points)),
                        ])
                    })
            ),
        ])
    }

    /// The statuses in the order every summary lists them.
    static let statuses: [Grade.Status] = [.passed, .failed, .invalid, .missing, .error]

    var summary: String {
        let points = grades.map({ $0.points }).reduce(0, +)
        let total = grades.map({ $0.maxPoints }).reduce(0, +)
        var parts: [String] = []
        for status in Self.statuses {
            let count = grades.filter { $0.status == status }.count
            if count > 0 || status == .passed || status == .failed { parts.append("\(count) \(status.rawValue)") }
        }
        return "\(Words.count(grades.count, "row")): \(parts.joined(separator: ", ")); \(points) of \(total) points"
    }

    func text() -> String {
        var out = ""
        for grade in grades {
            let mark = ["passed": "PASS", "failed": "FAIL", "invalid": "INVALID", "missing": "MISSING", "error": "ERROR"][grade.status.rawValue]!
            var head = "\(mark.padded(7)) \(grade.file.isEmpty ? grade.student : grade.file)"
            if let exercise = grade.exercise {
                head += "  \(exercise) (\(grade.kind!.rawValue))  \(grade.points)/\(grade.maxPoints) points"
            }
            out += head + "\n"
            for line in grade.reason.wordWrapped(88, hanging: 0) { out += "      \(line)\n" }
            if !grade.details.isEmpty {
                out +=
                    "\n"
                    + grade.details.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "      \($0)" }
                    .joined(separator: "\n")
                if !grade.details.hasSuffix("\n") { out += "\n" }
            }
            if grade.status == .failed, grade.exercise != nil {
                out += "      Stuck? 'racelab hint \(grade.file)' gives a hint.\n"
            }
            out += "\n"
        }
        return out + summary + "\n"
    }

    func json() -> JSON {
        let passed = grades.filter({ $0.passed }).count
        return .object([
            ("files", .int(grades.count)),
            ("passed", .int(passed)),
            ("points", .int(grades.map({ $0.points }).reduce(0, +))),
            ("maxPoints", .int(grades.map({ $0.maxPoints }).reduce(0, +))),
            (
                "grades",
                .array(
                    grades.map { grade in
                        .object([
                            ("student", .string(grade.student)),
                            ("file", .string(grade.file)),
                            ("exercise", grade.exercise.map(JSON.string) ?? .null),
                            ("kind", grade.kind.map { .string($0.rawValue) } ?? .null),
                            ("status", .string(grade.status.rawValue)),
                            ("points", .int(grade.points)),
                            ("maxPoints", .int(grade.maxPoints)),
                            ("reason", .string(grade.reason)),
                            ("details", .string(grade.details)),
                        ])
                    })
            ),
        ])
    }

    func csv() -> String {
        var out = CSV.row(["student", "exercise", "kind", "file", "status", "points", "max_points", "reason"])
        for grade in grades {
            out += CSV.row([
                grade.student, grade.exercise ?? "", grade.kind?.rawValue ?? "", grade.file, grade.status.rawValue,
                String(grade.points), String(grade.maxPoints), grade.reason,
            ])
        }
        return out
    }

    /// One test suite per student, one test case per file: a failed grade is a
    /// `<failure>`, a file that could not be graded an `<error>`.
    func junit() -> String {
        var students: [String] = []
        for grade in grades where !students.contains(grade.student) { students.append(grade.student) }
        func counts(_ list: [Grade]) -> [(String, String)] {
            [
                ("tests", String(list.count)), ("failures", String(list.filter { $0.status == .failed || $0.status == .missing }.count)),
                ("errors", String(list.filter { $0.status == .invalid || $0.status == .error }.count)),
            ]
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites\(XML.attributes([("name", "racelab grade")] + counts(grades)))>\n"
        for student in students {
            let mine = grades.filter { $0.student == student }
            out += "  <testsuite\(XML.attributes([("name", student)] + counts(mine)))>\n"
            for grade in mine {
                let name = grade.exercise ?? grade.file
                // time is 0: a report is the same bytes on every run (no clock reaches it).
                out += "    <testcase\(XML.attributes([("classname", student), ("name", name), ("file", grade.file), ("time", "0")]))>\n"
                let properties = [("points", grade.points), ("max_points", grade.maxPoints)]
                out += "      <properties>\n"
                for (key, value) in properties { out += "        <property\(XML.attributes([("name", key), ("value", String(value))]))/>\n" }
                out += "      </properties>\n"
                switch grade.status {
                case .passed:
                    out += "      <system-out>\(XML.escape("\(grade.points)/\(grade.maxPoints) points: \(grade.reason)"))</system-out>\n    </testcase>\n"
                case .failed, .invalid, .missing, .error:
                    let tag = grade.status == .failed || grade.status == .missing ? "failure" : "error"
                    out +=
                        "      <\(tag)\(XML.attributes([("message", grade.reason), ("type", grade.status.rawValue)]))>\(XML.escape(output(grade)))</\(tag)>\n    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }
}
