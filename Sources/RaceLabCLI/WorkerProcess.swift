import Foundation
import RaceLabGrading
import RaceLabPresentation

/// One `racelab grade-worker` process, as `WorkerPool` drives it: started with its
/// limits and the setup line, sent one job at a time, and, when it stops on a file,
/// reaped and told apart (a crash, too much memory, too much time). Used by one
/// thread at a time.
final class WorkerProcess {
    typealias Limits = WorkerProtocol.Limits
    typealias Stop = WorkerProtocol.Stop

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
