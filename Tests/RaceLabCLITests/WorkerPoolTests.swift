import Foundation
import RaceLabGrading
import RaceLabPresentation
import RaceLabTestSupport
import Testing

@testable import RaceLabCLI
@testable import RaceLabCommands

/// `racelab grade` grades each file in a worker process (issue 29, item 11): a file
/// that crashes the grader, exhausts a worker's memory or hangs is that file's row,
/// its worker is replaced, every other row is the same bytes as without it, and the
/// reports are written. The workers are the built `racelab` binary; the hostile
/// files are honest ones that the worker's test hooks (`GradeWorkerCommand.crashHook`
/// and the others) make crash, hoard memory or sleep.
struct WorkerPoolTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let submissions = tests.appendingPathComponent("RaceLabGradingTests/Submissions")
    static let solutions = tests.appendingPathComponent("RaceLabGradingTests/Solutions")

    /// The racelab binary, built beside the test bundle by `swift test`.
    static let binary: URL? = {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("racelab") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Honest students, graded today in this process, and hostile ones between them.
    static let honest = ["alice", "bob", "judy", "peggy"]
    static let hostile = [
        ("chuck", "singleton-fix", GradeWorkerCommand.crashHook), ("mallory", "deadlock-fix", GradeWorkerCommand.memoryHook),
        ("oscar", "array-fix", GradeWorkerCommand.hangHook),
    ]
    static let hooks = Dictionary(uniqueKeysWithValues: hostile.map { ($0.2, "\($0.0)/\($0.1).race") })
    /// Time enough for an honest file on a loaded machine (a debug build, every other
    /// suite running beside this one), so that only the hanging file reaches it.
    static let limits = ["--worker-memory", "384", "--worker-time", "10"]

    /// A fatalError traps: SIGILL on x86-64, SIGTRAP on ARM.
    static var trap: Int32 {
        #if arch(x86_64)
            SIGILL
        #else
            SIGTRAP
        #endif
    }

    /// A class folder of the honest students (peggy hands in carol's files), and, with
    /// `hostile`, the hostile ones (each file a copy of a reference solution).
    static func makeClass(_ name: String, hostile withHostile: Bool) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-workers-\(name)-\(UUID().uuidString)")
        for student in honest {
            try FileManager.default.copyItem(
                at: submissions.appendingPathComponent(student == "peggy" ? "carol" : student), to: folder.appendingPathComponent(student))
        }
        if withHostile {
            for (student, exercise, _) in hostile {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(student), withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: solutions.appendingPathComponent("\(exercise).race"), to: folder.appendingPathComponent("\(student)/\(exercise).race"))
            }
        }
        return folder
    }

    /// `racelab` with workers from the built binary, and the test hooks set.
    static func workers(hanging: Bool = true) throws -> RaceLab {
        guard let binary else { throw Failure("no racelab binary beside the tests: build it first (swift build)") }
        var racelab = RaceLab(environment: hooks.filter { hanging || $0.key != GradeWorkerCommand.hangHook })
        racelab.gradeInWorkers(of: binary)
        return racelab
    }

    @Test(.exhaustive) func aCrashAMemoryHogAndAHangAreTheirOwnRowsAndTheClassIsGraded() throws {
        let baseline = try Self.makeClass("baseline", hostile: false)
        let folder = try Self.makeClass("hostile", hostile: true)
        defer { for url in [baseline, folder] { try? FileManager.default.removeItem(at: url) } }
        // Today's rows, graded in this process, of the same files at the same paths.
        let today = RaceLab(environment: [:]).main(["grade", baseline.path, "--format", "csv"])
        #expect(today.exitCode == 1 && today.stderr == "")
        let csvFile = folder.path + ".csv"
        defer { try? FileManager.default.removeItem(atPath: csvFile) }
        let graded = try Self.workers().main(["grade", folder.path, "--format", "csv", "--csv", csvFile, "--jobs", "2"] + Self.limits)
        #expect(graded.exitCode == 1)
        #expect(graded.stderr == "")
        #expect(try String(contentsOfFile: csvFile, encoding: .utf8) == graded.stdout, "the report file is written")

        let stopped = "error,0,10,the grader stopped on this file"
        let expected = [
            "chuck,singleton-fix,fix it,\(folder.path)/chuck/singleton-fix.race,\(stopped): it crashed (signal \(Self.trap))",
            "mallory,deadlock-fix,fix it,\(folder.path)/mallory/deadlock-fix.race,\(stopped): it used more than 384 MB",
            "oscar,array-fix,fix it,\(folder.path)/oscar/array-fix.race,\(stopped): it ran past 10 seconds",
        ]
        let rows = graded.stdout.components(separatedBy: "\r\n")
        let isHostile = { (row: String) in Self.hostile.contains { row.hasPrefix($0.0 + ",") } }
        #expect(rows.filter(isHostile) == expected)
        // Every other row, in its place, byte for byte as today (the paths differ only by
        // the folder's name).
        let honestRows = rows.filter { !isHostile($0) }.joined(separator: "\r\n")
        #expect(honestRows == today.stdout.replacingOccurrences(of: baseline.path, with: folder.path))
        // In input order: peggy, after the three hostile students, is graded and last.
        #expect(rows.dropLast().last?.hasPrefix("peggy,") == true)
    }

    @Test func oneLaneGivesTheSameReportAsThree() throws {
        let folder = try Self.makeClass("formats", hostile: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Oscar's file is graded as it is: its hang costs time, and the first test has it.
        let racelab = try Self.workers(hanging: false)
        let one = racelab.main(["grade", folder.path, "--format", "json", "--jobs", "1"] + Self.limits)
        let three = racelab.main(["grade", folder.path, "--format", "json", "--jobs", "3"] + Self.limits)
        #expect(one == three)
        let grades = try JSON.parse(one.stdout)["grades"]
        guard case .array(let rows)? = grades else { throw Failure("no grades in \(one.stdout)") }
        #expect(rows.count == 20)
        let text = racelab.main(["grade", "\(folder.path)/chuck/singleton-fix.race"] + Self.limits)
        #expect(text.stdout.hasPrefix("ERROR   \(folder.path)/chuck/singleton-fix.race  singleton-fix (fix it)  0/10 points\n"))
        #expect(text.stdout.contains("      the grader stopped on this file: it crashed (signal \(Self.trap))\n"))
        #expect(text.stdout.contains("      The grader said: "))
        #expect(text.stdout.contains("Fatal error: \(GradeWorkerCommand.crashHook) names"))
        #expect(text.stdout.hasSuffix("1 row: 0 passed, 0 failed, 1 error; 0 of 10 points\n"))
    }

    @Test func gradescopeAndClassroomGetTheRowToo() throws {
        let folder = try Self.makeClass("autograders", hostile: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("results.json").path
        let chuck = "\(folder.path)/chuck"
        let graded = try Self.workers().main(
            ["grade", chuck, "--student", "chuck", "--assigned", "singleton-fix,deadlock-break", "--gradescope", results, "--format", "classroom"])
        #expect(graded.exitCode == 1)
        let gradescope = try JSON.parse(try String(contentsOfFile: results, encoding: .utf8))
        #expect(gradescope["score"] == .int(0))
        guard case .array(let tests)? = gradescope["tests"], case .array(let classroom)? = try JSON.parse(graded.stdout)["tests"] else {
            throw Failure("no tests in the reports")
        }
        #expect(tests.map { $0["name"] } == [.string("singleton-fix"), .string("deadlock-break")])
        #expect(tests[0]["output"]?.stringValue?.hasPrefix("the grader stopped on this file: it crashed (signal \(Self.trap))\n\n") == true)
        #expect(classroom[0]["status"] == .string("error"))
        #expect(classroom[1]["status"] == .string("fail"), "the missing exercise")
    }

    @Test func solutionsAndStartersGradeInWorkersAsInThisProcess() throws {
        let racelab = try Self.workers()
        let starters = Shipped.exercisesFolder.path
        for arguments in [[Self.solutions.path], [starters], [Self.solutions.path, "--teacher", "--format", "json"]] {
            let inProcess = RaceLab(environment: [:]).main(["grade"] + arguments)
            #expect(racelab.main(["grade"] + arguments) == inProcess, "\(arguments)")
        }
        let paths = ["singleton-fix", "deadlock-break", "stale-predict"].map { Self.solutions.appendingPathComponent("\($0).race").path }
        let checked = RaceLab(environment: [:]).main(["grade", "--check-solution"] + paths)
        #expect(checked.exitCode == 0)
        #expect(racelab.main(["grade", "--check-solution"] + paths) == checked)
    }

    @Test func everyGradeCrossesThePipeUnchanged() throws {
        let grader = try #require(try? RaceLab(environment: [:]).locator.exercises().get()).exercises
        let setup = WorkerProtocol.Setup(exercises: grader.map(\.scenario.file), revealsAnswers: true)
        #expect(try WorkerProtocol.Setup(wire: WorkerProtocol.read(setup.wire.compact())) == setup)
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.submissions.path).filter { $0.hasSuffix(".race") }.sorted()
        #expect(files.count == 46)
        for (index, file) in files.enumerated() {
            let text = try String(contentsOfFile: Self.submissions.appendingPathComponent(file).path, encoding: .utf8)
            let job = WorkerProtocol.Job(file: .init(name: file, text: text), student: "s\u{0}\n\u{202E}", expected: index.isMultiple(of: 2) ? nil : "x")
            #expect(try WorkerProtocol.Job(wire: WorkerProtocol.read(job.wire.compact())) == job)
        }
        let output = RaceLab(environment: [:]).main(["grade", Self.submissions.path, "--format", "json", "--teacher"])
        guard case .array(let rows)? = try JSON.parse(output.stdout)["grades"] else { throw Failure("no grades") }
        #expect(rows.count == 46)
        for row in rows {
            // The report's JSON has the same fields as the wire: a grade from it, and back.
            let grade = try Grade(wire: row)
            #expect(try Grade(wire: WorkerProtocol.read(grade.wire.compact())) == grade)
            #expect(grade.wire == row)
        }
    }

    @Test func theLimitsAreCheckedAsUsage() {
        let racelab = RaceLab(environment: [:])
        for (option, value, range) in [("jobs", "0", "1 to 1024"), ("worker-memory", "12", "64 to 1073741824"), ("worker-time", "soon", "1 to 1073741824")] {
            let output = racelab.main(["grade", Self.submissions.path, "--\(option)", value])
            #expect(output.exitCode == 64)
            #expect(output.stderr.hasPrefix("error: --\(option) takes a whole number from \(range), not '\(value)'\n"))
        }
        #expect(racelab.main(["grade-worker", "--memory", "64"]).exitCode == 64)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
