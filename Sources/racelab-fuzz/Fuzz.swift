// The fuzz target: libFuzzer feeds it bytes, it loads them as a scenario and runs,
// explores, renders and grades every version within small bounds. Any Swift trap,
// crash, leak of a control character or hang (libFuzzer's -timeout) is a bug.
// Build and run it with `.ci/fuzz` (docs/TESTING.md); built without
// `-D FUZZING` (as `swift build` does) it only says so.
import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// One input: everything a hostile script can reach, within bounds that keep one
/// input under a second. An input whose first byte is 0x80 or more (no scenario
/// starts so: it is not ASCII) is not a script but the choices of `ProgramGenerator`,
/// which writes a program from the grammar; the searches must agree on it
/// (`SearchOracle`), and then it goes through everything a script does.
func fuzzOne(_ bytes: UnsafeBufferPointer<UInt8>) {
    if let first = bytes.first, first >= 0x80 {
        fuzzGenerated(bytes.dropFirst())
        return
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let file = SourceFile(name: "fuzz.race", text: text)
    let scenario: Scenario
    do throws(ScriptError) {
        scenario = try Scenario.load(name: "fuzz", file: file)
    } catch {
        check(error.rendered)
        return
    }
    fuzzScenario(scenario, file: file)
}

/// A program written by `ProgramGenerator` from `bytes`: it must compile, the searches
/// must agree on every version of it, and then it is fuzzed as a script is.
func fuzzGenerated(_ bytes: some Sequence<UInt8>) {
    let text = ProgramGenerator.program(from: bytes)
    let file = SourceFile(name: "generated.race", text: text)
    let scenario: Scenario
    do throws(ScriptError) {
        scenario = try Scenario.load(name: "generated", file: file)
        for version in scenario.versions {
            if case .disagreement(let why) = SearchOracle().check(version.program) {
                fatalError("the searches disagree on \(Words.version(version)):\n\(text)\n\(why)")
            }
        }
    } catch {
        fatalError("the generator wrote a program the compiler refuses:\n\(text)\n\(error.rendered)")
    }
    fuzzScenario(scenario, file: file)
}

/// Everything a loaded scenario can reach: its runs, explorations, counterexamples,
/// renderings, pictures, lesson page and grade.
func fuzzScenario(_ scenario: Scenario, file: SourceFile) {
    var config = ExploreConfig()
    config.maxSteps = 60
    config.maxExecutions = 40
    config.timeLimit = 5
    config = config.started()
    for version in scenario.versions.prefix(4) {
        let fix = version.fix, program = version.program
        var scheduler = RoundRobinScheduler()
        if let run = try? Runner(program: program, maxSteps: 200).run(&scheduler) {
            check(TextRenderer(title: scenario.title, replay: ReplayCommand("fuzz")).render(run))
            // The pictures of the run: XML without a character XML forbids, and DOT.
            checkXML(SVGTimeline(replay: ReplayedRun(run), title: scenario.title).render())
            check(MermaidSequence(run: run, title: scenario.title).render())
            let graph = DOTGraph(replay: ReplayedRun(run), title: scenario.title)
            if let dot = graph.waitFor() ?? graph.lockOrder() { check(dot) }
        }
        // The lesson page's graph, within a small budget.
        let engine = Engine(program: program)
        check(LessonPage.graph(StateSpace.explore(engine, from: engine.initialWorld(), maxStates: 200), program).compact())
        for seed in 0..<2 {
            var random = RandomScheduler(seed: UInt64(seed))
            _ = try? Runner(program: program, maxSteps: 200).run(&random)
        }
        var stateless: Exploration?
        for reduction in ExploreConfig.Reduction.allCases {
            var bounded = config
            bounded.reduction = reduction
            let explorer = Explorer(program: program, config: bounded)
            let result = explorer.explore()
            if reduction == .dpor { stateless = result }
            let example = explorer.counterexample(for: result, maxPreemptions: 2, budget: 200)
            if result.failingExecutions > 0 && example == nil { fatalError("a failing verdict without a counterexample") }
            var replayed: (Counterexample, Run)?
            if let example {
                var scheduler = FixedScheduler(example.schedule)
                if let run = try? Runner(program: program, maxSteps: bounded.maxSteps).run(&scheduler) { replayed = (example, run) }
            }
            check(ExplorationRenderer(program: program).render(result, counterexample: replayed, replay: ReplayCommand("fuzz")))
            check(ExplorationJSON(program: program).render(result, version: fix, counterexample: example).serialized())
        }
        // The stateful search, against DPOR where both were exhaustive: the same outcomes.
        var stateful = config
        stateful.search = .stateful
        stateful.maxStates = 2_000
        let explorer = Explorer(program: program, config: stateful)
        let result = explorer.explore()
        if let stateless, stateless.isExhaustive, result.isExhaustive,
            Set(stateless.outcomes.map(\.outcome)) != Set(result.outcomes.map(\.outcome))
        {
            fatalError("the stateful search and DPOR reach different outcomes")
        }
        if result.failingExecutions > (result.livelock == nil ? 0 : 1) && result.shortestFailure == nil {
            fatalError("a failing final state without a shortest failure")
        }
        let example = explorer.counterexample(for: result)
        // The hint from the start agrees with the exhaustive stateful search: a failing
        // state exactly when a final outcome fails, else a loop exactly when it found a livelock.
        if result.isExhaustive {
            let engine = Engine(program: program)
            let failing = result.outcomes.contains { $0.outcome.isFailure }
            switch Foresight.look(engine, from: engine.initialWorld(), maxStates: stateful.maxStates) {
            case .failure: if !failing { fatalError("the hint finds a failure the stateful search does not") }
            case .livelock: if failing || result.livelock == nil { fatalError("the hint finds a livelock the stateful search does not") }
            case .safe: if failing || result.livelock != nil { fatalError("the hint says safe where the stateful search fails") }
            case .unknown: break
            }
        }
        check(ExplorationRenderer(program: program).render(result, counterexample: nil, replay: ReplayCommand("fuzz")))
        check(ExplorationJSON(program: program).render(result, version: fix, counterexample: example).serialized())
        // Sleep sets: the same final outcomes and races, and a cycle exactly when the full graph has one.
        var reduced = stateful
        reduced.sleepSets = true
        let sleeping = Explorer(program: program, config: reduced).explore()
        if result.isExhaustive && sleeping.isExhaustive {
            if Set(sleeping.outcomes.map(\.outcome)) != Set(result.outcomes.map(\.outcome)) {
                fatalError("sleep sets and the full stateful search reach different outcomes")
            }
            // (A program with conditions is never reduced: nothing to compare.)
            let reduced = sleeping.sleepSets || sleeping.sleepSetsRetried != nil
            let reducedCycle = sleeping.sleepSetsRetried != nil || (sleeping.sleepSets && sleeping.hasCycle)
            if reduced && reducedCycle != result.hasCycle { fatalError("sleep sets changed whether the state graph has a cycle") }
            // Races follow paths, and a reduced graph holds one path of each trace.
            if Set(sleeping.dataRaces.map(SearchOracle.RaceKey.init)) != Set(result.dataRaces.map(SearchOracle.RaceKey.init)) {
                fatalError("sleep sets and the full stateful search report different data races")
            }
        }
        check(ExplorationRenderer(program: program).render(sleeping, counterexample: nil, replay: ReplayCommand("fuzz")))
        if let livelock = result.livelock {
            var scheduler = FixedScheduler(livelock.prefix + livelock.cycle)
            guard (try? Runner(program: program, maxSteps: 10_000).run(&scheduler)) != nil else { fatalError("a livelock that does not replay") }
        }
    }
    if let exercise = try? Exercise(scenario) {
        var grading = Grader.defaultConfig
        grading.maxSteps = 60
        grading.maxExecutions = 40
        grading.timeLimit = 5
        let grade = Grader(exercises: [exercise], config: grading).grade(file, student: "fuzz")
        check(GradeReport(grades: [grade]).render(.text))
        check(GradeReport(grades: [grade]).render(.csv))
    }
}

/// An XML document holds no character XML 1.0 forbids (control characters other than
/// tab, line feed and carriage return; U+FFFE and U+FFFF).
func checkXML(_ text: String) {
    for scalar in text.unicodeScalars where scalar.value < 0x20 && !"\t\n\r".unicodeScalars.contains(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    {
        fatalError("an SVG holds a character XML forbids: U+\(String(scalar.value, radix: 16))")
    }
}

/// Rendered text must be safe for a terminal once escaped, and escaping is idempotent.
func check(_ text: String) {
    let escaped = TerminalText.escaped(text)
    if TerminalText.escaped(escaped) != escaped { fatalError("escaping is not idempotent") }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        fuzzOne(UnsafeBufferPointer(start: data, count: size))
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt

    /// SwiftPM names an executable's entry point `<target>_main`; with libFuzzer linked
    /// in (`-sanitize=fuzzer`), it starts libFuzzer's driver.
    @_cdecl("racelab_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        return runFuzzerDriver(&argc, &argv, fuzzTestOneInput)
    }
#else
    @main
    enum FuzzUsage {
        static func main() {
            print("racelab-fuzz is built for libFuzzer by .ci/fuzz (see docs/TESTING.md).")
        }
    }
#endif
