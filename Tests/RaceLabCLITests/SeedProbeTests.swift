import Foundation
import RaceLabCLI
import Testing

/// The seed probes (issue 32, item 3): for each system the reference documents teach,
/// a small program that uses it the way they do, with what `racelab explore` must
/// print of it. The files are the tests; each begins
///
///     // seed: TN2109, Listing 10: cancel the adder in progress
///     // verdict: proven
///     // outcome: shown = 6
///
/// (`proven` or `fails`; one `outcome` line per row of the Outcomes table, in its
/// order, as the row reads without its mark, count, share and note).
struct SeedProbeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("seeds")

    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".race") }.map { String($0.dropLast(5)) }.sorted()

    /// The 21 systems, one probe each, waitUntilDone's two answers apart.
    @Test func everySystemHasItsProbe() {
        #expect(Self.names.count == 22, "\(Self.names)")
    }

    /// The rows of an Outcomes table: `  ok   46 100.0%  shown = 6  (note)` gives `shown = 6`.
    static func outcomeRows(_ report: String) -> [String] {
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Outcomes (") }) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.map { row in
            var words = row.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
            let text = words.count == 4 ? words.removeLast() : ""
            return text.components(separatedBy: "  (").first!.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test(arguments: names)
    func theProbeGivesItsVerdictAndOutcomes(name: String) throws {
        let path = Self.folder.appendingPathComponent("\(name).race").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let comments = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("// ") }
        func values(_ key: String) -> [String] {
            comments.filter { $0.hasPrefix("// \(key): ") }.map { String($0.dropFirst("// \(key): ".count)) }
        }
        #expect(values("seed").count == 1, "\(name) names its source once")
        let verdict = try #require(values("verdict").first, "\(name) has no verdict line")
        let report = RaceLab(environment: [:]).main(["explore", path])
        #expect(report.stdout.contains("Search: exhaustive\n"), "\(name)")
        #expect(report.exitCode == (verdict == "proven" ? 0 : 1), "\(name): \(report.stdout)")
        #expect(report.stdout.contains(verdict == "proven" ? "Verdict: proven" : "Verdict: FAILS"), "\(name)")
        #expect(Self.outcomeRows(report.stdout) == values("outcome"), "\(name)")
    }
}
