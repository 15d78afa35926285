import RaceLabEngine
import RaceLabLanguage
import Testing

/// A condition wait may return with no signal any number of times (POSIX, Foundation
/// and Java allow it), while another thread can run. Every `if` around `wait()` can
/// then be passed with nothing to take, however many there are; a `while` is proven,
/// by the stateful search (a loop that rechecks may go round for ever, so no
/// stateless search ends). A scenario may turn spurious wakeups off.
struct SpuriousWakeupTests {
    static func consumer(_ waits: String) -> String {
        """
        let c = NSCondition()
        var ready = false
        var item = 0
        var got = 0
        thread consumer {
            c.lock()
            \(waits)
            got = item
            c.unlock()
        }
        thread producer {
            c.lock()
            item = 42
            ready = true
            c.signal()
            c.unlock()
        }
        expect got == 42, "the consumer gets the item"
        """
    }

    static let ifs = "if !ready { c.wait() }\n    if !ready { c.wait() }\n    if !ready { c.wait() }"
    static let loop = "while !ready { c.wait() }"

    func explore(_ source: String, _ change: (inout ExploreConfig) -> Void = { _ in }) throws -> Exploration {
        var config = ExploreConfig.automatic
        config.timeLimit = nil
        change(&config)
        return Explorer(program: try compile(source), config: config).explore()
    }

    @Test func threeIfsFailAndAWhileIsProven() throws {
        let ifs = try explore(Self.consumer(Self.ifs))
        #expect(ifs.verdict() == .fails && ifs.search == .stateful)
        #expect(ifs.searchReason == .forced(.stateful, by: .spuriousWakeups))
        // Three waits, each woken with no signal, before the producer runs at all;
        // the check fails at the end.
        let failure = try #require(ifs.shortestFailure)
        #expect(failure == Schedule(Array(repeating: "consumer", count: 16) + Array(repeating: "producer", count: 5)))
        let loop = try explore(Self.consumer(Self.loop))
        #expect(loop.verdict() == .proven && loop.isExhaustive && loop.livelock == nil)
        #expect(loop.hasCycle, "the consumer can wake and wait again for ever")
        #expect(loop.outcomes.map(\.outcome.state) == ["ready = true, item = 42, got = 42"])
    }

    /// Two `if`s before an assertion are not a proof either.
    @Test func twoIfsBeforeAnAssertionFail() throws {
        let source = Self.consumer("if !ready { c.wait() }\n    if !ready { c.wait() }\n    assert(ready, \"ready when woken\")")
        let result = try explore(source)
        #expect(result.verdict() == .fails && result.findingKinds.contains(.assertion))
    }

    /// Asked for a stateless search, a loop around `wait()` never ends: the step bound
    /// cuts it, and no proof is claimed.
    @Test func noStatelessSearchEndsALoopAroundWait() throws {
        let result = try explore(Self.consumer(Self.loop)) {
            $0.search = .stateless
            $0.maxSteps = 40
        }
        #expect(result.reduction == .none)
        #expect(result.searchReason == .forced(.everyInterleaving, by: .spuriousWakeups))
        #expect(result.cut == .stepBound(40) && result.verdict() == .notExhaustive(.stepBound(40)))
    }

    /// `wakeups "signalled only"` (C#'s Monitor): one `if` is enough, and every search
    /// agrees, DPOR with its reduction.
    @Test func aScenarioCanTurnSpuriousWakeupsOff() throws {
        let source = "wakeups \"signalled only\"\n" + Self.consumer("if !ready { c.wait() }")
        for search in [ExploreConfig.Search.automatic, .stateless, .stateful] {
            let result = try explore(source) { $0.search = search }
            #expect(result.verdict() == .proven && result.isExhaustive, "\(search)")
            #expect(result.outcomes.map(\.outcome.state) == ["ready = true, item = 42, got = 42"])
        }
        let dpor = try explore(source) { $0.search = .stateless }
        #expect(dpor.reduction == .dpor && dpor.searchReason == nil)
        #expect(throws: ScriptError.self) { try compile("wakeups \"never\"\nthread A { }") }
    }
}
