import Foundation
import RaceLabPresentation
import Testing

/// The text helpers that stand in for Foundation's in the browser build: each must
/// give what Foundation gives, byte for byte, or a report would differ by platform.
@Suite struct TextLayoutTests {
    /// Ties in decimal that are not ties in binary (0.15 is stored just below it, 1.05
    /// just above), exact binary ties (0.25, 2.5), and the values the reports print.
    @Test(arguments: [
        0, 0.04, 0.05, 0.06, 0.15, 0.25, 0.35, 0.45, 1.05, 2.5, 2.25, 12.35, 33.35, 50, 66.65, 99.95, 99.94, 100, 1.25, 8.85, 1e6 + 0.05,
        -0.0, -0.04, -1.25,
    ])
    func tenthsRoundAsPrintfDoes(value: Double) {
        #expect(String(tenths: value) == String(format: "%.1f", value))
    }

    /// Every share a report can print: count ÷ total × 100 for totals up to 400.
    @Test func everyShareOfASmallTotalMatchesPrintf() {
        var mismatches: [String] = []
        for total in 1...400 {
            for count in 0...total {
                let percent = Double(count) * 100 / Double(total)
                if String(tenths: percent) != String(format: "%.1f", percent) { mismatches.append("\(count)/\(total)") }
            }
        }
        #expect(mismatches == [])
    }

    /// A fixed stream of doubles of every magnitude the megabyte figure meets.
    @Test func pseudoRandomValuesMatchPrintf() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var mismatches: [Double] = []
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(state >> 11) / Double(1 << 53) * pow(10, Double(state % 8))
            if String(tenths: value) != String(format: "%.1f", value) { mismatches.append(value) }
        }
        #expect(mismatches == [])
    }

    @Test func replacingAllIsALiteralReplacementLeftToRight() {
        for (text, target, replacement) in [
            ("a'b''c", "'", "'\\''"), ("</script></", "</", "<\\/"), ("aaa", "aa", "b"), ("", "x", "y"), ("x", "", "y"),
            ("naïve café", "é", "e"), ("line\nline\n", "\n", " "), ("\\\"", "\\", "\\\\"),
        ] {
            #expect(text.replacingAll(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
        }
    }

    @Test func includesFindsAPartAnywhere() {
        #expect("T1 spins on x".includes(" spins "))
        #expect(!"T1 spins".includes(" spins "))
        #expect("abc".includes(""))
        #expect("continuation".includes("continuation"))
        #expect(!"contin".includes("continuation"))
        #expect("café au lait".includes("é a"))
    }
}
