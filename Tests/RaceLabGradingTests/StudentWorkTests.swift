import Foundation
import RaceLabCLI
import Testing

/// The `swift test` way for students:
/// `RACELAB_SUBMISSIONS=path/to/my/files swift test --filter StudentWork` grades every
/// `.race` file there and fails with the grader's reason and trace for each one
/// that does not pass. Skipped when the variable is not set.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["RACELAB_SUBMISSIONS"] != nil,
        "set RACELAB_SUBMISSIONS to a file or folder of submissions"))
struct StudentWorkTests {
    @Test func everySubmissionPasses() {
        let target = ProcessInfo.processInfo.environment["RACELAB_SUBMISSIONS"] ?? ""
        let output = RaceLab(environment: [:]).main(["grade", target])
        let failures = output.stdout.components(separatedBy: "\n\n").filter { $0.hasPrefix("FAIL") || $0.hasPrefix("ERROR") }
        for failure in failures {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(output.exitCode == 0, Comment(rawValue: output.stdout + output.stderr))
    }
}
