// Checks an autograder report against the fields its reader documents:
//   swift .ci/validate-autograder-json.swift gradescope results.json
//   swift .ci/validate-autograder-json.swift classroom result.json
// Exits 1 with the first problem found.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("invalid report: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let data = FileManager.default.contents(atPath: arguments[2]) else { fail("usage: validate gradescope|classroom FILE") }
guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { fail("not a JSON object") }
guard let tests = root["tests"] as? [[String: Any]], !tests.isEmpty else { fail("no tests array") }

func number(_ value: Any?) -> Double? { (value as? NSNumber).map(\.doubleValue) }

switch arguments[1] {
case "gradescope":
    // Gradescope's autograder specification: score, tests[].{name, score, max_score,
    // status, output, visibility}, visibility values.
    let visibilities: Set<String> = ["hidden", "after_due_date", "after_published", "visible"]
    guard let score = number(root["score"]) else { fail("score is not a number") }
    if let visibility = root["visibility"] as? String, !visibilities.contains(visibility) { fail("visibility '\(visibility)'") }
    var sum = 0.0
    for test in tests {
        guard test["name"] is String else { fail("a test without a name") }
        guard let points = number(test["score"]), let most = number(test["max_score"]), points >= 0, points <= most else { fail("score or max_score") }
        guard let status = test["status"] as? String, ["passed", "failed"].contains(status) else { fail("status") }
        guard test["output"] is String else { fail("output") }
        if let visibility = test["visibility"] as? String, !visibilities.contains(visibility) { fail("test visibility '\(visibility)'") }
        sum += points
    }
    guard sum == score else { fail("score \(score) is not the sum of the tests' scores \(sum)") }
case "classroom":
    // What autograding-grading-reporter reads: version 1, status, max_score, tests[].{name, status, score, message}.
    guard number(root["version"]) == 1 else { fail("version") }
    guard let status = root["status"] as? String, ["pass", "fail", "error"].contains(status) else { fail("status") }
    guard number(root["max_score"]) != nil else { fail("max_score") }
    for test in tests {
        guard test["name"] is String, test["message"] is String else { fail("name or message") }
        guard let status = test["status"] as? String, ["pass", "fail", "error"].contains(status) else { fail("test status") }
        guard let points = number(test["score"]), points >= 0 else { fail("test score") }
    }
default:
    fail("unknown report kind '\(arguments[1])'")
}
print("\(arguments[1]) report \(arguments[2]): valid, \(tests.count) tests")
