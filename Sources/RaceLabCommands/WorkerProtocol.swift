import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// What `racelab grade` and its workers (`racelab grade-worker`) say to each other:
/// one JSON value per line (`JSON.compact()`, which escapes every line end inside
/// a string), the parent writing to the worker's standard input and reading its
/// standard output.
///
/// 1. The parent's first line, `Setup`: the exercises (each file's name and text, as
///    the parent loaded them, so a worker never looks for exercises of its own) and
///    whether answers may be revealed (`--teacher`).
/// 2. Then one `Job` per line, a file to grade (its name, text, student and the
///    exercise it must be); the worker answers each with one line, before it reads
///    the next: `{"grade": …}` (`Grade.wire`), or `{"error": "…"}` when it cannot.
/// 3. The parent closes the worker's standard input when there is no more work, and
///    the worker exits 0.
///
/// A worker that dies, or answers nothing in time, has stopped on its file: the pool
/// writes that file's row and starts another worker (`WorkerPool`).
package enum WorkerProtocol {
    package struct Setup: Equatable {
        package var exercises: [SourceFile]
        package var revealsAnswers: Bool

        package var wire: JSON {
            .object([
                ("exercises", .array(exercises.map { .object([("name", .string($0.name)), ("text", .string($0.text))]) })),
                ("teacher", .bool(revealsAnswers)),
            ])
        }

        package init(exercises: [SourceFile], revealsAnswers: Bool) {
            self.exercises = exercises
            self.revealsAnswers = revealsAnswers
        }

        package init(wire: JSON) throws(WireError) {
            guard case .array(let items)? = wire["exercises"], let teacher = wire["teacher"]?.boolValue else {
                throw WireError("the setup has no exercises")
            }
            var files: [SourceFile] = []
            for item in items {
                guard let name = item["name"]?.stringValue, let text = item["text"]?.stringValue else {
                    throw WireError("an exercise has no name or text")
                }
                files.append(SourceFile(name: name, text: text))
            }
            self.init(exercises: files, revealsAnswers: teacher)
        }
    }

    /// One file to grade, as `Grader.grade(_:student:expected:)` takes it.
    package struct Job: Equatable, Sendable {
        package var file: SourceFile
        package var student: String
        package var expected: String?

        package var wire: JSON {
            .object([
                ("file", .string(file.name)), ("text", .string(file.text)), ("student", .string(student)),
                ("expected", expected.map(JSON.string) ?? .null),
            ])
        }

        package init(file: SourceFile, student: String, expected: String?) {
            self.file = file
            self.student = student
            self.expected = expected
        }

        package init(wire: JSON) throws(WireError) {
            guard let name = wire["file"]?.stringValue, let text = wire["text"]?.stringValue, let student = wire["student"]?.stringValue
            else { throw WireError("the request names no file, text or student") }
            let expected = try WireError.optionalString(wire["expected"], "expected")
            self.init(file: SourceFile(name: name, text: text), student: student, expected: expected)
        }
    }

    /// A message that does not say what it should.
    package struct WireError: Error, Equatable {
        package var message: String

        package init(_ message: String) {
            self.message = message
        }

        /// A field that is a string or null (or absent, for null).
        package static func optionalString(_ value: JSON?, _ name: String) throws(WireError) -> String? {
            switch value {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw WireError("'\(name)' is not a string or null")
            }
        }
    }

    /// Reads one line of the protocol.
    package static func read(_ line: String) throws(WireError) -> JSON {
        do throws(JSON.ParseError) {
            return try JSON.parse(line)
        } catch {
            throw WireError("not JSON: \(error.message) at byte \(error.offset)")
        }
    }
}

extension Grade {
    /// Every field of the grade, so that `Grade(wire: grade.wire) == grade` (the fields
    /// and order of a row of `racelab grade --format json`).
    package var wire: JSON {
        .object([
            ("student", .string(student)), ("file", .string(file)), ("exercise", exercise.map(JSON.string) ?? .null),
            ("kind", kind.map { .string($0.rawValue) } ?? .null), ("status", .string(status.rawValue)), ("points", .int(points)),
            ("maxPoints", .int(maxPoints)), ("reason", .string(reason)), ("details", .string(details)),
        ])
    }

    package init(wire: JSON) throws(WorkerProtocol.WireError) {
        typealias WireError = WorkerProtocol.WireError
        guard let file = wire["file"]?.stringValue, let student = wire["student"]?.stringValue,
            let status = wire["status"]?.stringValue.flatMap(Status.init(rawValue:)), let points = wire["points"]?.intValue,
            let maxPoints = wire["maxPoints"]?.intValue, let reason = wire["reason"]?.stringValue, let details = wire["details"]?.stringValue
        else { throw WireError("the grade is missing a field, or has one of the wrong kind") }
        self = .invalid(file: file, student: student, reason: reason)
        exercise = try WireError.optionalString(wire["exercise"], "exercise")
        if let kind = try WireError.optionalString(wire["kind"], "kind") {
            guard let known = Exercise.Kind(rawValue: kind) else { throw WireError("unknown kind '\(kind)'") }
            self.kind = known
        }
        self.status = status
        self.points = points
        self.maxPoints = maxPoints
        self.details = details
    }
}
