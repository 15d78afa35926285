import Foundation
import RaceLabCLI
import Testing

/// Every report of a program that uses an ordering weaker than sequentially
/// consistent says, once, that outcomes are still explored as if sequentially
/// consistent; a report of one that does not says nothing of it (issue 29, item 9).
struct OrderingNoteTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/orderings.race").path
    static let sentence =
        "races follow the happens-before they make, but outcomes are explored as if sequentially consistent "
        + "(store buffering and other weak-memory results are not explored)."

    func lines(_ text: String, _ prefix: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test func exploreSaysItOnceForAVersionWithWeakerOrderings() throws {
        for search in ["auto", "dpor", "stateful"] {
            let relaxed = racelab.main(["explore", Self.fixture, "--search", search])
            // Its message races: the verdict fails, though every check holds.
            #expect(relaxed.exitCode == 1)
            #expect(lines(relaxed.stdout, "Orderings:") == ["Orderings: this program uses .relaxed atomics; " + Self.sentence])
            #expect(relaxed.stdout.contains("  message: sender writes it (line 12) and receiver reads it (line 18), with nothing ordering them\n"))
            let publish = racelab.main(["explore", Self.fixture, "--fix", "publish", "--search", search])
            #expect(lines(publish.stdout, "Orderings:") == ["Orderings: this program uses .acquiring and .releasing atomics; " + Self.sentence])
            #expect(publish.stdout.contains("Data races (0)"))
            let strong = racelab.main(["explore", Self.fixture, "--fix", "strong", "--search", search])
            #expect(lines(strong.stdout, "Orderings:").isEmpty)
            #expect(strong.stdout.contains("Data races (0)"))
        }
        let all = racelab.main(["explore", Self.fixture, "--all-fixes"])
        #expect(lines(all.stdout, "Orderings:").count == 2)
    }

    @Test func verifySaysItOnceNamingTheVersions() throws {
        let text = racelab.main(["verify", Self.fixture])
        #expect(
            lines(text.stdout, "Orderings:") == [
                "Orderings: the broken version and fix 'publish' use .relaxed, .acquiring and .releasing atomics; " + Self.sentence
            ])
        let json = racelab.main(["verify", Self.fixture, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["orderingNote"] as? String).map { "Orderings: \($0)." } == lines(text.stdout, "Orderings:").first)
        let versions = try #require(object["versions"] as? [[String: Any]])
        #expect(versions.map { $0["weakOrderings"] as? [String] ?? ["?"] } == [[".relaxed"], [".acquiring", ".releasing"], []])
        #expect(versions.map { $0["dataRaces"] as? Int ?? -1 } == [1, 0, 0])
    }

    @Test func exploreJSONCarriesTheNoteOrNull() throws {
        for (fix, note) in [("publish", true), ("strong", false)] {
            let json = racelab.main(["explore", Self.fixture, "--fix", fix, "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let exploration = try #require((object["explorations"] as? [[String: Any]])?.first)
            #expect(((exploration["orderingNote"] as? String)?.hasSuffix(String(Self.sentence.dropLast())) ?? false) == note)
            #expect(exploration["orderingNote"] is NSNull == !note)
        }
    }
}
