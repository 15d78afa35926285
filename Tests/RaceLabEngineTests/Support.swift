import Foundation
import RaceLabEngine
import RaceLabLanguage

func compile(_ source: String) throws -> Program {
    let file = SourceFile(name: "test.race", text: source)
    return try Scenario.load(name: "test", file: file).versions[0].program
}

func run(_ source: String, schedule: String? = nil) throws -> Run {
    let program = try compile(source)
    let runner = Runner(program: program)
    if let schedule {
        var scheduler = try FixedScheduler(schedule, limit: runner.maxSteps)
        return try runner.run(&scheduler)
    }
    var scheduler = RoundRobinScheduler()
    return try runner.run(&scheduler)
}

/// The first diagnostic compiling `source` gives, as "line:column: message"; nil
/// when it compiles.
func firstDiagnostic(_ source: String) -> String? {
    do {
        _ = try compile(source)
        return nil
    } catch let error as ScriptError {
        let first = error.diagnostics[0]
        return "\(first.range.start.line):\(first.range.start.column): \(first.message)"
    } catch {
        return "\(error)"
    }
}

/// "A reads x: 0" lines of a run.
func lines(_ run: Run) -> [String] {
    run.events.map { "\(run.world.threadNames[$0.thread]) \($0.text)" }
}
