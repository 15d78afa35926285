import RaceLabEngine
import Testing

@testable import RaceLabPresentation

/// The catalogue's sentences, exactly as every report prints them.
struct WordsTests {
    @Test func countsListsAndShares() {
        #expect(Words.count(1, "step") == "1 step")
        #expect(Words.count(0, "step") == "0 steps")
        #expect(Words.count(2, "more step") == "2 more steps")
        #expect(Words.count(3, "child", plural: "children") == "3 children")
        #expect(Words.count(InterleavingCount(1), "interleaving") == "1 interleaving")
        #expect(Words.list([], "or") == "" && Words.list(["a"], "or") == "a")
        #expect(Words.list(["a", "b"], "and") == "a and b" && Words.list(["a", "b", "c"], "or") == "a, b or c")
    }

    @Test func everySearchReasonInASentence() {
        let cases: [(SearchReason, String)] = [
            (.forced(.stateful, by: .progress), "stateful search: the program marks progress, so it is meant to run forever"),
            (
                .forced(.everyInterleaving, by: .spuriousWakeups),
                "no reduction: the program waits on conditions, whose spurious wakeups DPOR's reduction cannot follow"
            ),
            (
                .forced(.noSleepSets, by: .strictPriority),
                "stateful search without sleep sets: a strict-priority scheduler picks who runs by the threads' priorities, which DPOR's reduction cannot follow"
            ),
            (
                .stepBound(2_000),
                "stateful search: an execution reached the step bound (2000 steps), so the program may never end; the stateful search follows loops without a bound"
            ),
            (
                .statelessCut(.executionBound(500), statefulStates: 15_388),
                "stateful search: DPOR stopped after 500 executions (the execution bound), and the stateful search finished (15388 states)"
            ),
            (.statelessWon(.dpor, executions: 1, cut: nil, statefulCut: nil), "DPOR: it finished first (1 execution)"),
            (
                .statelessWon(.none, executions: 20_000, cut: .executionBound(20_000), statefulCut: .stateBound(2_000)),
                "every interleaving, cut: stopped after 20000 executions (the execution bound); the stateful search reached its budget (stopped after 2000 states (the state budget; --max-states raises it))"
            ),
            (
                .statefulWon(states: 15_388, cut: nil, statelessExecutions: 2_090),
                "stateful search: it finished first (15388 states), while DPOR had run 2090 executions without finishing"
            ),
            (
                .statefulWon(states: 9, cut: .timeLimit(60), statelessExecutions: 3),
                "stateful search: a bound cut it first (stopped at the time limit (60 seconds)), while DPOR had run 3 executions without finishing"
            ),
        ]
        for (reason, sentence) in cases { #expect(Words.searchReason(reason) == sentence) }
    }

    @Test func verdictCellsForEveryRole() {
        #expect(Words.verdictCell(.proven, .fix) == "proven")
        #expect(Words.verdictCell(.fails, .fix) == "FAILS")
        #expect(Words.verdictCell(.notExhaustive(.timeLimit(1)), .broken) == "not exhaustive")
        #expect(Words.verdictCell(.passesUnexpectedly, .broken) == "passes, but it is the broken version")
    }
}

/// A CSV cell a spreadsheet would run as a formula is shown as text (OWASP's advice:
/// a leading quote, the cell quoted); other cells are as RFC 4180 writes them.
struct CSVTests {
    @Test func formulasAreDefused() {
        #expect(CSV.field("=HYPERLINK(\"http://evil\",\"x\")") == "\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\"")
        #expect(CSV.field("+1") == "\"'+1\"" && CSV.field("-2") == "\"'-2\"" && CSV.field("@SUM(A1)") == "\"'@SUM(A1)\"")
        #expect(CSV.field("\tcmd").hasPrefix("\"'"))
        #expect(CSV.field("\rcmd").hasPrefix("\"'"))
        #expect(CSV.field("alice") == "alice" && CSV.field("10") == "10" && CSV.field("a=b") == "a=b")
        #expect(CSV.field("a, b") == "\"a, b\"")
        #expect(CSV.row(["=1", "x"]) == "\"'=1\",x\r\n")
    }
}
