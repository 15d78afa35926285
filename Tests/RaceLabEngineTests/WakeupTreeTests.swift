import Testing

@testable import RaceLabEngine

@Suite struct WakeupTreeTests {
    static func write(_ thread: ThreadID, _ global: Int) -> WakeupStep {
        WakeupStep(thread: thread, accesses: [Access(.global(global), .write)], halts: false, spawns: 0)
    }

    static func shape(_ tree: WakeupTree) -> String {
        tree.branches.map { "\($0.step.thread)" + ($0.tree.isEmpty ? "" : "(\(shape($0.tree)))") }.joined(separator: " ")
    }

    @Test func aStepStartsASequenceWhenNothingBeforeItInTheSequenceIsOrderedBeforeIt() {
        let sequence = [Self.write(1, 0), Self.write(2, 1), Self.write(3, 0)]
        // Thread 2 touches y only: it can go first, and is taken off the sequence.
        #expect(WakeupTree.start(sequence, with: Self.write(2, 1))?.map(\.thread) == [1, 3])
        // Thread 3 writes x after thread 1 did: it cannot.
        #expect(WakeupTree.start(sequence, with: Self.write(3, 0)) == nil)
        // Thread 4 is not in the sequence: it can go first only if it commutes with all of it.
        #expect(WakeupTree.start(sequence, with: Self.write(4, 2))?.map(\.thread) == [1, 2, 3])
        #expect(WakeupTree.start(sequence, with: Self.write(4, 1)) == nil)
        // A step that halts the program commutes with nothing.
        let halt = WakeupStep(thread: 4, accesses: [], halts: true, spawns: 0)
        #expect(WakeupTree.start(sequence, with: halt) == nil)
        // A thread's first step comes after the step that started the thread.
        let spawn = WakeupStep(thread: 1, accesses: [], halts: false, spawns: 1 << 5)
        #expect(WakeupTree.start([spawn, Self.write(5, 3)], with: Self.write(5, 3)) == nil)
    }

    @Test func insertingFollowsBranchesThatCanStartTheSequenceAndStopsAtALeaf() {
        var tree = WakeupTree()
        tree.insert([Self.write(1, 0), Self.write(2, 0)])
        #expect(Self.shape(tree) == "1(2)")
        // After 1, thread 3 writing z commutes with the leaf 2: covered.
        tree.insert([Self.write(3, 2), Self.write(1, 0)])
        #expect(Self.shape(tree) == "1(2)")
        // Thread 3 writing x does not: it goes under 1, after 2.
        tree.insert([Self.write(1, 0), Self.write(3, 0)])
        #expect(Self.shape(tree) == "1(2 3)")
        // [1, 2, 4] is covered by the leaf 1 → 2: exploring 1 then 2 reaches its traces anyway.
        tree.insert([Self.write(1, 0), Self.write(2, 0), Self.write(4, 0)])
        #expect(Self.shape(tree) == "1(2 3)")
        // 2 before 1 on x is a different order: a new branch, to the right.
        tree.insert([Self.write(2, 0), Self.write(1, 0)])
        #expect(Self.shape(tree) == "1(2 3) 2(1)")
        // Nothing left to add, or an empty sequence, changes nothing.
        tree.insert([])
        tree.insert([Self.write(1, 0)])
        #expect(Self.shape(tree) == "1(2 3) 2(1)")
    }

    @Test func aSequenceWhoseLastStepIsUnknownIsCoveredOnlyWhenEveryLastStepWouldBe() {
        var tree = WakeupTree()
        tree.insert([Self.write(1, 0), Self.write(2, 0)])
        // [1, then thread 2]: the leaf 1 → 2 covers it, whatever 2 does.
        #expect(tree.covers([Self.write(1, 0), WakeupStep.pending(2)]))
        // [3 writing y, then thread 1]: whether 1 can go first depends on whether its
        // step commutes with 3's, which is not known: not decided, so not covered.
        #expect(WakeupTree.start([Self.write(3, 1), WakeupStep.pending(1)], lastKnown: false, without: BitSet(), with: Self.write(1, 0)) == .unknown)
        #expect(!tree.covers([Self.write(3, 1), WakeupStep.pending(1)]))
        // [2 writing x, then thread 2 again]: 1 writes x too, so it cannot go first; a new branch.
        #expect(WakeupTree.start([Self.write(2, 0), WakeupStep.pending(2)], lastKnown: false, without: BitSet(), with: Self.write(1, 0)) == .no)
        #expect(!tree.covers([Self.write(2, 0), WakeupStep.pending(2)]))
        // A step of the last thread, with nothing left before it, starts it for sure.
        var first = BitSet()
        first.insert(0)
        #expect(WakeupTree.start([WakeupStep.pending(4)], lastKnown: false, without: BitSet(), with: Self.write(4, 0)) == .yes(first))
        // A halt before the last step orders it after: no.
        let halt = WakeupStep(thread: 3, accesses: [], halts: true, spawns: 0)
        #expect(WakeupTree.start([halt, WakeupStep.pending(4)], lastKnown: false, without: BitSet(), with: Self.write(4, 0)) == .no)
    }

    /// Whenever `covers` says yes, inserting the sequence with any last step adds
    /// nothing: checked over every small tree and sequence built from a few steps.
    @Test func coversNeverClaimsASequenceThatInsertingWouldAdd() {
        let steps = (1...3).flatMap { thread in
            [Self.write(thread, 0), Self.write(thread, 1), WakeupStep(thread: thread, accesses: [Access(.global(0), .read)], halts: false, spawns: 0)]
        }
        var checked = 0
        for first in steps {
            for second in steps {
                var tree = WakeupTree()
                tree.insert([first])
                tree.insert([second, first])
                for known in [[], [first], [second], [second, first]] {
                    for last in 1...3 where tree.covers(known + [WakeupStep.pending(last)]) {
                        for step in steps where step.thread == last {
                            var copy = tree
                            let added = copy.insert(known + [step])
                            #expect(!added, "\(known.map(\.thread)) + \(last)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 100)
    }

    @Test func withoutReductionEveryThreadIsALeaf() {
        #expect(Self.shape(WakeupTree(threads: [0, 2, 3])) == "0 2 3")
    }
}
