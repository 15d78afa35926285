/// What each step of the state graph did that the race detector needs, kept for the
/// walk after the search (`StatefulSearch.recordOrderedRaces`): the thread, its
/// accesses to variables, fields and synchronizing targets, its line, the threads it
/// started and the threads finished after it. Steps that did the same share one
/// entry (a loop's step is the same each time round), so a step costs the graph four
/// bytes more.
struct StepEffects {
    struct Effect: Hashable {
        var thread: ThreadID
        /// Data and synchronizing accesses only, in the order made.
        var accesses: [Access]
        /// The step's line, or -1.
        var line: Int
        var spawned: UInt64
    }

    private(set) var table: [Effect] = []
    private var numbers: [Effect: UInt32] = [:]
    /// The bytes the table holds, estimated.
    private(set) var bytes = 0

    /// The number of `effect`, added if new.
    mutating func number(_ effect: Effect) -> UInt32 {
        if let number = numbers[effect] { return number }
        let number = UInt32(table.count)
        table.append(effect)
        numbers[effect] = number
        bytes += 2 * (MemoryLayout<Effect>.stride + effect.accesses.count * 8 + 48)
        return number
    }

    subscript(number: UInt32) -> Effect { table[Int(number)] }
}
