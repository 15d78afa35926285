import RaceLabGrading

extension WorkerProtocol {
    /// A worker's memory (its address space, in MiB) and the wall-clock time one file
    /// may take (seconds).
    package struct Limits: Equatable, Sendable {
        package var memory: Int
        package var seconds: Int

        package static let `default` = Limits(memory: 2_048, seconds: 600)
    }

    /// Why a worker stopped on a file: the end of the file's row, "the grader stopped
    /// on this file: …".
    package enum Stop: Error, Equatable, Sendable {
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

        package var isUnstartable: Bool {
            if case .unstartable = self { return true }
            return false
        }

        package var words: String {
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
        package func details(_ file: String) -> String {
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
}
