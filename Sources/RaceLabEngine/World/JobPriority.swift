/// A task's priority, as Swift's `TaskPriority` numbers it (`.high` is 25). It orders
/// an actor's mailbox: the runtime's default actor keeps its waiting jobs in one
/// queue per priority band and runs the first job of the highest band, so jobs of
/// one band run in the order they came. The main actor's queue is the main dispatch
/// queue, first come first served whatever the priority.
public struct JobPriority: Hashable, Comparable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let background = JobPriority(rawValue: 9)
    public static let low = JobPriority(rawValue: 17)
    public static let medium = JobPriority(rawValue: 21)
    public static let high = JobPriority(rawValue: 25)

    /// Swift's names, with the aliases it gives the same numbers (`.utility` is
    /// `.low`, `.userInitiated` is `.high`).
    public static let names: [(name: String, priority: JobPriority)] = [
        ("high", .high), ("medium", .medium), ("low", .low), ("background", .background),
        ("userInitiated", .high), ("utility", .low),
    ]

    public static func named(_ name: String) -> JobPriority? {
        names.first { $0.name == name }?.priority
    }

    /// The name Swift prints for it (`TaskPriority.high`'s "high").
    public var name: String {
        Self.names.first { $0.priority == self }?.name ?? "\(rawValue)"
    }

    /// The runtime's band for a default actor's queue: numbers within one band run
    /// in the order their jobs came.
    public var band: Int {
        switch rawValue {
        case 26...: return 4
        case 22...25: return 3
        case 18...21: return 2
        case 10...17: return 1
        default: return 0
        }
    }

    public static func < (a: JobPriority, b: JobPriority) -> Bool { a.rawValue < b.rawValue }
}
