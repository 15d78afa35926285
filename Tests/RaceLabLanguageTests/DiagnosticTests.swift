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
    }

    @Test func lexerTokens() {
        var lexer = Lexer(SourceFile(name: "t", text: "a += 1 // c\n\"x\\n\" ..< @mainThreadOnly"))
        let kinds = lexer.tokenize().map(\.kind)
        #expect(kinds == [.identifier("a"), .symbol("+="), .int(1), .newline, .string("x\n"), .symbol("..<"), .attribute("mainThreadOnly"), .end])
    }
}
