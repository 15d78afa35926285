import Foundation
@_exported import RaceLabCommands

/// The machine's own files, terminal and worker processes, for the commands.
extension RaceLab {
    /// `racelab` on this machine: its files, the shipped `Scenarios` folder found
    /// beside the binary (or the checkout it was built from), and standard input's
    /// lines for step mode. A terminal and worker processes are `main.swift`'s to add.
    public init(environment: [String: String]) {
        self.init(environment: environment, files: .native, shipped: Self.findShipped())
        readLine = { Swift.readLine(strippingNewline: true) }
        unlisted = [Entry(GradeWorkerCommand.self, listed: false) { GradeWorkerCommand(environment: $0.environment) }]
    }

    /// `grade` grades each file in a worker process: `executable` (a racelab binary)
    /// run as `racelab grade-worker`, with its own limits.
    public mutating func gradeInWorkers(of executable: URL) {
        workers = WorkerGrading(defaultJobs: WorkerPool.defaultJobs) { jobs, plan in
            WorkerPool(
                executable: executable, limits: plan.limits, jobs: plan.jobs, environment: plan.environment, setup: plan.setup,
                progress: plan.progress
            ).run(jobs)
        }
    }

    /// This binary (on Linux `/proc/self/exe`), for `gradeInWorkers`.
    public static var currentExecutable: URL? { WorkerPool.currentExecutable }

    /// Writes all of `text` to a file descriptor (standard output, say); the reason
    /// when a write fails, or nil.
    public static func write(_ text: String, to fd: Int32) -> String? {
        FileIO.write(text, to: fd).map(FileIO.reason)
    }

    /// The shipped `Scenarios` folder: beside a `Package.swift` in the executable's
    /// folder or one of the seven above it (or the working directory's, for a binary
    /// found on the PATH), else in the checkout this binary was built from.
    static func findShipped() -> String? {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        if !CommandLine.arguments[0].contains("/") { folder = URL(fileURLWithPath: fileManager.currentDirectoryPath) }
        for _ in 0..<8 {
            candidates.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
        for candidate in candidates {
            let scenarios = candidate.appendingPathComponent("Scenarios")
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path),
                fileManager.fileExists(atPath: scenarios.path)
            {
                return scenarios.path
            }
        }
        return nil
    }
}

extension FileSystem {
    /// This machine's files, through `FileIO` (each failure's precise reason) and
    /// `FileManager`.
    public static let native = FileSystem(
        read: { FileIO.read($0) },
        bytes: { FileIO.bytes($0) },
        write: { text, path, exclusive in exclusive ? FileIO.create(text, at: path) : FileIO.write(text, to: path) },
        kind: { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
            return isDirectory.boolValue ? .directory : .file
        },
        names: { try? FileManager.default.contentsOfDirectory(atPath: $0) },
        walk: { folder in
            var paths: [String] = []
            if let walker = FileManager.default.enumerator(atPath: folder) {
                while let relative = walker.nextObject() as? String { paths.append(relative) }
            }
            return paths
        },
        standardized: { URL(fileURLWithPath: $0).standardizedFileURL.path },
        absolute: { URL(fileURLWithPath: $0).path }
    )
}

extension Terminal {
    /// This terminal, as step mode drives it.
    public var keys: KeyTerminal {
        KeyTerminal(
            width: { self.width }, enter: { self.enter() }, leave: { self.leave() }, readKey: { self.readKey() },
            discardPending: { self.discardPending() }, draw: { self.draw($0) })
    }
}
