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

/// Issue 29: a weak reference read at the end of what a thread runs, or compared
/// with nil and never used, crashed the tool (an index out of range). Each form
/// below runs, and every search gives the same verdict and outcomes.
struct WeakReferenceFormTests {
    /// The verdict, then the outcomes ("seen = 1 (completed)", sorted), which every
    /// search must agree on.
    func outcomesAcrossSearches(_ source: String) throws -> [String] {
        let program = try compile(source)
        var answers: [[String]] = []
        let searches: [(ExploreConfig.Search, ExploreConfig.Reduction)] = [(.stateless, .dpor), (.stateless, .none), (.stateful, .none), (.stateful, .dpor)]
        for (search, reduction) in searches {
            var config = ExploreConfig()
            config.search = search
            config.reduction = reduction
            config.timeLimit = nil
            let result = Explorer(program: program, config: config).explore()
            let outcomes = result.outcomes.map { "\($0.outcome.state) (\($0.outcome.end.rawValue))" }.sorted()
            answers.append(["\(result.verdict())"] + outcomes)
        }
        for (index, answer) in answers.enumerated() { #expect(answer == answers[0], "\(searches[index])") }
        return answers[0]
    }

    /// A worker that reads `c`, a `[weak c]` capture of main's object, with `body`.
    func captured(_ body: String, globals: String = "var seen = 0") -> String {
        """
        class C { var n = 7 }
        \(globals)
        main {
            let c = C()
            spawn worker { [weak c] in
                \(body)
            }
        }
        """
    }

    @Test func aComparisonWithNilThatEndsTheClosureIsOneStep() throws {
        for comparison in ["c != nil", "c == nil"] {
            let source = captured("let gone = \(comparison)")
            // Before the fix, the step after the read ran off the end of the worker's code.
            let alive = try RaceLabEngineTests.run(source, schedule: "main main worker main")
            #expect(
                lines(alive)[2...] == [
                    "worker reads its weak reference c: C#1", "worker finishes", "main finishes its code and releases C#1",
                    "main releases the last reference to C#1, which is deallocated",
                ])
            #expect(alive.events[2].step == alive.events[3].step)
            let gone = try RaceLabEngineTests.run(source, schedule: "main main main worker")
            #expect(lines(gone)[4...] == ["worker reads its weak reference c: nil", "worker finishes"])
            #expect(try outcomesAcrossSearches(source) == ["proven", "seen = 0 (completed)"], "\(comparison)")
        }
    }

    @Test func everyNeighbouringFormGivesItsOutcomes() throws {
        let forms: [(String, [String])] = [
            (captured("if c != nil { seen = 1 }"), ["proven", "seen = 0 (completed)", "seen = 1 (completed)"]),
            (captured("if c == nil { seen = 2 }"), ["proven", "seen = 0 (completed)", "seen = 2 (completed)"]),
            (captured("seen = c?.n ?? 0"), ["proven", "seen = 0 (completed)", "seen = 7 (completed)"]),
            (captured("let x = c?.n == 7"), ["proven", "seen = 0 (completed)"]),
            (captured("let x = c"), ["proven", "seen = 0 (completed)"]),
            // Read, then a use after main let go: nil, unwrapped, as Swift traps.
            (captured("seen = c!.n"), ["fails", "seen = 0 (crashed)", "seen = 7 (completed)"]),
            // The loop ends when its weak read gives nil, and the thread's code with it.
            (captured("var rounds = 0\n        while c != nil && rounds < 2 { rounds += 1 }"), ["proven", "seen = 0 (completed)"]),
            // A closure inside the closure captures the weak reference, still weak.
            (captured("spawn inner { let gone = c == nil }"), ["proven", "seen = 0 (completed)"]),
            (captured("main.async { let gone = c == nil }"), ["proven", "seen = 0 (completed)"]),
            // A variable that held another object takes main's in the step that read it,
            // so it holds a live object or nil, never a deallocated one.
            (captured("var x = C(n: 1)\n        x = c\n        seen = x?.n ?? 0"), ["proven", "seen = 0 (completed)", "seen = 7 (completed)"]),
            // `weak var` globals and fields compared with nil, and read through.
            (
                """
                class C { var n = 7 }
                class H { weak var box: C? = nil }
                weak var g: C? = nil
                let h = H()
                var seen = 0
                main {
                    let c = C()
                    g = c
                    h.box = c
                    spawn worker {
                        if g == nil { seen = 1 }
                        seen = h.box?.n ?? seen
                        let gone = g != nil && h.box != nil
                    }
                }
                """,
                ["proven", "g = nil, seen = 0 (completed)", "g = nil, seen = 1 (completed)", "g = nil, seen = 7 (completed)"]
            ),
        ]
        for (source, expected) in forms {
            let got = try outcomesAcrossSearches(source)
            #expect(got == expected, "\(source)")
        }
    }

    @Test func onlyAReadThroughTheWeakReferenceJoinsItsStep() throws {
        // `d.n` is read by the next statement: a step of its own, on its own line.
        let source = captured("let alive = c != nil\n        seen = d.n", globals: "class D { var n = 5 }\nlet d = D()\nvar seen = 0")
        let run = try RaceLabEngineTests.run(source, schedule: "main main worker worker worker main")
        #expect(lines(run)[2...4] == ["worker reads its weak reference c: C#1", "worker reads d.n: 5", "worker writes seen = 5"])
        #expect(run.events[3].step == run.events[2].step + 1)
        #expect(run.events[3].range?.start.line == 9)
        // `c!.n = 1` writes through the object it read, in the same step.
        let write = try RaceLabEngineTests.run(captured("c!.n = 1"), schedule: "main main worker main")
        #expect(lines(write)[2...3] == ["worker reads its weak reference c: C#1", "worker writes C#1.n = 1"])
        #expect(write.events[2].step == write.events[3].step)
    }
}
