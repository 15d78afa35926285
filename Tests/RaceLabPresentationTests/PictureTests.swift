import RaceLabEngine
import RaceLabLanguage
import Testing

@testable import RaceLabPresentation

/// The renderers of runs, by themselves (issue 21, part 5): what each writes for a
/// known run, to the byte where it matters, and how each escapes what it cannot take.
struct PictureTests {
    static func run(_ source: String, _ schedule: String) throws -> Run {
        let program = try Scenario.load(name: "test", file: SourceFile(name: "test.race", text: source)).versions[0].program
        var scheduler = try FixedScheduler(schedule, limit: 1_000)
        return try Runner(program: program).run(&scheduler)
    }

    static let deadlock = """
        let lock1 = Lock()
        let lock2 = Lock()
        thread A { lock1.lock(); lock2.lock() }
        thread B { lock2.lock(); lock1.lock() }
        """

    @Test func theWaitForGraphOfADeadlock() throws {
        let graph = try #require(DOTGraph(replay: ReplayedRun(try Self.run(Self.deadlock, "A B A B")), title: "t").waitFor())
        #expect(
            graph == """
                digraph waitfor {
                  label="t";
                  labelloc=t;
                  rankdir=LR;
                  node [fontname="Helvetica"];
                  t1 [shape=box, label="A"];
                  t2 [shape=box, label="B"];
                  l1 [shape=ellipse, label="lock2"];
                  l0 [shape=ellipse, label="lock1"];
                  t1 -> l1 [label="waits for", color=red, fontcolor=red, penwidth=2];
                  l1 -> t2 [label="held by", color=red, fontcolor=red, penwidth=2];
                  t2 -> l0 [label="waits for", color=red, fontcolor=red, penwidth=2];
                  l0 -> t1 [label="held by", color=red, fontcolor=red, penwidth=2];
                }

                """)
        #expect(DOTGraph(replay: ReplayedRun(try Self.run("let l = Lock()\nthread A { l.lock(); l.unlock() }", "A A")), title: "t").waitFor() == nil)
        #expect(DOTGraph.quoted("a \"b\"\\c\nd") == "\"a \\\"b\\\"\\\\c d\"")
    }

    /// Locks taken in opposite orders, in a run that does not deadlock: the order is
    /// drawn, the inversion in red; a run with one order draws nothing.
    @Test func theLockOrderGraphOfAnInversion() throws {
        let source = """
            let lock1 = Lock()
            let lock2 = Lock()
            let lock3 = Lock()
            thread A {
                lock1.lock(); lock2.lock(); lock3.lock()
                lock3.unlock(); lock2.unlock(); lock1.unlock()
            }
            thread B {
                lock2.lock(); lock1.lock()
                lock1.unlock(); lock2.unlock()
            }
            """
        let run = try Self.run(source, "A A A A A A B B B B")
        #expect(run.end == .completed)
        let graph = try #require(DOTGraph(replay: ReplayedRun(run), title: "t").lockOrder())
        #expect(
            graph == """
                digraph lockorder {
                  label="t";
                  labelloc=t;
                  node [fontname="Helvetica", shape=ellipse];
                  l0 [label="lock1"];
                  l1 [label="lock2"];
                  l2 [label="lock3"];
                  l0 -> l1 [label="A holds lock1, takes lock2, line 5", color=red, fontcolor=red, penwidth=2];
                  l0 -> l2 [label="A holds lock1, takes lock3, line 5"];
                  l1 -> l2 [label="A holds lock2, takes lock3, line 5"];
                  l1 -> l0 [label="B holds lock2, takes lock1, line 9", color=red, fontcolor=red, penwidth=2];
                }

                """)
        let oneOrder = source.replacingOccurrences(of: "lock2.lock(); lock1.lock()", with: "lock1.lock(); lock2.lock()")
        #expect(DOTGraph(replay: ReplayedRun(try Self.run(oneOrder, "A A A A A A B B B B")), title: "t").lockOrder() == nil)
        #expect(DOTGraph(replay: ReplayedRun(run), title: "t").waitFor() == nil)
    }

    @Test func theSequenceDiagramOfARun() throws {
        let diagram = MermaidSequence(run: try Self.run("var x = 0\nthread A { x = 1 }", "A"), title: "one; step").render()
        #expect(
            diagram == """
                sequenceDiagram
                    title one#59; step
                    participant t0 as main
                    participant t1 as A
                    participant s0 as x
                    t1->>s0: 1. writes x = 1
                    Note over t1: 1. finishes

                """)
        #expect(MermaidSequence.clean("a->>b: #1;\nc") == "a-#gt;#gt;b#58; #35;1#59; c")
        // A participant named like a thread says what it is.
        let clash = MermaidSequence(run: try Self.run("var A = 0\nthread A { A = 1 }", "A"), title: "t").render()
        #expect(clash.contains("    participant t1 as A\n    participant s0 as A (variable)\n    t1->>s0: 1. writes A = 1\n"))
    }

    /// A timeline of async code ends with the actors' state and each actor and task.
    @Test func theTimelinesFooterShowsActorsAndTasks() throws {
        let source = """
            actor Log {
                var lines: [String] = []
                func add(line) {
                    lines.append(line)
                }
            }
            let log = Log()
            task writer {
                await log.add("hello")
            }
            """
        let footer = SVGTimeline(replay: ReplayedRun(try Self.run(source, "writer writer writer")), title: "t").footerLines()
        #expect(
            footer == [
                "Final state (completed after 3 steps)", "  objects: log (retain count 1)", "  log.lines = [\"hello\"]",
                "  actor log: free", "  task writer: finished", "No findings.",
            ])
    }

    @Test func theTimelineCutsLabelsAndCompactJSONHasNoSpaces() throws {
        #expect(SVGTimeline.fit("short", 100) == "short")
        #expect(SVGTimeline.fit(String(repeating: "x", count: 40), 70) == String(repeating: "x", count: 9) + "…")
        let svg = SVGTimeline(replay: ReplayedRun(try Self.run(Self.deadlock, "A B A B")), title: "a <b> & c").render()
        #expect(svg.contains("<title>a &lt;b&gt; &amp; c</title>"))
        #expect(svg.components(separatedBy: "<g>").count - 1 == 4)
        let json = JSON.object([("a", .array([.int(1), .string("x y"), .null])), ("b", .bool(true))])
        #expect(json.compact() == "{\"a\":[1,\"x y\",null],\"b\":true}")
    }

    @Test func aVersionsCodeLeavesOutMetadataSchedulesAndOtherFixes() throws {
        let scenario = try Scenario.load(
            name: "t",
            file: SourceFile(
                name: "t.race",
                text: "title \"T\"\nvar x = 0\nthread A { x = 1 }\nschedule story \"A\"\nfix f {\n    summary \"s\"\n    thread A { x = 2 }\n}\n"))
        #expect(ScenarioCode.code(of: scenario, fix: nil) == "var x = 0\nthread A { x = 1 }")
        #expect(ScenarioCode.code(of: scenario, fix: "f") == "var x = 0\nthread A { x = 2 }")
    }

    @Test func theVerifyTableAlignsItsCountsRight() {
        #expect(VerifyTable.table([["version", "search", "n"], ["broken", "dpor", "12"]]) == "version  search   n\nbroken   dpor    12\n")
        #expect(Words.verdictCell(.failsAsExpected, .broken) == "fails (broken)")
        #expect(Words.verdictCell(.failsAsExpected, .expectedToFail) == "fails, as expected")
        #expect(Words.verdictCell(.passesUnexpectedly, .expectedToFail) == "passes, though marked as failing")
    }

    /// `show`'s diff of a fix: the longest common run of lines kept, the rest removed
    /// and added.
    @Test func theOverviewDiffsAFixAgainstTheBrokenCode() throws {
        #expect(ScenarioOverview.diff(old: "a\nb\nc", new: "a\nx\nc") == "    a\n  - b\n  + x\n    c\n")
        #expect(ScenarioOverview.diff(old: "", new: "n") == "  + n\n")
        #expect(ScenarioOverview.diff(old: "o", new: "") == "  - o\n")
        let scenario = try Scenario.load(
            name: "t",
            file: SourceFile(
                name: "t.race",
                text: "title \"T\"\nvar x = 0\nthread A { x = 1 }\nfix f {\n    summary \"s\"\n    thread A { x = 2 }\n}\n"))
        #expect(
            ScenarioOverview.render(scenario) == """
                t: T

                Code (the broken version)
                  var x = 0
                  thread A { x = 1 }

                Fix 'f': s
                  - thread A { x = 1 }
                  + thread A { x = 2 }

                Step through it: racelab step t

                """)
    }
}
