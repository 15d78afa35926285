import RaceLabEngine
import RaceLabLanguage
import Testing

/// Inputs written to break the tool: each is a clear diagnostic or a clear runtime
/// finding, never a Swift trap.
struct HostileInputTests {
    /// The findings of a run, as text.
    func findings(_ source: String) throws -> [String] {
        try run(source).findings.map(\.message)
    }

    @Test(arguments: [
        ("var m = -9223372036854775807 - 1\nthread A { let n = -m }", "-(-9223372036854775808)"),
        ("var x = [9223372036854775807, 1]\nthread A { let n = sum(x) }", "sum of 9223372036854775807 and 1"),
        ("var x = 9223372036854775807\nthread A { x = x + 1 }", "9223372036854775807 + 1"),
        ("var x = -9223372036854775807\nthread A { x = x - 2 }", "-9223372036854775807 - 2"),
        ("var x = 4611686018427387904\nthread A { x = x * 2 }", "4611686018427387904 * 2"),
        ("var m = -9223372036854775807 - 1\nthread A { let n = m / -1 }", "-9223372036854775808 / -1"),
        ("var m = -9223372036854775807 - 1\nthread A { let n = m % -1 }", "-9223372036854775808 % -1"),
    ])
    func everyArithmeticOverflowIsTheSameFinding(source: String, expression: String) throws {
        let found = try findings(source)
        #expect(found == ["arithmetic overflow: \(expression) does not fit in an Int"], "\(found)")
    }

    @Test func aClosedRangeEndingAtIntMaxStopsAfterItsLastIteration() throws {
        let result = try run("var last = 0\nthread A { for i in 9223372036854775806...9223372036854775807 { last = i } }")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.end == .completed)
        #expect(lines(result).filter { $0.hasPrefix("A writes last") } == ["A writes last = 9223372036854775806", "A writes last = 9223372036854775807"])
        // An empty closed range and a half-open one still behave.
        #expect(lines(try run("var n = 0\nthread A { for i in 3...2 { n = i } }")).filter { $0.contains("writes n") }.isEmpty)
        #expect(lines(try run("var n = 0\nthread A { for i in 2..<4 { n = i } }")).filter { $0.contains("writes n") } == ["A writes n = 2", "A writes n = 3"])
    }

    @Test func aNameDeclaredTwiceAcrossKindsIsADiagnostic() {
        let error = #expect(throws: ScriptError.self) { try compile("var a = 1\nclass a { deinit { } }\nthread A { a = 2 }") }
        if let error {
            #expect(error.rendered.contains("test.race:2:7: error: 'a' is already declared as a"), "\(error.rendered)")
        }
    }
}
