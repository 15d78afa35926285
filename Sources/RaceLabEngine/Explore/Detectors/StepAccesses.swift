/// The accesses of one step as DPOR keeps it (in wakeup trees and sleep sets). Most
/// steps make one, so the first is kept inline and only the rest go to an array:
/// keeping or copying such a step costs no allocation, and the whole is two words.
struct StepAccesses: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral {
    /// The first access, or `Access.absent` when there is none.
    private var first = Access.absent
    /// The accesses after the first.
    private var rest: [Access] = []

    init() {}

    init<C: Collection<Access>>(_ accesses: C) {
        guard let head = accesses.first else { return }
        first = head
        if accesses.count > 1 { rest = Array(accesses.dropFirst()) }
    }

    init(arrayLiteral accesses: Access...) {
        self.init(accesses)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { first == .absent ? 0 : 1 + rest.count }

    subscript(position: Int) -> Access {
        precondition(position >= 0 && position < endIndex, "access index out of range")
        return position == 0 ? first : rest[position - 1]
    }

    /// Whether an access of one conflicts with an access of the other.
    func conflict(with other: StepAccesses) -> Bool {
        for mine in self {
            for theirs in other where mine.conflicts(with: theirs) { return true }
        }
        return false
    }
}
