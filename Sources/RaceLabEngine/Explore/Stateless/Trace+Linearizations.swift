/// Counting the interleavings a trace stands for: its linearizations.
extension Trace {
    /// How many interleavings this trace stands for: the orders of its steps that keep
    /// happens-before (its linearizations). Exact unless counting would visit more
    /// than `stateLimit` states or the count passes `Int64.max`; then a lower bound.
    ///
    /// The count goes level by level over the downsets of the order (the sets of
    /// steps that can have run so far, one per vector of per-thread positions):
    /// the ways to reach a downset of k + 1 steps are the sums over the downsets of k
    /// steps one ready step before it. No recursion, and two levels in memory. When
    /// the budget runs out, the ways to reach the last full level is a lower bound:
    /// distinct prefixes extend to distinct linearizations.
    /// - Complexity: O(states × threads) table updates, states ≤ `stateLimit`.
    ///
    /// The states it visited are added to `visited`. Setting up the count costs about as much as visiting a few states per step, so it is charged
    /// as `setupCost` states per step; with less allowance than that the trace stands
    /// for at least one interleaving, and nothing is set up.
    func linearizations(stateLimit: Int, visited total: inout Int) -> InterleavingCount {
        let setup = Self.setupCost * threads.count
        guard stateLimit > setup else { return .atLeast(1) }
        total += setup
        return linearizations(stateLimit: stateLimit - setup, counted: &total)
    }

    static let setupCost = 4

    private func linearizations(stateLimit: Int, counted total: inout Int) -> InterleavingCount {
        let ids = Array(Set(threads)).sorted()
        let slot = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var steps: [[Int]] = ids.map { _ in [] }
        var indexInThread = [Int](repeating: 0, count: threads.count)
        for (step, thread) in threads.enumerated() {
            indexInThread[step] = steps[slot[thread]!].count
            steps[slot[thread]!].append(step)
        }
        // For each step, the other threads' steps that must come first: (thread, how many).
        var needs: [[(thread: Int, count: Int)]] = threads.map { _ in [] }
        for step in threads.indices {
            let own = slot[threads[step]]!
            var last = [Int](repeating: -1, count: ids.count)
            before.forEach(step) { earlier in
                let other = slot[threads[earlier]]!
                if other != own { last[other] = max(last[other], indexInThread[earlier]) }
            }
            for (other, index) in last.enumerated() where index >= 0 { needs[step].append((other, index + 1)) }
        }
        // A downset as one number when that fits: each thread's position in a field of
        // bits of its own (read back with a shift and a mask, no division).
        var shift = [Int64](repeating: 0, count: ids.count)
        var mask = [Int64](repeating: 0, count: ids.count)
        var bits: Int64 = 0
        for t in ids.indices {
            let width = Int64(Int64.bitWidth - Int64(steps[t].count).leadingZeroBitCount)
            shift[t] = bits
            mask[t] = (1 << width) - 1
            bits += width
        }
        guard bits < Int64.bitWidth - 1 else { return linearizationsByVector(steps, needs, stateLimit: stateLimit, visited: &total) }
        var level = CountTable()
        level.add(1, to: 0)
        var positions = [Int](repeating: 0, count: ids.count)
        var exact = true
        var visited = 0
        defer { total += visited }
        for _ in threads.indices {
            var next = CountTable(capacity: level.count * 2)
            level.forEachEntry { key, ways in
                for t in ids.indices { positions[t] = Int(key >> shift[t] & mask[t]) }
                for t in ids.indices where positions[t] < steps[t].count {
                    let step = steps[t][positions[t]]
                    guard needs[step].allSatisfy({ positions[$0.thread] >= $0.count }) else { continue }
                    if !next.add(ways, to: key + 1 << shift[t]) { exact = false }
                }
            }
            visited += next.count
            if visited > stateLimit {
                var reached: Int64 = 0
                level.forEachEntry { _, ways in reached = Self.saturatingSum([reached, ways]) }
                return .atLeast(reached)
            }
            level = next
        }
        var count: Int64 = 1
        level.forEachEntry { _, ways in count = ways }
        return exact ? InterleavingCount(count) : .atLeast(count)
    }

    /// The same count with position vectors as keys, for traces whose downsets do
    /// not fit in one number.
    private func linearizationsByVector(
        _ steps: [[Int]], _ needs: [[(thread: Int, count: Int)]], stateLimit: Int,
        visited total: inout Int
    ) -> InterleavingCount {
        var level: [[Int]: Int64] = [steps.map { _ in 0 }: 1]
        var exact = true
        var visited = 0
        defer { total += visited }
        for _ in threads.indices {
            var next: [[Int]: Int64] = [:]
            for (positions, ways) in level {
                for t in steps.indices where positions[t] < steps[t].count {
                    let step = steps[t][positions[t]]
                    guard needs[step].allSatisfy({ positions[$0.thread] >= $0.count }) else { continue }
                    var moved = positions
                    moved[t] += 1
                    let (sum, overflow) = next[moved, default: 0].addingReportingOverflow(ways)
                    if overflow { exact = false }
                    next[moved] = overflow ? Int64.max : sum
                }
            }
            visited += next.count
            if visited > stateLimit { return .atLeast(Self.saturatingSum(level.values)) }
            level = next
        }
        let count = level.values.first ?? 1
        return exact ? InterleavingCount(count) : .atLeast(count)
    }

    /// The sum of non-negative counts, stopping at `Int64.max` (order does not matter).
    static func saturatingSum(_ values: some Sequence<Int64>) -> Int64 {
        var total: Int64 = 0
        for value in values {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { return Int64.max }
            total = sum
        }
        return total
    }
}
