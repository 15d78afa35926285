import RaceLabEngine
import RaceLabLanguage
import Testing

@testable import RaceLabPresentation

/// The renderers read a model and run nothing: a report, a table and a lesson page made
/// from an analysis written by hand (no search ran; its numbers are made up) show
/// exactly what it holds.
struct HandMadeModelTests {
    static func lesson() throws -> Lesson {
        let scenario = try Scenario.load(name: "counter", file: SourceFile(name: "counter.race", text: LessonPageTests.counter))
        var broken = Exploration(reduction: .dpor)
        broken.executions = 3
        broken.steps = 12
        broken.interleavings = InterleavingCount(6)
        broken.outcomes = [
            .init(
                outcome: Outcome(state: "count = 4", end: .completed, findings: [], failedChecks: []), executions: 2,
                interleavings: InterleavingCount(5), schedule: ["A", "A", "B", "B"]),
            .init(
                outcome: Outcome(state: "count = 3", end: .completed, findings: [.expectation], failedChecks: [0]), executions: 1,
                interleavings: InterleavingCount(1), schedule: ["A", "B", "A", "B"]),
        ]
        var fixed = Exploration(reduction: .dpor)
        fixed.executions = 2
        fixed.interleavings = InterleavingCount(2)
        fixed.outcomes = [broken.outcomes[0]]
        fixed.outcomes[0].interleavings = InterleavingCount(2)
        return Lesson(
            scenario: scenario,
            versions: [(scenario.versions[0], Analysis(exploration: broken)), (scenario.versions[1], Analysis(exploration: fixed))])
    }

    @Test func theReportSaysWhatTheModelHolds() throws {
        let lesson = try Self.lesson()
        let (version, analysis) = lesson.versions[0]
        let text = ExplorationRenderer(program: version.program).render(analysis.exploration, counterexample: nil, replay: ReplayCommand("counter"))
        #expect(
            text == """
                Executions: 3 (one per Mazurkiewicz trace), standing for 6 interleavings
                Steps taken: 12
                Search: exhaustive

                Outcomes (2; shares of interleavings, not probabilities)
                  ok           5  83.3%  count = 4
                  FAIL         1  16.7%  count = 3  (breaks: every increment counts)

                Checks
                  [FAILS in 1 of 6 interleavings] every increment counts

                Findings
                  none besides the failing checks above

                Data races (0)
                  none: every conflicting pair of accesses is ordered by a lock, a queue or a thread start

                Lock order (consistent)
                  no two locks are ever taken in opposite orders

                Verdict: FAILS: some interleavings break it.

                """)
    }

    @Test func theTableAndThePageSayWhatTheModelHolds() throws {
        let lesson = try Self.lesson()
        let rows = lesson.versions.map { VerifyTable.Row(version: $0.version, result: $0.analysis.exploration) }
        let table = VerifyTable(scenario: lesson.scenario, reduction: .dpor, versions: rows).text()
        #expect(
            table == """
                counter: Two counters
                Every version explored (DPOR or stateful, as the search column says); counts are interleavings.

                version  search  interleavings  executions  failing  outcomes  races  findings            verdict
                broken   dpor                6           3        1         2      0  expectation failed  fails (broken)
                mutex    dpor                2           2        0         1      0  -                   proven

                """)
        let page = LessonPage(lesson: lesson, selected: "mutex")
        let versions = page.versions().compact()
        #expect(versions.contains(#""verdict":"fails in 1 of 6 interleavings""#))
        #expect(versions.contains(#""verdict":"proven: every interleaving passes""#))
        #expect(versions.contains(#""graph":null"#))
        #expect(page.render().contains(#""start":1"#))
    }
}
