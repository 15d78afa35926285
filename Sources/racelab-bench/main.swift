// The exploration benchmark (issue 3): scalable families explored exhaustively with
// DPOR, printing executions, traces, steps/s, executions/s and peak memory.
// Run it in release mode: swift run -c release racelab-bench [--quick] [--no-detectors] [--counting] [--engine-only] [--stateful [--sleep-sets]] [--compare] [--write-sources DIR] [ROW...]
import Foundation
import RaceLabEngine
import RaceLabLanguage

/// A family member: its name and its scenario text.
struct Case {
    var family: String
    var size: String
    var source: String
}

func threadNames(_ n: Int) -> [String] { (0..<n).map { "T\($0 + 1)" } }

/// Lazy singleton, N threads: check, then create.
func singleton(_ n: Int) -> Case {
    var source = "class S {}\nvar shared: S? = nil\n"
    for name in threadNames(n) { source += "thread \(name) { if shared == nil { shared = S() } }\n" }
    return Case(family: "lazy singleton", size: "N=\(n)", source: source)
}

/// A load/store counter: N threads, K increments each.
func counter(_ n: Int, _ k: Int) -> Case {
    var source = "var count = 0\n"
    for name in threadNames(n) {
        source += "thread \(name) {\n    var i = 0\n    while i < \(k) {\n        let c = count\n        count = c + 1\n        i += 1\n    }\n}\n"
    }
    return Case(family: "counter", size: "N=\(n) K=\(k)", source: source)
}

/// Dining philosophers: N philosophers, each takes the left fork, then the right.
func philosophers(_ n: Int) -> Case {
    var source = ""
    for i in 0..<n { source += "let fork\(i) = Lock()\n" }
    source += "var meals = 0\n"
    for i in 0..<n {
        source += "thread P\(i) { synchronized(fork\(i)) { synchronized(fork\((i + 1) % n)) { meals += 1 } } }\n"
    }
    return Case(family: "dining philosophers", size: "N=\(n)", source: source)
}

/// lastzero(N), from the DPOR literature (Abdulla et al.): cells 0…N, thread i writes
/// cell i from cell i-1, and one thread scans down for the last zero.
func lastzero(_ n: Int) -> Case {
    var source = "class Cell { var v = 0 }\nlet cells = [" + Array(repeating: "Cell()", count: n + 1).joined(separator: ", ") + "]\n"
    source += "thread scan {\n    var i = \(n)\n    while cells[i].v != 0 { i = i - 1 }\n}\n"
    for i in 1...n { source += "thread T\(i) { cells[\(i)].v = cells[\(i - 1)].v + 1 }\n" }
    return Case(family: "lastzero", size: "N=\(n)", source: source)
}

/// indexer(N), after Flanagan and Godefroid (POPL 2005): N threads each insert four
/// messages into a 128-cell hash table, probing on from a taken cell, each probe
/// under the cell's monitor; threads collide only from N = 12 on.
func indexer(_ n: Int) -> Case {
    var source = "class Cell { var v = 0 }\nlet table = [" + Array(repeating: "Cell()", count: 128).joined(separator: ", ") + "]\n"
    for t in 1...n {
        source += """
            thread T\(t) {
                var m = 0
                while m < 4 {
                    var w = (m * 11 + \(t)) * 7 % 128
                    var done = false
                    while !done {
                        synchronized(table[w]) {
                            if table[w].v == 0 {
                                table[w].v = m + 1
                                done = true
                            }
                        }
                        w = (w + 1) % 128
                    }
                    m += 1
                }
            }

            """
    }
    return Case(family: "indexer", size: "N=\(n)", source: source)
}

/// The filter lock (Peterson's algorithm generalised to N threads: N-1 levels, a
/// victim per level), each thread entering an empty critical section once. N=2 is
/// Peterson's algorithm.
func filterLock(_ n: Int) -> Case {
    var source = "var level = [" + Array(repeating: "0", count: n).joined(separator: ", ") + "]\n"
    source += "var victim = [" + Array(repeating: "0", count: n).joined(separator: ", ") + "]\n"
    for i in 0..<n {
        let others = (0..<n).filter { $0 != i }.map { "level[\($0)] >= l" }.joined(separator: " || ")
        source += """
            thread T\(i) {
                var l = 1
                while l < \(n) {
                    level[\(i)] = l
                    victim[l] = \(i)
                    while (\(others)) && victim[l] == \(i) { }
                    l += 1
                }
                critical { }
                level[\(i)] = 0
            }

            """
    }
    return Case(family: "filter lock", size: "N=\(n)", source: source)
}

/// The process's peak resident memory. Read from /proc (VmHWM), which starts afresh
/// at exec; `getrusage`'s maximum would include `swift run`'s own memory, since the
/// benchmark replaces that process.
func peakMemoryMB() -> Double {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    {
        return kilobytes / 1024
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024 // kilobytes on Linux
}

/// The Deadlock Empire's "Simple Counter": two threads count for ever and enter the
/// critical section at their own numbers; the state space never ends.
func simpleCounter() -> Case {
    let thread = { (name: String, at: Int) in "thread \(name) { while true {\n counter += 1\n if counter == \(at) { critical { } } } }\n" }
    return Case(family: "simple counter", size: "5/3", source: "var counter = 0\n" + thread("A", 5) + thread("B", 3))
}

/// `--compare`: each row explored three ways (the automatic choice, DPOR alone, the
/// stateful search alone), with the seconds and verdict of each and the automatic
/// choice's cost over the faster search that gave a verdict.
func compare(_ item: Case, _ program: Program) {
    var columns: [String] = []
    var seconds: [Double] = []
    var conclusive: [Bool] = []
    for search in [ExploreConfig.Search.automatic, .stateless, .stateful] {
        var config = ExploreConfig()
        config.timeLimit = 60
        config.search = search
        let start = Date()
        let result = Explorer(program: program, config: config).explore()
        let elapsed = max(Date().timeIntervalSince(start), 1e-9)
        seconds.append(elapsed)
        conclusive.append(result.cut == nil || result.failingExecutions > 0)
        let verdict: String
        switch result.verdict() {
        case .proven: verdict = "proven"
        case .fails: verdict = "fails"
        default: verdict = "cut"
        }
        columns.append(String(format: "%8.2f ", elapsed) + verdict.padding(toLength: 8, withPad: " ", startingAt: 0))
    }
    let best = zip(seconds.dropFirst(), conclusive.dropFirst()).filter(\.1).map(\.0).min()
    let ratio = best.map { String(format: "%6.2fx", seconds[0] / $0) } ?? "     -"
    print(
        [item.family.padding(toLength: 20, withPad: " ", startingAt: 0), item.size.padding(toLength: 9, withPad: " ", startingAt: 0)].joined(separator: " ")
            + " " + columns.joined(separator: "  ") + "  " + ratio + String(format: "  %8.1f", peakMemoryMB()))
}

let quick = CommandLine.arguments.contains("--quick")
var cases = [
    singleton(2), singleton(3), singleton(4), counter(2, 2), counter(2, 3), counter(3, 2),
    philosophers(2), philosophers(3), philosophers(4),
]
if !quick { cases += [singleton(5), counter(2, 5), philosophers(5), lastzero(10), indexer(12), indexer(13)] }
if CommandLine.arguments.contains("--large") { cases += [counter(3, 3)] }
// With --stateful, the stateful search's rows: states, steps between them, states per
// second and bytes per state (store and graph), beside the families above.
let stateful = CommandLine.arguments.contains("--stateful")
if stateful { cases += [filterLock(2), filterLock(3), counter(3, 3), counter(4, 2)] }
let comparing = CommandLine.arguments.contains("--compare")
if comparing {
    cases = [
        singleton(4), counter(2, 3), counter(3, 2), counter(3, 3), counter(4, 2), philosophers(4), philosophers(5), lastzero(10), indexer(12),
        filterLock(2), filterLock(3), simpleCounter(),
    ]
}
// `--write-sources DIR` writes each chosen row's program to DIR and stops: the same
// programs timed elsewhere (the WebAssembly build, Sources/RaceLabWeb/wasm/bench.mjs).
let sourcesFolder = CommandLine.arguments.firstIndex(of: "--write-sources").flatMap {
    $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}
// Any other argument keeps only the rows whose family and size contain it ("counter N=3").
let filters = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") && $0 != sourcesFolder }
if !filters.isEmpty { cases = cases.filter { item in filters.contains { "\(item.family) \(item.size)".contains($0) } } }
if let sourcesFolder {
    for item in cases {
        let name = "\(item.family) \(item.size)".replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "=", with: "")
        try item.source.write(toFile: "\(sourcesFolder)/\(name).race", atomically: true, encoding: .utf8)
    }
    exit(0)
}

/// The engine alone, no search: runs the program to its end 20,000 times under a
/// round-robin schedule, copying the world at every step as exploration does.
func engineOnly(_ program: Program) -> (steps: Int, perSecond: Double) {
    let engine = Engine(program: program)
    let initial = engine.initialWorld()
    let start = Date()
    var steps = 0
    for _ in 0..<20_000 {
        var world = initial
        while case let runnable = engine.runnableThreads(world), !runnable.isEmpty {
            world = engine.quietStep(world, thread: runnable[steps % runnable.count]).0
            steps += 1
        }
    }
    return (steps, Double(steps) / max(Date().timeIntervalSince(start), 1e-9))
}

let engineMode = CommandLine.arguments.contains("--engine-only")
print(
    comparing
        ? "family               size       automatic         DPOR              stateful          auto/best  peak MB"
        : stateful
            ? "family               size          states  transitions  depth   seconds    states/s  bytes/state  peak MB  verdict"
            : engineMode
                ? "family               size            steps     steps/s"
                : "family               size      executions  sleep-blocked  exec/trace  tree steps  reversal steps     steps/s    execs/s  peak MB")
for item in cases {
    let program: Program
    do {
        program = try Scenario.load(name: item.family, file: SourceFile(name: "bench.race", text: item.source)).versions[0].program
    } catch {
        print("error in \(item.family) \(item.size): \(error)")
        continue
    }
    if comparing {
        compare(item, program)
        continue
    }
    if engineMode {
        let (steps, perSecond) = engineOnly(program)
        print(
            [
                item.family.padding(toLength: 20, withPad: " ", startingAt: 0), item.size.padding(toLength: 9, withPad: " ", startingAt: 0),
                String(format: "%12d", steps), String(format: "%11.0f", perSecond),
            ].joined(separator: " "))
        continue
    }
    var config = ExploreConfig()
    config.timeLimit = 120
    // The whole space, past the first failure: the rows' plain variables race, and a
    // race would stop the search (the throughput is measured over every state).
    config.failureMargin = nil
    if CommandLine.arguments.contains("--no-detectors") { config.detectRaces = false }
    if stateful {
        config.search = .stateful
        config.sleepSets = CommandLine.arguments.contains("--sleep-sets")
        let start = Date()
        let result = Explorer(program: program, config: config).explore()
        let seconds = max(Date().timeIntervalSince(start), 1e-9)
        let row = [
            item.family.padding(toLength: 20, withPad: " ", startingAt: 0), item.size.padding(toLength: 9, withPad: " ", startingAt: 0),
            String(format: "%10d", result.states), String(format: "%12d", result.transitions), String(format: "%6d", result.depth),
            String(format: "%9.3f", seconds), String(format: "%11.0f", Double(result.states) / seconds),
            String(format: "%12.0f", Double(result.memory) / Double(max(1, result.states))), String(format: "%8.1f", peakMemoryMB()),
            "\(result.verdict())",
        ]
        let retried = result.sleepSetsRetried.map { "  (sleep sets found a cycle: searched again without them; \($0.steps) steps with them)" } ?? ""
        print(row.joined(separator: " ") + (result.cut.map { "  (\($0))" } ?? "") + retried)
        continue
    }
    // With --counting, the row's search also counts the interleavings each execution
    // stands for (as `racelab explore` does), and the counting's share is printed.
    let counting = CommandLine.arguments.contains("--counting")
    config.countInterleavings = false
    var start = Date()
    let result = Explorer(program: program, config: config).explore()
    let seconds = max(Date().timeIntervalSince(start), 1e-9)
    var countingNote = ""
    if counting {
        config.countInterleavings = true
        start = Date()
        let counted = Explorer(program: program, config: config).explore()
        let withCounting = max(Date().timeIntervalSince(start), 1e-9)
        countingNote = String(format: "  counting %+.0f%% (%@ interleavings)", (withCounting - seconds) / seconds * 100, counted.interleavings.description)
    }
    let ratio = Double(result.executions + result.sleepBlocked) / Double(max(1, result.executions))
    let row = [
        item.family.padding(toLength: 20, withPad: " ", startingAt: 0),
        item.size.padding(toLength: 9, withPad: " ", startingAt: 0),
        String(format: "%11d", result.executions),
        String(format: "%14d", result.sleepBlocked),
        String(format: "%10.2f", ratio),
        String(format: "%11d", result.steps),
        String(format: "%15d", result.reversalSteps),
        String(format: "%11.0f", Double(result.steps + result.reversalSteps) / seconds),
        String(format: "%10.0f", Double(result.executions) / seconds),
        String(format: "%8.1f", peakMemoryMB()),
    ]
    print(row.joined(separator: " ") + (result.cut.map { "  (\($0))" } ?? "") + countingNote)
}
