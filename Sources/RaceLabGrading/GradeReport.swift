import RaceLabPresentation

/// Grades written out for people (text), programs (JSON), gradebooks (CSV) and
/// autograders (JUnit XML). Rows keep the order the files were graded in.
public struct GradeReport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, junit, csv
    }

    public var grades: [Grade]

    public init(grades: [Grade]) {
        self.grades = grades
    }

    public var allPassed: Bool { grades.allSatisfy(\.passed) }

    public func render(_ format: Format) -> String {
        switch format {
        case .text: return text()
        case .json: return json().serialized() + "\n"
        case .junit: return junit()
        case .csv: return csv()
        }
    }

    /// The statuses in the order every summary lists them.
    static let statuses: [Grade.Status] = [.passed, .failed, .invalid, .missing, .error]

    var summary: String {
        let points = grades.map(\.points).reduce(0, +)
        let total = grades.map(\.maxPoints).reduce(0, +)
        var parts: [String] = []
        for status in Self.statuses {
            let count = grades.filter { $0.status == status }.count
            if count > 0 || status == .passed || status == .failed { parts.append("\(count) \(status.rawValue)") }
        }
        return "\(grades.count) row\(grades.count == 1 ? "" : "s"): \(parts.joined(separator: ", ")); \(points) of \(total) points"
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
        let passed = grades.filter(\.passed).count
        return .object([
            ("files", .int(grades.count)),
            ("passed", .int(passed)),
            ("points", .int(grades.map(\.points).reduce(0, +))),
            ("maxPoints", .int(grades.map(\.maxPoints).reduce(0, +))),
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
                out += "    <testcase\(XML.attributes([("classname", student), ("name", name), ("file", grade.file)]))"
                switch grade.status {
                case .passed:
                    out += ">\n      <system-out>\(XML.escape("\(grade.points)/\(grade.maxPoints) points: \(grade.reason)"))</system-out>\n    </testcase>\n"
                case .failed, .invalid, .missing, .error:
                    let tag = grade.status == .failed || grade.status == .missing ? "failure" : "error"
                    let body = XML.escape(grade.details.isEmpty ? grade.reason : grade.reason + "\n\n" + grade.details)
                    out += ">\n      <\(tag)\(XML.attributes([("message", grade.reason), ("type", grade.status.rawValue)]))>\(body)</\(tag)>\n    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }
}
