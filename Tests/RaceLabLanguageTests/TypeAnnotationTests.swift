import RaceLabLanguage
import Testing

/// Type annotations as Swift writes them, generic ones with several parameters too
/// (`Task<Int, Never>`, `CheckedContinuation<Int, any Error>`): the parser keeps the
/// text, and only a set's type changes what a value is.
struct TypeAnnotationTests {
    static func types(_ text: String) throws -> [String] {
        try Parser.parse(SourceFile(name: "t.race", text: text)).declarations.compactMap { declaration in
            guard case .global(_, _, let type, _, _, _) = declaration.kind else { return nil }
            return type?.text
        }
    }

    @Test func genericTypesKeepTheirParameters() throws {
        let text = """
            var a: Task<Int, Never>? = nil
            var b: CheckedContinuation<Int, any Error>? = nil
            var c: [String: [Int]] = [:]
            var d: Set<Int> = []
            var e: Task<[Int?], Error> = nil
            """
        #expect(try Self.types(text) == ["Task<Int, Never>?", "CheckedContinuation<Int, Error>?", "[String: [Int]]", "Set<Int>", "Task<[Int?], Error>"])
    }

    @Test(arguments: [
        ("var a: Task<Int, > = nil", "t.race:1:18: error: expected a type name, found '>'"),
        ("var a: Task<Int, Never = nil", "t.race:1:24: error: expected '>' to close the type's parameters, found '='"),
    ])
    func aBrokenTypeSaysWhere(text: String, message: String) {
        do {
            _ = try Parser.parse(SourceFile(name: "t.race", text: text))
            Issue.record("expected an error")
        } catch {
            #expect(error.rendered.hasPrefix(message))
        }
    }

    /// A type nested past the parser's limit is refused, not a crash.
    @Test func aDeeplyNestedTypeIsRefused() {
        let text = "var a: " + String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000) + " = []"
        do {
            _ = try Parser.parse(SourceFile(name: "t.race", text: text))
            Issue.record("expected an error")
        } catch {
            #expect(error.rendered.contains("this nests more than"))
        }
    }
}
