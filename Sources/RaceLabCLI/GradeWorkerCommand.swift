import Foundation
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

/// `racelab grade-worker`: the process `racelab grade` grades files in (not listed in
/// help; see `WorkerProtocol` and `WorkerPool`). It limits its own address space
/// (`RLIMIT_AS`) before it reads anything, so a file that needs more memory ends this
/// process, never the class; and before each file it sets its CPU time limit
/// (`RLIMIT_CPU`) a little past the parent's deadline, so it ends by itself even if
/// the parent is gone.
struct GradeWorkerCommand: Command {
    var environment: [String: String]

    static let spec = CommandSpec(
        name: "grade-worker",
        abstract: "(internal) Grade the files 'racelab grade' sends on standard input.",
        usage: "racelab grade-worker --memory <MB> --time <seconds>",
        options: [
            .init(name: "memory", value: "MB", help: "The most memory (address space) this process may use."),
            .init(name: "time", value: "seconds", help: "The CPU time one file may take, with a little to spare."),
        ]
    )

    /// Hooks for the tests, read from the environment: a file whose path ends with the
    /// variable's value makes this worker crash, use memory until the limit stops it,
    /// or hang. They exist only here, in the worker, never in the engine or grader.
    static let crashHook = "RACELAB_WORKER_CRASH_ON"
    static let memoryHook = "RACELAB_WORKER_HOG_ON"
    static let hangHook = "RACELAB_WORKER_HANG_ON"

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        guard let memory = parsed.values["memory"].flatMap(Int.init), memory > 0, let time = parsed.values["time"].flatMap(Int.init), time > 0
        else { throw UsageError("give --memory and --time, as 'racelab grade' does", command: Self.spec) }
        guard isatty(STDIN_FILENO) == 0 else {
            return CommandOutput(stderr: "error: 'racelab grade' runs this: it sends the files on standard input\n", status: .usage)
        }
        // Soft and hard alike (never above a hard limit the system already set).
        var limit = rlimit()
        _ = getrlimit(Self.resource(RLIMIT_AS), &limit)
        limit.rlim_cur = min(rlim_t(memory) << 20, limit.rlim_max)
        limit.rlim_max = limit.rlim_cur
        guard setrlimit(Self.resource(RLIMIT_AS), &limit) == 0 else {
            return CommandOutput(stderr: "error: cannot limit this worker's memory: \(FileIO.reason(errno))\n", status: .usage)
        }
        guard let first = readLine(strippingNewline: true) else { return CommandOutput() }
        // A setup that cannot be read is each file's answer: the parent writes the rows.
        let grader = Result { () throws(WorkerProtocol.WireError) -> Grader in
            let setup = try WorkerProtocol.Setup(wire: try WorkerProtocol.read(first))
            var exercises: [Exercise] = []
            for file in setup.exercises {
                do throws(GradingError) {
                    exercises.append(try ScenarioLocator.exercise(file))
                } catch {
                    throw WorkerProtocol.WireError("exercise \(file.name): \(error.message)")
                }
            }
            return Grader(exercises: exercises, revealsAnswers: setup.revealsAnswers)
        }
        while let line = readLine(strippingNewline: true) {
            limitCPU(to: time)
            let reply: JSON
            do throws(WorkerProtocol.WireError) {
                let job = try WorkerProtocol.Job(wire: try WorkerProtocol.read(line))
                let grader = try grader.get()
                testHooks(job.file.name)
                reply = .object([("grade", grader.grade(job.file, student: job.student, expected: job.expected).wire)])
            } catch {
                reply = .object([("error", .string(error.message))])
            }
            // The parent is gone when its end of the pipe is: nothing is left to do.
            guard FileIO.write(reply.compact() + "\n", to: STDOUT_FILENO) == nil else { return CommandOutput(status: .ioError) }
        }
        return CommandOutput()
    }

    /// Lets this process use `seconds` more CPU seconds, and a few to spare (the
    /// parent's deadline, in wall-clock time, comes first): past them the kernel sends
    /// SIGXCPU, which ends it.
    func limitCPU(to seconds: Int) {
        var usage = rusage()
        var limit = rlimit()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0, getrlimit(Self.resource(RLIMIT_CPU), &limit) == 0 else { return }
        let used = rlim_t(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        limit.rlim_cur = min(used + rlim_t(seconds) + 5, limit.rlim_max)
        _ = setrlimit(Self.resource(RLIMIT_CPU), &limit)
    }

    /// The tests' ways for a worker to stop on a file (see `crashHook`).
    func testHooks(_ path: String) {
        func names(_ variable: String) -> Bool {
            guard let value = environment[variable], !value.isEmpty else { return false }
            return path == value || path.hasSuffix("/" + value)
        }
        if names(Self.crashHook) { fatalError("\(Self.crashHook) names \(path)") }
        if names(Self.memoryHook) {
            var hoard: [[UInt8]] = []
            while true {
                hoard.append([UInt8](repeating: UInt8(hoard.count & 0xFF), count: 16 << 20))
                // Handed to the kernel (which refuses fd -1), so no optimiser drops it.
                _ = hoard[hoard.count - 1].withUnsafeBytes { write(-1, $0.baseAddress, 1) }
            }
        }
        if names(Self.hangHook) {
            while true { sleep(60) }
        }
    }

    /// Glibc's resource constants are an enum; `setrlimit` takes its raw value.
    static func resource(_ resource: __rlimit_resource) -> __rlimit_resource_t {
        __rlimit_resource_t(resource.rawValue)
    }
}
