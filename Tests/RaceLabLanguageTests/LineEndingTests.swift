import Foundation
import RaceLabLanguage
import Testing

/// A file saved with "\r\n" or lone "\r" line ends lexes exactly like its "\n" twin:
/// the same tokens at the same line:col, the same diagnostics, the same lines.
struct LineEndingTests {
    static let script = """
        // A comment on the first line must end at its line end.
        var x = 0 /* a block
        comment */
        thread A { x = 1 }
        thread B {
            let s = "text"
            x = @
        }
        let m = \"\"\"
            two
            lines
            \"\"\"
        """

    static func twins(_ text: String) -> [String] {
        [text, text.replacingOccurrences(of: "\n", with: "\r\n"), text.replacingOccurrences(of: "\n", with: "\r")]
    }

    @Test func tokensAndLocationsAreTheSameForEveryLineEnd() {
        let results = Self.twins(Self.script).map { text -> ([Token], [Diagnostic]) in
            var lexer = Lexer(SourceFile(name: "t", text: text))
            let tokens = lexer.tokenize()
            return (tokens, lexer.diagnostics)
        }
        #expect(results[0].0.count > 20)
        #expect(results[0].0.contains { $0.kind == .string("two\nlines") })
        for other in results.dropFirst() {
            #expect(other.0 == results[0].0)
            #expect(other.1 == results[0].1)
        }
    }

    /// A byte-order mark at the start (as some Windows editors save) is not text: the
    /// file lexes, and places its tokens, as the file without it. One further in is a
    /// character like any other.
    @Test func aByteOrderMarkAtTheStartIsNotText() {
        for text in Self.twins(Self.script) {
            let marked = SourceFile(name: "t", text: "\u{FEFF}" + text)
            #expect(marked == SourceFile(name: "t", text: text))
            var lexer = Lexer(marked)
            var plain = Lexer(SourceFile(name: "t", text: text))
            #expect(lexer.tokenize() == plain.tokenize() && lexer.diagnostics == plain.diagnostics)
        }
        #expect(SourceFile(name: "t", text: "\u{FEFF}\u{FEFF}a").text == "\u{FEFF}a")
        var inside = Lexer(SourceFile(name: "t", text: "let a = 1\n\u{FEFF}"))
        _ = inside.tokenize()
        #expect(inside.diagnostics.count == 1)
    }

    @Test func sourceLinesSplitAtEveryKindOfLineEnd() {
        #expect(SourceFile(name: "t", text: "a\r\nb\rc\n\r\nd").lines == ["a", "b", "c", "", "d"])
        #expect(SourceFile(name: "t", text: "a\r\n").lines == ["a", ""])
        for text in Self.twins(Self.script) {
            #expect(SourceFile(name: "t", text: text).lines == SourceFile(name: "t", text: Self.script).lines)
        }
    }

    @Test func diagnosticsAreRenderedAtTheSameLineAndColumn() {
        let rendered = Self.twins(Self.script).map { text -> String in
            do throws(ScriptError) {
                _ = try Parser.parse(SourceFile(name: "t.race", text: text))
                return "parsed"
            } catch {
                return error.rendered
            }
        }
        #expect(rendered[0].hasPrefix("t.race:7:9: error: expected an attribute name after '@'\n    x = @\n        ^\n"))
        #expect(rendered[1] == rendered[0])
        #expect(rendered[2] == rendered[0])
    }

    @Test func controlCharactersInADiagnosticAreShownAsCodePoints() {
        var lexer = Lexer(SourceFile(name: "t", text: "var x = 1 \u{1B}[2J"))
        _ = lexer.tokenize()
        #expect(lexer.diagnostics.map(\.message) == ["unexpected character U+001B"])
    }
}
