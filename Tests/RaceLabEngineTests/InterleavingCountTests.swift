import RaceLabEngine
import RaceLabLanguage
import Testing

struct InterleavingCountTests {
    @Test func exactCountsAddExactly() {
        let sum = InterleavingCount(3) + InterleavingCount(4)
        #expect(sum == InterleavingCount(7))
        #expect(sum.isExact)
        #expect(sum.description == "7")
        #expect(InterleavingCount.sum([1, 2, 3].map(InterleavingCount.init)) == InterleavingCount(6))
        #expect(InterleavingCount.sum([]) == .zero)
    }

    @Test func aLowerBoundStaysALowerBound() {
        let sum = InterleavingCount(3) + .atLeast(4)
        #expect(sum.value == 7)
        #expect(!sum.isExact)
        #expect(!sum.isSaturated)
        #expect(sum.description == "at least 7")
    }

    @Test func addingPastIntMaxSaturatesInsteadOfTrapping() {
        var total = InterleavingCount(Int.max - 1)
        total += InterleavingCount(1)
        #expect(total.isExact && total.value == Int.max, "exactly Int.max is still exact")
        total += InterleavingCount(1)
        #expect(total.isSaturated)
        #expect(total.description == "more than 9,223,372,036,854,775,807")
        total += InterleavingCount(Int.max)
        #expect(total.isSaturated)
        #expect(InterleavingCount.sum(Array(repeating: InterleavingCount(Int.max), count: 5)).isSaturated)
    }

    @Test func percentages() {
        #expect(InterleavingCount(1).percent(of: InterleavingCount(4)) == 25)
        #expect(InterleavingCount(0).percent(of: .zero) == 0)
    }

    /// Two threads of `work(33)` have C(66, 33) = 7,219,428,434,016,265,740 interleavings
    /// (exact); `work(40)` has more than Int.max, and two failing outcomes of that size
    /// must add without a trap.
    @Test func hugeCountsAreCountedOrSaturated() throws {
        let exact = try explore("thread A { work(33) }\nthread B { work(33) }\n")
        #expect(exact.interleavings == InterleavingCount(7_219_428_434_016_265_740))
        let huge = try explore("var x = 0\nthread A { work(40); x = 1 }\nthread B { work(40); x = 2 }\nexpect x == 3, \"x is three\"\n")
        #expect(huge.outcomes.count == 2)
        #expect(huge.interleavings.isSaturated)
        #expect(huge.failingInterleavings.isSaturated)
        #expect(huge.verdict() == .fails)
    }

    func explore(_ text: String) throws -> Exploration {
        let program = try Scenario.load(name: "t", file: .init(name: "t.race", text: text)).versions[0].program
        return Explorer(program: program, config: ExploreConfig()).explore()
    }
}
