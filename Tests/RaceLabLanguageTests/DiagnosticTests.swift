import RaceLabLanguage
import Testing

struct DiagnosticTests {
    @Test func everyErrorIsReportedInOneRun() {
        let file = SourceFile(name: "bad.race", text: "thread A {\n    let = 1\n}\nthred B { }\nvar x = \"open\n")
        do {
            _ = try Parser.parse(file)
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.count == 3)
            #expect(error.rendered.hasPrefix("bad.race:2:9: error: expected a variable name, found '='\n    let = 1\n        ^\n"))
            #expect(error.rendered.contains("note: did you mean 'thread'?"))
            #expect(error.rendered.contains("unterminated string literal"))
        }
    }

    @Test func suggestions() {
        #expect(Suggestion.closest(to: "singelton", in: ["singleton", "lock"]) == "singleton")
        #expect(Suggestion.closest(to: "zzz", in: ["singleton"]) == nil)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        // Two letters swapped are one slip: "hlep" is help, not step.
        #expect(Suggestion.distance("hlep", "help") == 1 && Suggestion.distance("hlep", "step") == 2)
        #expect(Suggestion.closest(to: "hlep", in: ["step", "help", "stop"]) == "help")
        #expect(Suggestion.distance("ab", "ba") == 1 && Suggestion.distance("abc", "ca") == 3)
    }

    @Test func lexerTokens() {
        var lexer = Lexer(SourceFile(name: "t", text: "a += 1 // c\n\"x\\n\" ..< @mainThreadOnly"))
        let kinds = lexer.tokenize().map(\.kind)
        #expect(kinds == [.identifier("a"), .symbol("+="), .int(1), .newline, .string("x\n"), .symbol("..<"), .attribute("mainThreadOnly"), .end])
    }

    @Test func aLongLineIsShownAsAWindowWithTheCaretUnderTheColumn() throws {
        let long = "var x = " + String(repeating: "1 + ", count: 100) + "@ + 1"
        let error = #expect(throws: ScriptError.self) { try Parser.parse(SourceFile(name: "l.race", text: long)) }
        let lines = try #require(error).rendered.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "l.race:1:409: error: expected an attribute name after '@'")
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("1 + @ + 1"))
        #expect(lines[1].count <= 122)
        let caret = try #require(Array(lines[2]).firstIndex(of: "^"))
        #expect(Array(lines[1])[caret] == "@", "the caret stands under the column")
    }

    @Test func controlCharactersInTheSourceLineAreNotSentToTheTerminal() throws {
        let text = "var s = \"\u{1B}[2J\u{07}\" @"
        let error = #expect(throws: ScriptError.self) { try Parser.parse(SourceFile(name: "e.race", text: text)) }
        let rendered = try #require(error).rendered
        #expect(!rendered.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        #expect(rendered.contains("var s = \"?[2J?\" @\n                ^\n"))
    }
}
