import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// `required` blocks: work every complete run must do, on its thread, holding its
/// locks; with `due`, exactly as often as it fell due. Each is one more check.
struct RequiredWorkTests {
    static let source = """
        let lock1 = Lock()
        let lock2 = Lock()
        var counter = 0
        thread A {
            lock1.lock(); lock2.lock()
            required "A adds 1" holding lock1, lock2 { counter += 1 }
            lock2.unlock(); lock1.unlock()
        }
        thread B {
            lock1.lock()
            required "B adds 1" holding lock1, lock2 { counter += 1 }
            lock1.unlock()
        }
        thread C {
            if counter > 100 {
                required "C shows it on main" on main { counter += 10 }
            }
        }
        thread D {
            main.async { required "main logs it" on main { } }
            required "D logs it on main" on main { }
        }
        """

    @Test func eachRequirementIsACheckThatSaysWhatWasMissing() throws {
        let run = try run(Self.source)
        #expect(
            run.expectations.map(\.message)
                == ["A adds 1", "B adds 1", "C shows it on main", "main logs it", "D logs it on main"].map { "the threads' work is done: \($0)" })
        #expect(run.expectations.map(\.passed) == [true, false, false, true, false])
        #expect(
            run.findings.map(\.message) == [
                "the threads' work is no longer done: B adds 1 (it ran without holding lock2)",
                "the threads' work is no longer done: C shows it on main (it never ran)",
                "the threads' work is no longer done: D logs it on main (it ran on a thread other than main)",
            ])
    }

    /// The explorer checks it in every interleaving, and agrees with no reduction.
    @Test func theExplorerChecksItInEveryInterleaving() throws {
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            var config = ExploreConfig()
            config.reduction = reduction
            config.timeLimit = nil
            let result = Explorer(program: try compile(Self.source), config: config).explore()
            let failing = (0..<5).map { index in result.interleavings { $0.failedChecks.contains(index) } }
            #expect(failing[0] == .zero && failing[3] == .zero, "\(reduction)")
            #expect(failing[1] == result.interleavings && failing[2] == result.interleavings, "\(reduction)")
        }
    }

    /// With `due`, the work must run exactly as often as it fell due: not when it was
    /// not due (a stale result shown), and every time it was (none skipped).
    @Test func dueWorkRunsExactlyAsOftenAsItFallsDue() throws {
        func outcome(_ show: String) throws -> [String] {
            let source = """
                var current = 1
                var shown = 0
                thread A {
                    let mine = 1
                    main.async {
                        due "main shows A's total" when mine == current
                        \(show)
                    }
                }
                thread user { main.async { current = 2 } }
                """
            var config = ExploreConfig()
            config.timeLimit = nil
            let explorer = Explorer(program: try compile(source), config: config)
            let result = explorer.explore()
            return result.outcomes.map { "\($0.outcome.failedChecks)" }.sorted()
        }
        // Shown only while current: both orders pass.
        #expect(try outcome("if mine == current { required \"main shows A's total\" on main { shown = 1 } }") == ["[]", "[]"])
        // Never shown, or always shown: the order where it mattered fails.
        #expect(try outcome("if false { required \"main shows A's total\" on main { shown = 1 } }") == ["[0]", "[]"])
        #expect(try outcome("required \"main shows A's total\" on main { shown = 1 }") == ["[0]", "[]"])
        let skipped = try run(
            """
            var shown = 0
            thread A { main.async { due "show"\n if false { required "show" { shown = 1 } } } }
            """)
        #expect(skipped.findings.map(\.message) == ["the threads' work is no longer done: show (it fell due once, but it never ran)"])
    }

    @Test func misuseIsADiagnostic() {
        #expect(throws: ScriptError.self) { try compile("thread A { required \"x\" { }\n required \"x\" { } }") }
        #expect(throws: ScriptError.self) { try compile("thread A { due \"y\" }") }
        let twice = diagnostics("thread A { required \"x\" { }\n required \"x\" { } }")
        #expect(twice == ["2:2: the work \"x\" is required twice; give each 'required' block a name of its own"])
        #expect(diagnostics("thread A { due \"y\" }") == ["1:12: 'due \"y\"' names work that no 'required' block does"])
        #expect(diagnostics("thread A { required \"x\" on thread { } }") == ["1:28: write the thread's name after 'on' ('on main', 'on A')"])
    }

    func diagnostics(_ source: String) -> [String] {
        do {
            _ = try compile(source)
            return []
        } catch let error as ScriptError {
            return error.diagnostics.map { "\($0.range.start.line):\($0.range.start.column): \($0.message)" }
        } catch {
            return ["\(error)"]
        }
    }
}
