import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Where a nonisolated async function runs (issue 33): it leaves its caller's actor
/// under SE-0338 (the default), stays on it under SE-0461's upcoming
/// `NonisolatedNonsendingByDefault`, and `nonisolated(nonsending)` and `@concurrent`
/// say so for one function either way. Every search agrees.
struct NonsendingTests {
    static let counter = """
        actor Counter {
            var n = 0
            func bump() async {
                let before = n
                let k = await one()
                n = before + k
            }
        }
        MARK func one() async -> Int {
            return 1
        }
        let c = Counter()
        task A {
            await c.bump()
        }
        task B {
            await c.bump()
        }
        expect c.n == 2, "both bumps land"
        """

    static func source(upcoming: Bool, mark: String) -> String {
        (upcoming ? "upcoming \"NonisolatedNonsendingByDefault\"\n" : "") + counter.replacingOccurrences(of: "MARK ", with: mark)
    }

    /// Leaving the actor at `await one()` lets the other task in between the read and
    /// the write: an update is lost. Staying on it makes the method one job.
    @Test(arguments: [
        (false, "", ["c.n = 1: 136", "c.n = 2: 24"]),
        (true, "", ["c.n = 2: 16"]),
        (true, "@concurrent ", ["c.n = 1: 136", "c.n = 2: 24"]),
        (false, "nonisolated(nonsending) ", ["c.n = 2: 16"]),
        (false, "@concurrent ", ["c.n = 1: 136", "c.n = 2: 24"]),
    ])
    func aNonisolatedAsyncFunctionRunsWhereItsRuleSays(upcoming: Bool, mark: String, histogram: [String]) throws {
        try ConcurrencyTests.agree(Self.source(upcoming: upcoming, mark: mark), histogram)
    }

    /// The trace says it: a call that leaves, and one that does not.
    @Test func theTraceShowsWhetherTheCallLeavesTheActor() throws {
        let leaves = try RaceLabEngineTests.run(Self.source(upcoming: false, mark: ""), schedule: "A A")
        #expect(
            lines(leaves).prefix(7) == [
                "A calls Counter.bump: runs on c", "A reads c.n: 0", "A calls one: leaves c; runs on the global concurrent executor",
                "A returns from one: runs on c", "A writes c.n = 1",
                "A returns from Counter.bump: leaves c; runs on the global concurrent executor", "A finishes",
            ])
        let stays = try RaceLabEngineTests.run(Self.source(upcoming: true, mark: ""), schedule: "A A")
        #expect(
            lines(stays).prefix(5) == [
                "A calls Counter.bump: runs on c", "A reads c.n: 0", "A writes c.n = 1",
                "A returns from Counter.bump: leaves c; runs on the global concurrent executor", "A finishes",
            ])
    }

    @Test(arguments: [
        ("@concurrent func f() {\n}", "1:1: @concurrent says where an async function runs: 'f' is not async"),
        ("nonisolated(nonsending) var x = 0", "1:25: 'nonisolated(nonsending)' must come before an async func, found 'var'"),
        ("@concurrent var x = 0", "1:13: '@concurrent' must come before an async func, found 'var'"),
        (
            "upcoming \"nonsending\"",
            "1:1: upcoming is \"NonisolatedNonsendingByDefault\" (SE-0461: a nonisolated async function runs on its caller's actor), or leave it out (SE-0338: it leaves)"
        ),
    ])
    func marksAreRefusedWhereSwiftRefusesThem(source: String, message: String) {
        #expect(firstDiagnostic(source) == message)
    }
}
