import Foundation
import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

/// Every ```race example in docs/LANGUAGE.md compiles and runs as documented.
struct LanguageDocTests {
    /// The examples, each with whether it is marked to fail; those marked `forever`
    /// (threads that never stop) are in `foreverExamples`.
    static func examples() -> [(code: String, fails: Bool)] {
        allExamples().filter { !$0.forever }.map { ($0.code, $0.fails) }
    }

    static func foreverExamples() -> [String] {
        allExamples().filter(\.forever).map(\.code)
    }

    static func allExamples() -> [(code: String, fails: Bool, forever: Bool)] {
        let url = Shipped.scenariosFolder.deletingLastPathComponent().appendingPathComponent("docs/LANGUAGE.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var examples: [(String, Bool, Bool)] = []
        var current: [String]?
        var fails = false
        var forever = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```race") {
                current = []
                fails = line.contains("fails")
                forever = line.contains("forever")
            } else if line.hasPrefix("```"), let body = current {
                examples.append((body.joined(separator: "\n"), fails, forever))
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
        }
        return examples
    }

    /// Threads that never stop are proven by the stateful search, as the text says.
    @Test func everyForeverExampleIsProvenStatefully() throws {
        let examples = Self.foreverExamples()
        #expect(examples.count == 1)
        for code in examples {
            var config = ExploreConfig()
            config.search = .stateful
            let result = Explorer(program: try compile(code), config: config).explore()
            #expect(result.verdict() == .proven)
            #expect(result.states == 26 && result.outcomes.isEmpty)
        }
    }

    @Test func everyExampleRunsAsDocumented() throws {
        let examples = Self.examples()
        #expect(examples.count == 35)
        for (code, fails) in examples {
            for seed in UInt64(0)..<50 {
                let program = try compile(code)
                var scheduler = RandomScheduler(seed: seed)
                let result = try Runner(program: program).run(&scheduler)
                if !fails {
                    #expect(result.findings.isEmpty, "\(code.prefix(60)): \(result.findings.map(\.message))")
                }
            }
            if fails {
                #expect(try run(code).failed)
            }
            // Every fix in an example passes, unless it is marked as failing.
            let scenario = try Scenario.load(name: "example", file: SourceFile(name: "example.race", text: code))
            for fix in scenario.fixes where fix.expectedFailure == nil && fix.variant == nil {
                for seed in UInt64(0)..<50 {
                    var scheduler = RandomScheduler(seed: seed)
                    let result = try Runner(program: try #require(scenario.version(fix.name)).program).run(&scheduler)
                    #expect(result.findings.isEmpty, "fix \(fix.name): \(result.findings.map(\.message))")
                }
            }
        }
    }
}
