import Foundation
import RaceLabGrading

/// Grades files in worker processes (`racelab grade-worker`, this binary again), a
/// few at a time, so that a file that crashes the grader, or needs more memory or
/// time than a worker has, stops only its worker: its row says why, a new worker takes
/// the next file, and the class is graded. Results come back in the order of the jobs,
/// whichever worker finished first, so a report is the same bytes on every run.
///
/// Each of `jobs` lanes is a thread that owns at most one worker at a time and takes
/// the next job from a shared counter until none is left; a worker that stopped is
/// reaped, and the lane starts a new one for its next job.
struct WorkerPool: Sendable {
    /// The racelab binary; `/proc/self/exe` is this process's own, even if the file
    /// was replaced since it started.
    var executable: URL
    var limits: WorkerProcess.Limits
    /// Lanes: how many workers run at once.
    var jobs: Int
    /// The workers' environment (the command's).
    var environment: [String: String]
    var setup: WorkerProtocol.Setup
    var progress: (@Sendable (String) -> Void)?

    /// This binary, for a command run from `main.swift`: on Linux `/proc/self/exe`.
    static var currentExecutable: URL? {
        FileManager.default.fileExists(atPath: "/proc/self/exe") ? URL(fileURLWithPath: "/proc/self/exe") : Bundle.main.executableURL
    }

    /// The default number of lanes: the machine's cores.
    static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Each job's grade, or why its worker stopped on it; in the order of `work`.
    func run(_ work: [WorkerProtocol.Job]) -> [Result<Grade, WorkerProcess.Stop>] {
        guard !work.isEmpty else { return [] }
        let board = Board(count: work.count)
        let setupLine = setup.wire.compact()
        let lanes = min(max(jobs, 1), work.count)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<lanes {
            let thread = Thread {
                Self.blockBrokenPipeSignals()
                var worker: WorkerProcess?
                while let index = board.next() {
                    progress?("grading \(work[index].file.name) …")
                    board.record(index, grade(work[index].wire.compact(), &worker, setupLine))
                }
                worker?.finish()
                finished.signal()
            }
            thread.start()
        }
        for _ in 0..<lanes { finished.wait() }
        return board.results()
    }

    /// One job on this lane's worker (started if there is none). A worker that was
    /// already gone before it could read the job (it died between jobs, or on its setup)
    /// does not count against the file: a new one tries once more.
    func grade(_ job: String, _ worker: inout WorkerProcess?, _ setupLine: String) -> Result<Grade, WorkerProcess.Stop> {
        for attempt in 1...2 {
            if worker == nil {
                do throws(WorkerProcess.Stop) {
                    worker = try WorkerProcess(executable: executable, limits: limits, environment: environment, setup: setupLine)
                } catch {
                    if attempt == 2 || error.isUnstartable { return .failure(error) }
                    continue
                }
            }
            switch worker!.grade(job) {
            case .graded(let grade):
                return .success(grade)
            case .stopped(let stop, let beforeTheJob):
                if !worker!.isRunning { worker = nil }
                if attempt == 2 || !beforeTheJob { return .failure(stop) }
            }
        }
        return .failure(.unstartable("no worker read the file"))
    }

    /// A write to a worker that has died fails with EPIPE instead of killing this
    /// process: SIGPIPE is blocked on the lane's own thread (the signal a failed write
    /// raises goes to the thread that wrote), so nothing else changes.
    static func blockBrokenPipeSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }
}

/// The jobs not yet taken and the results so far, shared by the lanes.
private final class Board: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = 0
    private var slots: [Result<Grade, WorkerProcess.Stop>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// The next job's index, or nil when every job is taken.
    func next() -> Int? {
        lock.withLock {
            guard taken < slots.count else { return nil }
            taken += 1
            return taken - 1
        }
    }

    func record(_ index: Int, _ result: Result<Grade, WorkerProcess.Stop>) {
        lock.withLock { slots[index] = result }
    }

    /// Every result, once every lane has finished.
    func results() -> [Result<Grade, WorkerProcess.Stop>] {
        lock.withLock { slots.map { $0! } }
    }
}
