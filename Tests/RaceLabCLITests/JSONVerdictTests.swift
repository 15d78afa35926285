import Foundation
import RaceLabCLI
import Testing

/// JSON says the verdict the text says: a version whose only failure is a data race
/// fails in both (`Exploration.verdict` decides it once).
struct JSONVerdictTests {
    let racelab = RaceLab(environment: [:])
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/races-only.race").path

    @Test func aDataRaceAloneFailsInJSONAsInText() throws {
        let text = racelab.main(["explore", Self.fixture])
        #expect(text.exitCode == 1)
        #expect(text.stdout.contains("Verdict: FAILS: every interleaving passes its checks, but one pair of accesses races"))
        let json = racelab.main(["explore", Self.fixture, "--format", "json"])
        #expect(json.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let exploration = try #require((object["explorations"] as? [[String: Any]])?.first)
        #expect(exploration["verdict"] as? String == "fails")
        #expect((exploration["dataRaces"] as? [Any])?.count == 1)
    }
}
