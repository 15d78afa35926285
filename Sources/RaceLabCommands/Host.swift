import RaceLabGrading

/// What the commands reach outside themselves through, given by whoever runs them:
/// the files, a raw terminal, worker processes. The CLI gives the machine's own
/// (`RaceLabCLI`); the browser gives files held in memory and neither of the others.
/// No command touches the platform except through these, so the same commands, with
/// the same words, run in a process and in a page.

/// Files, by path: read, written, listed. Every failure says why, with the sysexits
/// code a command ends with.
public struct FileSystem: Sendable {
    /// What is at a path.
    public enum Kind: Sendable { case file, directory }

    /// A file's text, or why it cannot be read (`FileFailure`).
    public var read: @Sendable (String) -> Result<String, FileFailure>
    /// A file's bytes, whatever they are (a WebAssembly module), or why not.
    public var bytes: @Sendable (String) -> Result<[UInt8], FileFailure>
    /// Writes a file, replacing it; with `exclusive`, only a file that is not there yet.
    public var write: @Sendable (_ text: String, _ path: String, _ exclusive: Bool) -> FileFailure?
    /// A file, a folder, or nothing (nil).
    public var kind: @Sendable (String) -> Kind?
    /// The names in a folder (not sorted), or nil when it cannot be listed.
    public var names: @Sendable (String) -> [String]?
    /// Every path below a folder, relative to it, folders included (not sorted).
    public var walk: @Sendable (String) -> [String]
    /// A path made absolute and without `.` and `..` parts: two names of one file agree.
    public var standardized: @Sendable (String) -> String
    /// A path made absolute (for a warning's file name), as it is written otherwise.
    public var absolute: @Sendable (String) -> String

    public init(
        read: @escaping @Sendable (String) -> Result<String, FileFailure>,
        bytes: @escaping @Sendable (String) -> Result<[UInt8], FileFailure>,
        write: @escaping @Sendable (_ text: String, _ path: String, _ exclusive: Bool) -> FileFailure?,
        kind: @escaping @Sendable (String) -> Kind?, names: @escaping @Sendable (String) -> [String]?,
        walk: @escaping @Sendable (String) -> [String], standardized: @escaping @Sendable (String) -> String,
        absolute: @escaping @Sendable (String) -> String
    ) {
        self.read = read
        self.bytes = bytes
        self.write = write
        self.kind = kind
        self.names = names
        self.walk = walk
        self.standardized = standardized
        self.absolute = absolute
    }

    func exists(_ path: String) -> Bool { kind(path) != nil }
}

/// Why a file could not be read or written, with the code its command ends with.
public struct FileFailure: Error, Equatable, Sendable {
    public var message: String
    /// 66 (EX_NOINPUT) for an input that is missing or cannot be read, 65
    /// (EX_DATAERR) for one that is not a script, 73 (EX_CANTCREAT) for an output
    /// that cannot be created, 74 (EX_IOERR) for a write that fails.
    public var status: ExitCode

    public init(message: String, status: ExitCode) {
        self.message = message
        self.status = status
    }
}

/// Paths as text, '/' between parts: what commands make of the paths they are given.
enum Path {
    /// `folder/name`.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The last part: `a/b/c.race` → `c.race`.
    static func lastPart(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    /// Everything before the last part: `a/b/c.race` → `a/b`.
    static func parent(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        while parts.count > 1 && parts.last == "" { parts.removeLast() }
        parts.removeLast()
        let joined = parts.joined(separator: "/")
        return joined.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : joined
    }

    /// The last part without its extension: `a/b/c.race` → `c`.
    static func stem(_ path: String) -> String {
        let last = lastPart(path)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }
}

/// The terminal in raw mode, for step mode: one key at a time, the screen redrawn.
public struct KeyTerminal: Sendable {
    /// Columns, as the terminal says now.
    public var width: @Sendable () -> Int
    /// Raw mode and the alternate screen; `leave` puts everything back.
    public var enter: @Sendable () -> Void
    public var leave: @Sendable () -> Void
    /// The next key, or nil at the end of input.
    public var readKey: @Sendable () -> UInt8?
    /// Drops the rest of an escape sequence already waiting.
    public var discardPending: @Sendable () -> Void
    /// Clears the screen and draws the text from the top left.
    public var draw: @Sendable (String) -> Void

    public init(
        width: @escaping @Sendable () -> Int, enter: @escaping @Sendable () -> Void, leave: @escaping @Sendable () -> Void,
        readKey: @escaping @Sendable () -> UInt8?, discardPending: @escaping @Sendable () -> Void, draw: @escaping @Sendable (String) -> Void
    ) {
        self.width = width
        self.enter = enter
        self.leave = leave
        self.readKey = readKey
        self.discardPending = discardPending
        self.draw = draw
    }
}

/// Grading in processes of their own (`racelab grade-worker`), so that a file that
/// crashes the grader or outgrows its limits stops only its worker.
package struct WorkerGrading: Sendable {
    /// What one grading asks of the workers.
    package struct Plan: Sendable {
        package var limits: WorkerProtocol.Limits
        /// How many workers run at once.
        package var jobs: Int
        package var environment: [String: String]
        package var setup: WorkerProtocol.Setup
        package var progress: (@Sendable (String) -> Void)?
    }

    /// How many workers run at once when `--jobs` does not say: the machine's cores.
    package var defaultJobs: Int
    /// Each job's grade, or why its worker stopped on it; in the order of the jobs.
    package var run: @Sendable ([WorkerProtocol.Job], Plan) -> [Result<Grade, WorkerProtocol.Stop>]

    package init(defaultJobs: Int, run: @escaping @Sendable ([WorkerProtocol.Job], Plan) -> [Result<Grade, WorkerProtocol.Stop>]) {
        self.defaultJobs = defaultJobs
        self.run = run
    }
}

extension Result {
    /// The error, if this is a failure.
    package var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
