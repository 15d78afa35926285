/// The verdict on one submitted file.
public struct Grade: Sendable, Equatable {
    public enum Status: String, Sendable {
        case passed
        case failed
        /// The file could not be graded at all: unreadable, empty, not an exercise,
        /// an unknown exercise. Counts as not passed.
        case invalid
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

    /// A file that could not be graded at all.
    public static func invalid(file: String, student: String, reason: String) -> Grade {
        Grade(file: file, student: student, exercise: nil, kind: nil, status: .invalid, points: 0, maxPoints: 0, reason: reason, details: "")
    }
}
