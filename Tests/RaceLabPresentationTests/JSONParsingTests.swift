import RaceLabPresentation
import Testing

/// `JSON.parse` reads back what `serialized()` and `compact()` write (the grade
/// workers' protocol stands on it), and refuses what `JSON` cannot hold.
struct JSONParsingTests {
    static let awkward = [
        "", "plain", "quote \" backslash \\ slash /", "lines\nand\r\nreturns\rand\ttabs", "nul \u{0} bell \u{7} escape \u{1B}[2J",
        "del \u{7F} c1 \u{85} bidi \u{202E}abc\u{2066}", "accents: é, ü, ñ; CJK: 競合", "astral: 🧵🔒 𝄞", "a\u{301}", "\u{FEFF}bom",
    ]

    @Test func everyValueReadsBackAsItWasWritten() throws {
        let value = JSON.object([
            ("strings", .array(Self.awkward.map(JSON.string))),
            ("numbers", .array([.int(0), .int(-1), .int(42), .int(Int.max), .int(Int.min)])),
            ("truths", .array([.bool(true), .bool(false), .null])),
            ("nested", .object([("empty array", .array([])), ("empty object", .object([])), ("deeper", .array([.array([.object([("k", .int(1))])])]))])),
            ("twice", .int(1)), ("twice", .int(2)),
        ])
        for text in [value.compact(), value.serialized()] {
            let read = try JSON.parse(text)
            #expect(read == value)
            #expect(read.compact() == value.compact())
        }
        for string in Self.awkward {
            // Byte for byte, not only equal as Swift strings (which compare canonically).
            #expect(Array(try #require(try JSON.parse(JSON.quote(string)).stringValue).utf8) == Array(string.utf8))
        }
        #expect(value["twice"] == .int(1), "the first of two keys")
        #expect(value["missing"] == nil)
    }

    @Test func escapesWrittenByOthersAreRead() throws {
        #expect(try JSON.parse(#""\u00e9\/\b\f\ud83e\uddf5""#) == .string("é/\u{8}\u{C}🧵"))
        #expect(try JSON.parse(" \n\t[ 1 , -2 ]\r\n") == .array([.int(1), .int(-2)]))
    }

    @Test func whatJSONCannotHoldIsRefused() {
        let refused: [(String, String)] = [
            ("", "the text ends where a value should be"), ("1.5", "only whole numbers are read"), ("1e3", "only whole numbers are read"),
            ("01", "a number cannot start with 0"), ("-", "a number needs a digit"), ("99999999999999999999", "the number is out of range"),
            ("\"\\ud800\"", "a lone surrogate"), ("\"\\udc00\"", "a lone surrogate"), ("\"\\x\"", "unknown escape"),
            ("\"a\nb\"", "a control character must be escaped"), ("\"open", "the string is not closed"), ("[1,", "the text ends where a value should be"),
            ("[1 2]", "expected ',' or ']'"), ("{\"a\" 1}", "expected ':'"), ("{1: 2}", "expected a key"), ("[] []", "text after the value"),
            ("tru", "unexpected character"), ("nul", "unexpected character"), ("+1", "unexpected character"),
            (String(repeating: "[", count: JSON.maxDepth + 1), "nested more than 64 levels deep"),
        ]
        for (text, message) in refused {
            #expect(throws: JSON.ParseError.self, "\(text)") { try JSON.parse(text) }
            do {
                _ = try JSON.parse(text)
            } catch {
                #expect(error.message == message, "\(text)")
            }
        }
        #expect(throws: Never.self) { try JSON.parse(String(repeating: "[", count: JSON.maxDepth) + String(repeating: "]", count: JSON.maxDepth)) }
    }
}
