import Testing

@testable import RaceLabEngine

/// The trace's bookkeeping past 64 steps, where its bit sets need more than one word.
@Suite struct TraceTests {
    @Test func aBitMatrixKeepsEveryRowWhenItWidensAndWhenRowsAreRemoved() {
        var matrix = BitMatrix()
        for row in 0..<150 {
            matrix.appendRow()
            // Row r holds r - 1 and, past 64, r - 64.
            if row > 0 { matrix.insert(row - 1, row: row) }
            if row >= 64 { matrix.insert(row - 64, row: row) }
        }
        #expect(matrix.rows == 150)
        var members: [Int] = []
        matrix.forEach(130) { members.append($0) }
        #expect(members == [66, 129])
        #expect(matrix.contains(0, row: 1) && matrix.contains(0, row: 64) && !matrix.contains(1, row: 64))

        var union = BitSet()
        matrix.addRow(149, to: &union)
        matrix.addRow(130, to: &union)
        matrix.setRow(149, to: union)
        members = []
        matrix.forEach(149) { members.append($0) }
        #expect(members == [66, 85, 129, 148])

        var set = BitSet()
        matrix.addRow(149, to: &set)
        #expect((0..<150).filter(set.contains) == [66, 85, 129, 148])
        // Setting a row clears its other words.
        var small = BitSet()
        small.insert(3)
        matrix.setRow(148, to: small)
        members = []
        matrix.forEach(148) { members.append($0) }
        #expect(members == [3])
        // Iterated in order across its words, skipping an empty one.
        set.insert(3)
        set.insert(300)
        #expect(Array(set) == [3, 66, 85, 129, 148, 300] && set.count == 6)

        for _ in 100..<150 { matrix.removeLastRow() }
        matrix.appendRow()
        members = []
        matrix.forEach(100) { members.append($0) }
        #expect(matrix.rows == 101 && members.isEmpty)
        #expect(matrix.contains(35, row: 99) && matrix.contains(98, row: 99))
    }

    @Test func happensBeforeAndRacesStayRightPastSixtyFourSteps() {
        var trace = Trace()
        // Threads 0 and 1 take turns writing x for 70 steps: a chain.
        for step in 0..<70 {
            trace.append(thread: step % 2, accesses: [Access(.global(0), .write)], halts: false)
        }
        // Thread 2 writes y (independent of everything), then reads x.
        trace.append(thread: 2, accesses: [Access(.global(1), .write)], halts: false)
        trace.append(thread: 2, accesses: [Access(.global(0), .read)], halts: false)
        #expect(trace.isBefore(0, 69) && trace.isBefore(63, 64) && trace.isBefore(5, 68))
        #expect(!trace.isBefore(69, 70) && !trace.isBefore(0, 70))
        #expect(trace.isBefore(70, 71) && trace.isBefore(69, 71) && trace.isBefore(3, 71))
        // Only the last write of x races with the read: the others are ordered before it.
        #expect(Array(trace.races(of: 71)) == [69])
        // Reversing it: step 70 does not depend on 69, so it comes along.
        #expect(Array(trace.reversal(of: 69, with: 71)) == [70, 71])

        trace.truncate(to: 65)
        trace.append(thread: 2, accesses: [Access(.global(0), .read)], halts: false)
        #expect(trace.count == 66 && Array(trace.races(of: 65)) == [64] && trace.isBefore(64, 65))
        #expect(trace.onlyReads(65) && !trace.onlyReads(64))

        // A step that started a thread, taken off again: the thread has no creator.
        trace.append(thread: 0, accesses: [Access(.allocator, .write)], halts: false, creates: 3..<5)
        #expect(trace.creator(of: 3) == 66 && trace.creator(of: 4) == 66)
        trace.truncate(to: 66)
        #expect(trace.creator(of: 3) == nil && trace.creator(of: 4) == nil && trace.count == 66)
    }
}
