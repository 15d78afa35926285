import Foundation
import RaceLabGrading
import RaceLabPresentation

/// One `racelab grade-worker` process, as `WorkerPool` drives it: started with its
/// limits and the setup line, sent one job at a time, and, when it stops on a file,
/// reaped and told apart (a crash, too much memory, too much time). Used by one
/// thread at a time.
final class WorkerProcess {
    /// A worker's memory (its address space, in MiB) and the wall-clock time one file
    /// may take (seconds).
    struct Limits: Equatable, Sendable {
        var memory: Int
        var seconds: Int

        static let `default` = Limits(memory: 2_048, seconds: 600)
    }

    /// Why a worker stopped on a file: the end of the file's row, "the grader stopped
    /// on this file: …".
    enum Stop: Error, Equatable, Sendable {
        /// A signal ended it (a Swift trap is SIGILL or SIGTRAP, a bad access SIGSEGV);
        /// with the runtime's "Fatal error" line, when it printed one.
        case crashed(signal: Int32, message: String?)
        /// An allocation failed under its `RLIMIT_AS`.
        case memory(limit: Int)
        /// The parent's deadline passed (it was killed), or its CPU limit did (SIGXCPU).
        case time(limit: Int)
        /// SIGKILL, not from the pool: the system's out-of-memory killer, or a person.
        case killed
        /// It exited without answering.
        case exited(status: Int32)
        /// It answered something that is not an answer, or refused the job.
        case garbled(String)
        /// No worker could be started.
        case unstartable(String)

        var isUnstartable: Bool {
            if case .unstartable = self { return true }
            return false
        }

        var words: String {
            switch self {
            case .crashed(let signal, _): return "it crashed (signal \(signal))"
            case .memory(let limit): return "it used more than \(limit) MB"
            case .time(let limit): return "it ran past \(limit) seconds"
            case .killed: return "it was killed (signal 9), perhaps by the system for want of memory"
            case .exited(let status): return "it ended without an answer (exit status \(status))"
            case .garbled(let message): return "its answer could not be read (\(message))"
            case .unstartable(let message): return "no worker process could be started (\(message))"
            }
        }

        /// What a teacher can do about it, for the row's details.
        func details(_ file: String) -> String {
            switch self {
            case .crashed(_, let message):
                return (message.map { "The grader said: \($0)\n" } ?? "")
                    + "This is a fault in RaceLab, not a verdict on the work: please report it, with the file.\n"
            case .memory(let limit):
                return "Grade it alone with more memory: racelab grade \(file) --worker-memory \(limit * 2)\n"
            case .time(let limit):
                return "Grade it alone with more time: racelab grade \(file) --worker-time \(limit * 2)\n"
            case .killed, .exited, .garbled, .unstartable:
                return "Grade it again alone: racelab grade \(file)\n"
            }
        }
    }

    /// How a job ended: its grade, or why the worker stopped (and whether it died
    /// before it could have read the job, so that another worker may try it).
    enum Outcome {
        case graded(Grade)
        case stopped(Stop, beforeTheJob: Bool)
    }

    let limits: Limits
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    /// Bytes read from standard output and not yet returned as a line.
    private var pending: [UInt8] = []
    /// The end of what it wrote to standard error (the runtime's words when it traps).
    private var said: [UInt8] = []
    private var errorsOpen = true

    /// One launch at a time: `Process.run` reads the process's table of open files.
    private static let launching = NSLock()

    /// Starts a worker and sends it the setup line.
    init(executable: URL, limits: Limits, environment: [String: String], setup: String) throws(Stop) {
        self.limits = limits
        process.executableURL = executable
        process.arguments = ["grade-worker", "--memory", String(limits.memory), "--time", String(limits.seconds)]
        var environment = environment
        // A trap ends the worker at once, without the runtime's symbolicated backtrace.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try Self.launching.withLock { try process.run() }
        } catch {
            throw .unstartable("\(executable.path): \(error.localizedDescription)")
        }
        if let stop = send(setup) { throw stop }
    }

    /// Grades one job: sends it, and waits for the answer until the deadline.
    func grade(_ job: String) -> Outcome {
        if let stop = send(job) { return .stopped(stop, beforeTheJob: true) }
        let deadline = ContinuousClock.now + .seconds(limits.seconds)
        switch receive(until: deadline) {
        case .line(let line):
            do throws(WorkerProtocol.WireError) {
                let reply = try WorkerProtocol.read(line)
                if let refusal = reply["error"]?.stringValue { return .stopped(.garbled(refusal), beforeTheJob: false) }
                guard let grade = reply["grade"] else { throw WorkerProtocol.WireError("no grade") }
                return .graded(try Grade(wire: grade))
            } catch {
                reap(killing: true)
                return .stopped(.garbled(error.message), beforeTheJob: false)
            }
        case .closed:
            reap(killing: false)
            return .stopped(stopped(late: false), beforeTheJob: false)
        case .late:
            reap(killing: true)
            return .stopped(stopped(late: true), beforeTheJob: false)
        }
    }

    var isRunning: Bool { process.isRunning }

    /// No more work: closes its standard input, so that it exits; kills it if it has not
    /// within a few seconds.
    func finish() {
        try? input.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        reap(killing: true)
    }

    // MARK: - Pipes

    /// Writes one line to its standard input; why it stopped, if it is gone (a broken
    /// pipe: `WorkerPool` blocks SIGPIPE on its threads).
    private func send(_ line: String) -> Stop? {
        guard FileIO.write(line + "\n", to: input.fileHandleForWriting.fileDescriptor) != nil else { return nil }
        reap(killing: false)
        return stopped(late: false)
    }

    private enum Received {
        case line(String)
        case closed
        case late
    }

    /// The next line of its standard output, reading its standard error on the way.
    private func receive(until deadline: ContinuousClock.Instant) -> Received {
        var scanned = 0
        while true {
            if let end = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                return .line(line)
            }
            scanned = pending.count
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .late }
            // Slices of at most 200 ms, so a worker that died is noticed even if its
            // pipe were held open.
            let slice = min(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000, 200)
            var fds = [
                pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? errors.fileHandleForReading.fileDescriptor : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(max(slice, 1)))
            if ready < 0 && errno != EINTR { return .closed }
            if fds[1].revents != 0 { readErrors() }
            if fds[0].revents != 0 {
                guard let chunk = Self.readChunk(output.fileHandleForReading.fileDescriptor) else { return .closed }
                pending += chunk
            } else if ready == 0 && !process.isRunning {
                return .closed
            }
        }
    }

    /// Up to 64 KiB from `fd`; nil at its end (or on an error other than EINTR).
    private static func readChunk(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? Array(buffer[..<count]) : nil
        }
    }

    private func readErrors() {
        guard let chunk = Self.readChunk(errors.fileHandleForReading.fileDescriptor) else {
            errorsOpen = false
            return
        }
        said = Array((said + chunk).suffix(16_384))
    }

    // MARK: - Its end

    /// Waits for it to end (killing it first, or when it takes more than a few
    /// seconds), reading the rest of its standard error.
    private func reap(killing: Bool) {
        if killing && process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(5)
        while errorsOpen && ContinuousClock.now < deadline {
            var fd = pollfd(fd: errors.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 50) > 0 { readErrors() }
            if !process.isRunning && fd.revents == 0 { break }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Why it stopped, once it has ended.
    private func stopped(late: Bool) -> Stop {
        if late { return .time(limit: limits.seconds) }
        let words = String(decoding: said, as: UTF8.self)
        // The runtime's words for an allocation that failed (under RLIMIT_AS, malloc
        // returns NULL; the Swift runtime then aborts, C++ throws bad_alloc).
        if ["failed to allocate", "Could not allocate memory", "bad_alloc", "Cannot allocate memory"].contains(where: words.contains) {
            return .memory(limit: limits.memory)
        }
        guard process.terminationReason == .uncaughtSignal else { return .exited(status: process.terminationStatus) }
        switch process.terminationStatus {
        case SIGXCPU: return .time(limit: limits.seconds)
        case SIGKILL: return .killed
        case let signal:
            let fatal = words.split(separator: "\n").first { $0.contains("Fatal error") }
            return .crashed(signal: signal, message: fatal.map { String($0.prefix(300)) })
        }
    }
}
