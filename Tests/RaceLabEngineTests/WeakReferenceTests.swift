import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Weak references (issue 20, part 6): `weak var` globals and fields and `[weak x]`
/// captures hold no count and read nil once their object is gone.
struct WeakReferenceTests {
    static let weak = """
        class Box { var n = 0 }
        class Holder { weak var box: Box? = nil }
        weak var global: Box? = nil
        var seen = [0]
        main {
            let b = Box()
            let h = Holder()
            h.box = b
            global = b
            spawn worker { [weak b] in
                if b != nil { seen.append(1) } else { seen.append(2) }
            }
        }
        expect alive(Box) == 0, "nothing weak keeps the box alive"
        """

    @Test func aWeakReferenceKeepsNothingAliveAndReadsNilAfter() throws {
        let run = try RaceLabEngineTests.run(Self.weak, schedule: "main main main main main main worker")
        #expect(
            lines(run) == [
                "main creates Box#1", "main creates Holder#1", "main writes Holder#1.box = Box#1", "main writes global = Box#1",
                "main starts thread worker", "main finishes its code and releases Box#1, Holder#1",
                "main releases the last reference to Box#1, which is deallocated",
                "main releases the last reference to Holder#1, which is deallocated", "worker reads its weak reference b: nil",
                "worker calls seen.append(2): now [0, 2]", "worker finishes",
            ])
        #expect(run.world.describe(run.world.globals[0]) == "nil")
        #expect(try provenCountsAcrossSearches(compile(Self.weak)) == ["2 3", "3 3", "2 3"])
    }

    @Test func aReadThroughAWeakReferenceIsOneStepWithTheFieldRead() throws {
        let source = """
            class Box { var n = 7 }
            var got = 0
            main {
                let b = Box()
                spawn worker { [weak b] in
                    if b?.n == 7 { got = 1 }
                }
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "main main worker")
        #expect(lines(run)[2...3] == ["worker reads its weak reference b: Box#1", "worker reads Box#1.n: 7"])
        #expect(run.events[2].step == run.events[3].step)
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            var config = ExploreConfig()
            config.reduction = reduction
            let result = Explorer(program: try compile(source), config: config).explore()
            #expect(result.outcomes.map(\.outcome.state).sorted() == ["got = 0", "got = 1"], "\(reduction)")
            #expect(result.failingExecutions == 0, "no use after free: \(reduction)")
        }
    }

    @Test func weakHoldsObjectsOnlyAndCapturesNameLocals() throws {
        let run = try RaceLabEngineTests.run("weak var w: Int? = nil\nthread A { w = 3 }")
        #expect(run.findings.map(\.message) == ["w is weak: it holds an object or nil, not Int"])
        let error = #expect(throws: ScriptError.self) { try compile("var g = 0\nthread A { spawn B { [weak g] in } }") }
        #expect(error?.diagnostics.first?.message == "[weak g] captures a local variable of the enclosing code, and 'g' is not one")
        let constant = #expect(throws: ScriptError.self) { try compile("class B { }\nweak let b: B? = nil") }
        #expect(constant?.diagnostics.first?.message == "a weak reference changes when its object goes away: write 'weak var'")
        // An array literal is not a capture list.
        #expect(try RaceLabEngineTests.run("var n = 0\nthread A { main.async { [1, 2].count } }").findings.isEmpty)
    }
}
