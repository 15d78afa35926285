/// The verdict on one submitted file.
public struct Grade: Sendable, Equatable {
    /// One vocabulary in every format; every status but `passed` scores what the
    /// grade says (0 unless partial credit applies), and counts as not passed.
    public enum Status: String, Sendable {
        case passed
        /// Graded, and it does not pass.
        case failed
        /// Not a submission that can be graded: empty, not an exercise, an unknown or
        /// misnamed exercise, a file that does not compile, a file with another
        /// extension or in a folder inside the student's.
        case invalid
        /// No file for an exercise the student should have handed in.
        case missing
        /// The file could not be read.
        case error
    }

    /// The path as given or found.
    public var file: String
    /// Who handed it in: the name of the folder that holds the file.
    public var student: String
    /// The exercise's ID, when the file names a known one.
    public var exercise: String?
    public var kind: Exercise.Kind?
    public var status: Status
    public var points: Int
    public var maxPoints: Int
    /// One line: why it passed or failed.
    public var reason: String
    /// More lines for a person: the counterexample trace and its replay command, the
    /// compiler's messages, the changed line. Empty when there is nothing to add.
    public var details: String

    public var passed: Bool { status == .passed }

    /// A file that could not be graded at all, for `exercise` when it can be told
    /// (from the file's name).
    public static func invalid(file: String, student: String, reason: String, exercise: Exercise? = nil, status: Status = .invalid) -> Grade {
        Grade(
            file: file, student: student, exercise: exercise?.id, kind: exercise?.kind, status: status, points: 0,
            maxPoints: exercise?.points ?? 0, reason: reason, details: "")
    }

    /// No submission from `student` for `exercise`.
    public static func missing(student: String, exercise: Exercise) -> Grade {
        Grade(
            file: "", student: student, exercise: exercise.id, kind: exercise.kind, status: .missing, points: 0,
            maxPoints: exercise.points, reason: "missing: no file for \(exercise.id) (\(exercise.id).race)", details: "")
    }
}
