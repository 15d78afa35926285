/// Runs a program to the end under a scheduler, then checks the final state.
public struct Runner: Sendable {
    public var engine: Engine
    /// The most steps a run may take before it is stopped.
    public var maxSteps: Int

    public init(program: Program, maxSteps: Int = 10_000, localBudget: Int = 100_000) {
        engine = Engine(program: program, localBudget: localBudget)
        self.maxSteps = maxSteps
    }

    /// - Throws: `ScheduleError` when a fixed schedule cannot be followed.
    public func run<S: Scheduler>(_ scheduler: inout S) throws(ScheduleError) -> Run {
        var world = engine.initialWorld()
        var schedule: Schedule = []
        var events: [Event] = []
        var end = Run.End.completed
        // How it ended (`Engine.conclude`), once no thread can run or the program halted.
        var conclusion: Engine.Conclusion?
        while true {
            let runnable = world.halted ? [] : engine.runnableThreads(world)
            if runnable.isEmpty {
                let ended = engine.conclude(world)
                end = ended.end
                if let finding = ended.deadlock { world.findings.append(finding) }
                conclusion = ended
                break
            }
            if world.stepCount >= maxSteps {
                end = .stepLimit
                world.findings.append(
                    Finding(
                        kind: .stepLimit, step: world.stepCount, thread: nil, range: nil,
                        message: "the run was stopped after \(maxSteps) steps; a thread may loop forever (raise the limit with --max-steps)"))
                break
            }
            // A spurious wakeup is a choice the explorer takes and a schedule may name,
            // but a scheduler picking on its own takes it only when nothing else can run.
            let ordinary = runnable.filter { !engine.canOnlyWakeSpuriously(world, $0) }
            let candidates = ordinary.isEmpty ? runnable : ordinary
            let thread: ThreadID
            do throws(ScheduleError) {
                do throws(ScheduleError) {
                    thread = try scheduler.next(runnable: candidates, world: world)
                } catch {
                    guard let blocked = error.blocked, runnable.contains(blocked) else { throw error }
                    thread = try scheduler.next(runnable: runnable, world: world)
                }
            } catch {
                // Say why the picked thread cannot run, and keep the run up to there.
                var error = error
                if let blocked = error.blocked {
                    if let why = engine.waitDescription(world, blocked) { error.message += ": \(world.threadNames[blocked]) \(why.text)" }
                    error.message += "; runnable: \(runnable.map { world.threadNames[$0] }.joined(separator: ", "))"
                }
                error.partial = Run(
                    program: engine.program, schedule: schedule, events: events, world: world, end: end,
                    findings: world.findings, expectations: [])
                throw error
            }
            schedule.append(world.threadNames[thread])
            events += engine.step(&world, thread: thread)
        }
        let unused = scheduler.unused
        if !unused.isEmpty {
            let shown = unused.prefix(5).joined(separator: " ") + (unused.count > 5 ? " …" : "")
            var error = ScheduleError(
                "the run ended (\(end.rawValue)) after \(schedule.count) step\(schedule.count == 1 ? "" : "s"), but the schedule has \(unused.count) more: \(shown)"
            )
            error.partial = Run(
                program: engine.program, schedule: schedule, events: events, world: world, end: end,
                findings: world.findings, expectations: [])
            throw error
        }
        var expectations: [Run.ExpectationResult] = []
        if end.ranToTheEnd, let conclusion {
            let checks = Array(zip(engine.program.expectations, conclusion.checks))
            expectations = checks.map { .init(message: $0.message, passed: $1.passed, note: $1.error) }
            // Locked code that never ran comes first: the checks after it judge a run
            // that skipped work.
            let failed = checks.filter { $0.1.passed != true }
            for (expectation, result) in failed.filter({ engine.program.isProbe($0.0) }) + failed.filter({ !engine.program.isProbe($0.0) }) {
                var message = expectation.message + (result.error.map { ": could not be evaluated: \($0)" } ?? "")
                if let index = expectation.requirement, result.error == nil {
                    let requirement = engine.program.requirements[index]
                    message =
                        requirement.probeLine != nil
                        ? "\(Finding.workNotDone): \(requirement.name) never ran"
                        : "\(Finding.workNotDone): \(requirement.name) (\(engine.shortfall(ofRequirement: index, in: world)))"
                }
                world.findings.append(Finding(kind: .expectation, step: world.stepCount, thread: nil, range: expectation.range, message: message))
            }
        } else {
            expectations = engine.program.expectations.map {
                .init(message: $0.message, passed: nil, note: "not checked: the run \(end.rawValue)")
            }
        }
        var run = Run(
            program: engine.program, schedule: schedule, events: events, world: world, end: end,
            findings: world.findings, expectations: expectations)
        if end == .idle {
            run.resting = world.threads.indices.filter { engine.isIdle(world, $0) }.map { engine.restingDescription(world, $0) }
        }
        return run
    }
}
