import Foundation
import RaceLabCLI
import Testing

/// A class folder with one file of each hostile kind, beside honest ones: every file
/// gets its own row with a clear reason, the reports are written in full, and the
/// honest files are graded as they deserve.
struct HostileClassTests {
    static let solutions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Solutions")

    static func solution(_ id: String) throws -> String {
        try String(contentsOf: solutions.appendingPathComponent("\(id).race"), encoding: .utf8)
    }

    /// (student, exercise, text, expected status, expected reason prefix)
    static func submissions() throws -> [(String, String, String, String, String)] {
        let singleton = try solution("singleton-fix")
        let breakIt = try solution("deadlock-break")
        let body = GraderTests.lockedTest
        let deep = "    let n = " + String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300) + "\n"
        return [
            ("honest", "singleton-fix", singleton, "passed", "every one of "),
            (
                "overflow", "singleton-fix", singleton.replacingOccurrences(of: body, with: body + "    var n = 9223372036854775807\n    n = n + 1\n"),
                "failed", "fails in "
            ),
            (
                "trap", "singleton-fix",
                singleton.replacingOccurrences(of: "let poolLock = Lock()\n", with: "let poolLock = Lock()\nvar a = 1\nclass a { deinit { } }\n"),
                "invalid", "the file does not compile: line 32: 'a' is already declared as a"
            ),
            (
                "nesting", "singleton-fix", singleton.replacingOccurrences(of: body, with: body + deep),
                "invalid", "the file does not compile: line 42: this nests more than 256 levels deep"
            ),
            (
                "bomb", "deadlock-break",
                breakIt.replacingOccurrences(
                    of: "schedule answer \"pay pay pay pay pay refund refund refund refund pay\"",
                    with: "schedule answer \"" + Array(repeating: "pay*100000", count: 2_000).joined(separator: " ") + "\""),
                "failed", "the schedule cannot be followed: the schedule has more than 2000 steps"
            ),
            (
                "doubling", "singleton-fix", singleton.replacingOccurrences(of: body, with: body + "    var s = \"ab\"\n    while true { s = s + s }\n"),
                "failed", "fails in "
            ),
            ("crlf", "singleton-fix", singleton.replacingOccurrences(of: "\n", with: "\r\n"), "passed", "every one of "),
            (
                "escapes", "singleton-fix", singleton.replacingOccurrences(of: body, with: body + "    print(\"\u{1B}[2J\u{1B}[H\u{7}all passed\")\n"),
                "passed", "every one of "
            ),
            ("honest", "deadlock-break", breakIt, "passed", "your schedule breaks it"),
        ]
    }

    @Test func everyHostileFileGetsItsOwnRowAndTheOthersAreGradedRight() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = try Self.submissions()
        for (student, exercise, text, _, _) in cases {
            let dir = folder.appendingPathComponent(student)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try text.write(to: dir.appendingPathComponent("\(exercise).race"), atomically: true, encoding: .utf8)
        }
        let csvPath = folder.appendingPathComponent("grades.csv").path
        let junitPath = folder.appendingPathComponent("grades.xml").path
        let output = RaceLab(environment: [:]).main(["grade", folder.path, "--csv", csvPath, "--junit", junitPath, "--format", "json"])
        #expect(output.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let grades = try #require(object["grades"] as? [[String: Any]])
        #expect(grades.count == cases.count)
        for (student, exercise, _, status, reason) in cases {
            let grade = grades.first { $0["student"] as? String == student && $0["exercise"] as? String == exercise }
            #expect(grade?["status"] as? String == status, "\(student)/\(exercise): \(grade?["reason"] ?? "no row")")
            #expect((grade?["reason"] as? String)?.hasPrefix(reason) == true, "\(student)/\(exercise): \(grade?["reason"] ?? "no row")")
        }
        let overflow = grades.first { $0["student"] as? String == "overflow" }?["reason"] as? String
        #expect(overflow?.contains("arithmetic overflow: 9223372036854775807 + 1 does not fit in an Int") == true, "\(overflow ?? "")")
        let doubling = grades.first { $0["student"] as? String == "doubling" }?["reason"] as? String
        #expect(doubling?.contains("memory budget") == true, "\(doubling ?? "")")
        // The written reports hold every row, and no raw control character.
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8)
        #expect(csv.components(separatedBy: "\r\n").count == cases.count + 2)
        let junit = try String(contentsOfFile: junitPath, encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count == cases.count + 1)
        for text in [csv, junit, output.stdout] {
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
        }
    }
}
