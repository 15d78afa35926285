/// The memory ordering of an atomic access, with the Synchronization module's
/// names: `flag.store(1, ordering: .releasing)`.
///
/// For the race detector (`Trace.synchronizes`, `HappensBefore`), as in Swift's and
/// C++'s memory model: a write that releases, read by a read that acquires, orders
/// everything before the write before everything after the read (it synchronizes
/// with it), and so does a read of any read-modify-write that came after the
/// releasing write (a release sequence); a relaxed access orders nothing. Two
/// sequentially consistent accesses to one atomic are ordered as they happen, the
/// later after the earlier, as before orderings were told apart: stronger than
/// C++, which orders only a load after the store it reads, but a race it hides
/// still shows, in another interleaving, as two plain accesses that can run at once.
///
/// Outcomes are not affected: every run is an interleaving of whole steps, as if
/// every access were sequentially consistent, so the results that only weaker
/// memory allows (store buffering: both threads of Dekker's algorithm reading the
/// other's flag as still down) are never explored (`Program.weakOrderings`).
public enum MemoryOrdering: Int, Hashable, Sendable, CaseIterable, Comparable {
    case relaxed, acquiring, releasing, acquiringAndReleasing, sequentiallyConsistent

    /// As written after the dot: `relaxed`.
    public var name: String {
        switch self {
        case .relaxed: return "relaxed"
        case .acquiring: return "acquiring"
        case .releasing: return "releasing"
        case .acquiringAndReleasing: return "acquiringAndReleasing"
        case .sequentiallyConsistent: return "sequentiallyConsistent"
        }
    }

    public init?(name: String) {
        guard let ordering = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = ordering
    }

    /// Whether a read with this ordering acquires: it synchronizes with the release
    /// it reads from.
    public var acquires: Bool { self == .acquiring || self == .acquiringAndReleasing || self == .sequentiallyConsistent }

    /// Whether a write with this ordering releases.
    public var releases: Bool { self == .releasing || self == .acquiringAndReleasing || self == .sequentiallyConsistent }

    /// The ordering a compare-exchange given only `ordering:` uses when it fails (it
    /// only loads then), as Swift derives it: the strongest load ordering within it.
    public var failureOrdering: MemoryOrdering {
        switch self {
        case .relaxed, .releasing: return .relaxed
        case .acquiring, .acquiringAndReleasing: return .acquiring
        case .sequentiallyConsistent: return .sequentiallyConsistent
        }
    }

    /// Three bits, sequentially consistent 0, so that an access made without an
    /// ordering (an `atomic var`'s) is sequentially consistent.
    var packed: UInt64 { UInt64(Self.sequentiallyConsistent.rawValue - rawValue) }

    init(packed: UInt64) {
        self = MemoryOrdering(rawValue: Self.sequentiallyConsistent.rawValue - Int(packed)) ?? .sequentiallyConsistent
    }

    public static func < (a: MemoryOrdering, b: MemoryOrdering) -> Bool { a.rawValue < b.rawValue }

    /// The one sentence every report gives a program that uses `orderings` (weaker
    /// than sequentially consistent), starting with `who` (several versions when
    /// `plural`); nil when there are none.
    public static func note(_ orderings: [MemoryOrdering], _ who: String, plural: Bool = false) -> String? {
        guard !orderings.isEmpty else { return nil }
        let names = orderings.map { "." + $0.name }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return "\(who) \(plural ? "use" : "uses") \(list) atomics; races follow the happens-before they make, "
            + "but outcomes are explored as if sequentially consistent (store buffering and other weak-memory results are not explored)"
    }
}

/// The orderings an atomic method call was given, as one number in its instruction
/// (`Instruction.method`): 0 when none was written (sequentially consistent).
public struct AtomicOrderings: Hashable, Sendable {
    /// The ordering of a load, a store, a read-modify-write, a compare-exchange that exchanges.
    public var success: MemoryOrdering
    /// The ordering of a compare-exchange that fails (it only loads).
    public var failure: MemoryOrdering

    public static let sequentiallyConsistent = AtomicOrderings(success: .sequentiallyConsistent, failure: .sequentiallyConsistent)

    public init(success: MemoryOrdering, failure: MemoryOrdering) {
        self.success = success
        self.failure = failure
    }

    public init(code: Int) {
        success = MemoryOrdering(packed: UInt64(code & 7))
        failure = MemoryOrdering(packed: UInt64(code >> 3 & 7))
    }

    public var code: Int { Int(success.packed | failure.packed << 3) }
}
