import Foundation
import RaceLabEngine
import RaceLabLanguage
import Testing

/// Every ```race example in docs/LANGUAGE.md compiles and runs as documented.
struct LanguageDocTests {
    static func examples() -> [(code: String, fails: Bool)] {
        let url = scenariosFolder.deletingLastPathComponent().appendingPathComponent("docs/LANGUAGE.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var examples: [(String, Bool)] = []
        var current: [String]?
        var fails = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```race") {
                current = []
                fails = line.contains("fails")
            } else if line.hasPrefix("```"), let body = current {
                examples.append((body.joined(separator: "\n"), fails))
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
        }
        return examples
    }

    @Test func everyExampleRunsAsDocumented() throws {
        let examples = Self.examples()
        #expect(examples.count == 9)
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
                    let result = try Runner(program: try scenario.program(fix: fix.name)).run(&scheduler)
                    #expect(result.findings.isEmpty, "fix \(fix.name): \(result.findings.map(\.message))")
                }
            }
        }
    }
}
