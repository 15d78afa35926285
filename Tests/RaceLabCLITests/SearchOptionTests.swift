import Foundation
import RaceLabCLI
import Testing

/// The stateful search's bounds as a command line sets them: the shortest failure in
/// a state space that never ends, the margin after it, the step bound as a depth,
/// and the memory budget; each says what it cut, with its exit status.
struct SearchOptionTests {
    let racelab = RaceLab(environment: [:])
    static let counter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/simple-counter.race").path

    @Test func aFailureInAnEndlessStateSpaceIsShortestAndStopsTheSearch() {
        let output = racelab.main(["explore", Self.counter, "--time-limit", "600"])
        #expect(output.exitCode == 1)
        #expect(
            output.stdout.contains(
                "Search: not exhaustive: stopped 100000 states after the first failure, so the outcomes are partial (--all-outcomes explores every state)\n"))
        #expect(output.stdout.contains("Shortest counterexample (fewest steps, breadth first): 5 preemptions, 17 steps\n"))
        #expect(output.stdout.contains("Verdict: FAILS: some interleavings break it.\n"))
    }

    @Test func allOutcomesGoesOnToTheOtherBounds() {
        let output = racelab.main(["explore", Self.counter, "--all-outcomes", "--max-states", "20000"])
        #expect(output.exitCode == 1, "a failure found outranks the cut")
        #expect(output.stdout.contains("Search: not exhaustive: stopped after 20000 states (the state budget; --max-states raises it)\n"))
    }

    /// `--first-failure` stops each search at its first failure (here DPOR's first
    /// execution, which finds the counter's race); it and `--all-outcomes` say
    /// opposite things.
    @Test func firstFailureStopsAtOnce() {
        let output = racelab.main(["explore", Self.counter, "--search", "dpor", "--first-failure"])
        #expect(output.exitCode == 1)
        #expect(
            output.stdout.contains(
                "Search: not exhaustive: stopped at the first failure, so the outcomes are partial (--all-outcomes explores every interleaving)\n"))
        let both = racelab.main(["explore", Self.counter, "--first-failure", "--all-outcomes"])
        #expect(both.exitCode == 64)
        #expect(both.stderr.contains("--all-outcomes goes past the first failure and --first-failure stops there: give one"))
    }

    @Test func theStepBoundIsADepthAndTheMemoryBudgetIsACut() {
        let shallow = racelab.main(["explore", Self.counter, "--search", "stateful", "--max-steps", "10"])
        #expect(shallow.exitCode == 1, "the counter's race, found within the bound, outranks the cut")
        #expect(
            shallow.stdout.contains(
                "Search: not exhaustive: every state within 10 steps of the start was explored, and some go further (the step bound; --max-steps raises it)\n  'counter' keeps growing on the way to the deepest state reached: the states may never end\n"
            ))
        let small = racelab.main(["explore", Self.counter, "--search", "stateful", "--max-memory", "1", "--all-outcomes"])
        #expect(small.stdout.contains("Search: not exhaustive: stopped when the search held 1 MB (the memory budget: do values grow every step?)\n"))
        #expect(racelab.main(["explore", Self.counter, "--max-memory", "0"]).exitCode == 64)
    }

    /// DPOR holds a world for each step of the current execution, and a step that
    /// changes a 20,000-element array copies it (the world before the step keeps the
    /// old one): about 320 KB a step, counted against the budget with the trace.
    @Test func theMemoryBudgetBoundsTheWorldsOfDPORsExecution() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-big-array.race").path
        let zeros = [String](repeating: "0", count: 20_000).joined(separator: ", ")
        let script = "var xs = [\(zeros)]\nthread A { for i in 0..<200 { xs[0] = i } }\nthread B { for i in 0..<200 { xs[1] = i } }\n"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let small = racelab.main(["explore", path, "--search", "dpor", "--max-memory", "4"])
        #expect(small.exitCode == 2)
        #expect(small.stdout.contains("Search: not exhaustive: stopped when the search held 4 MB (the memory budget: do values grow every step?)\n"))
        // Within the default budget, one execution of 400 steps holds about 128 MB.
        let one = racelab.main(["explore", path, "--search", "dpor", "--max-executions", "1"])
        #expect(one.stdout.contains("Search: not exhaustive: stopped after 1 executions"), "\(one.stdout)")
    }

    /// verify and explore --all-fixes rank their versions' exit codes: a failing fix
    /// (1) is not hidden by a cut one (2), whichever comes last.
    @Test func aFailureOutranksACut() {
        let mixed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mixed-verdicts.race").path
        let bounds = ["--search", "dpor", "--max-steps", "30"]
        let long = racelab.main(["explore", mixed, "--fix", "long"] + bounds)
        #expect(long.exitCode == 2, "the long fix alone is cut")
        #expect(racelab.main(["verify", mixed] + bounds).exitCode == 1)
        #expect(racelab.main(["explore", mixed, "--all-fixes"] + bounds).exitCode == 1)
        #expect(ExitCode.worse(ExitCode.finding, ExitCode.notExhaustive) == ExitCode.finding)
        #expect(ExitCode.worse(ExitCode.notExhaustive, ExitCode.finding) == ExitCode.finding)
        #expect(ExitCode.worse(ExitCode.success, ExitCode.notExhaustive) == ExitCode.notExhaustive)
    }
}
