/// Turns script text into tokens. Newlines are tokens, because a statement ends at one.
///
/// Lexical errors (a stray character, an unterminated string) become diagnostics and
/// lexing goes on, so one run reports every error.
///
/// The lexer reads unicode scalars, never `Character`s: Swift takes "\r\n" for one
/// `Character`, which matches neither "\r" nor "\n". A line ends at "\n", "\r\n" or a
/// lone "\r", so a file saved on Windows (or old Mac OS) lexes exactly like its LF
/// twin, token for token and column for column. Columns count unicode scalars.
public struct Lexer {
    private let chars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    public private(set) var diagnostics: [Diagnostic] = []

    public init(_ file: SourceFile) {
        chars = Array(file.text.unicodeScalars)
    }

    private static let symbols = [
        "...", "..<", "===", "!==", "->", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "??",
        "+", "-", "*", "/", "%", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ":", ".", "?", ";",
    ]

    /// Every token of the file, ending with `.end`.
    public mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        while true {
            skipSpaceAndComments()
            let start = location
            guard let c = peek() else {
                tokens.append(Token(.end, SourceRange(start, start)))
                return tokens
            }
            if c == "\n" || c == "\r" {
                advance()
                if tokens.last?.kind != .newline { tokens.append(Token(.newline, SourceRange(start, location))) }
            } else if Self.isLetter(c) {
                let word = takeWhile { Self.isLetter($0) || Self.isDigit($0) }
                let kind: Token.Kind = Keyword(rawValue: word).map { .keyword($0) } ?? .identifier(word)
                tokens.append(Token(kind, SourceRange(start, location)))
            } else if Self.isDigit(c) {
                let digits = takeWhile { Self.isDigit($0) || $0 == "_" }.filter { $0 != "_" }
                if let n = Int64(digits) {
                    tokens.append(Token(.int(n), SourceRange(start, location)))
                } else {
                    diagnostics.append(Diagnostic("integer literal '\(digits)' is too large", at: SourceRange(start, location)))
                    tokens.append(Token(.int(0), SourceRange(start, location)))
                }
            } else if c == "\"" {
                tokens.append(lexString(start))
            } else if c == "@" {
                advance()
                let word = takeWhile { Self.isLetter($0) || Self.isDigit($0) }
                if word.isEmpty {
                    diagnostics.append(Diagnostic("expected an attribute name after '@'", at: SourceRange(start, location)))
                } else {
                    tokens.append(Token(.attribute(word), SourceRange(start, location)))
                }
            } else if let symbol = Lexer.symbols.first(where: matches) {
                for _ in symbol { advance() }
                tokens.append(Token(.symbol(symbol), SourceRange(start, location)))
            } else {
                advance()
                diagnostics.append(Diagnostic("unexpected character \(Self.quoted(c))", at: SourceRange(start, location)))
            }
        }
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    /// Moves past one scalar; "\r\n" moves past both, as one line end.
    private mutating func advance() {
        let c = chars[index]
        index += 1
        if c == "\r" && peek() == "\n" { index += 1 }
        if c == "\n" || c == "\r" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    /// True at the end of a line: "\n", or "\r" alone or before "\n".
    private func atLineEnd() -> Bool {
        peek() == "\n" || peek() == "\r"
    }

    /// Identifier characters: letters (ASCII or not) and `_`; digits only after the first.
    private static func isLetter(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    /// Only the ASCII digits make numbers (`Int` parses no others).
    private static func isDigit(_ c: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(c)
    }

    /// A character for a diagnostic: `'#'`, or its code point when it would not print
    /// (a control character must not reach the terminal as it is).
    static func quoted(_ c: Unicode.Scalar) -> String {
        c.isUnsafeToPrint ? codePoint(c) : "'\(c)'"
    }

    /// `U+001B`.
    static func codePoint(_ c: Unicode.Scalar) -> String {
        let hex = String(c.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, ch) in symbol.unicodeScalars.enumerated() where peek(offset) != ch { return false }
        return true
    }

    private mutating func takeWhile(_ predicate: (Unicode.Scalar) -> Bool) -> String {
        var out = String.UnicodeScalarView()
        while let c = peek(), predicate(c) {
            out.append(c)
            advance()
        }
        return String(out)
    }

    private mutating func skipSpaceAndComments() {
        while let c = peek() {
            if c == " " || c == "\t" {
                advance()
            } else if c == "/" && peek(1) == "/" {
                while peek() != nil && !atLineEnd() { advance() }
            } else if c == "/" && peek(1) == "*" {
                let start = location
                advance(); advance()
                while peek() != nil && !(peek() == "*" && peek(1) == "/") { advance() }
                if peek() == nil {
                    diagnostics.append(Diagnostic("unterminated comment", at: SourceRange(start, location)))
                } else {
                    advance(); advance()
                }
            } else {
                return
            }
        }
    }

    private mutating func lexString(_ start: SourceLocation) -> Token {
        if matches("\"\"\"") { return lexMultilineString(start) }
        advance()
        var value = String.UnicodeScalarView()
        while let c = peek(), c != "\"", !atLineEnd() {
            if c == "\\" {
                advance()
                value.append(escape(atLineEnd() ? nil : peek(), start))
                if peek() != nil && !atLineEnd() { advance() }
            } else {
                value.append(c)
                advance()
            }
        }
        if peek() == "\"" {
            advance()
        } else {
            diagnostics.append(Diagnostic("unterminated string literal", at: SourceRange(start, location)))
        }
        return Token(.string(String(value)), SourceRange(start, location))
    }

    /// `"""` text `"""`: the lines between the delimiters, with the closing line's
    /// indentation removed from each, as in Swift.
    private mutating func lexMultilineString(_ start: SourceLocation) -> Token {
        for _ in 0..<3 { advance() }
        _ = takeWhile { $0 == " " || $0 == "\t" }
        if atLineEnd() { advance() }
        var raw = String.UnicodeScalarView()
        while let c = peek(), !matches("\"\"\"") {
            // Every line end becomes "\n", so the string's value does not depend on the file's.
            raw.append(c == "\r" ? "\n" : c)
            advance()
        }
        if peek() == nil {
            diagnostics.append(Diagnostic("unterminated multi-line string literal", at: SourceRange(start, location)))
        } else {
            for _ in 0..<3 { advance() }
        }
        var lines = String(raw).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let indent = lines.last.map { $0.allSatisfy { $0 == " " || $0 == "\t" } ? $0.count : 0 } ?? 0
        if let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        let text = lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " || $0 == "\t" }.count))) }
        return Token(.string(text.joined(separator: "\n")), SourceRange(start, location))
    }

    private mutating func escape(_ c: Unicode.Scalar?, _ start: SourceLocation) -> Unicode.Scalar {
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "\"": return "\""
        case "\\": return "\\"
        default:
            let shown = c.map { Self.quoted($0) == "'\($0)'" ? "'\\\($0)'" : "'\\' followed by \(Self.quoted($0))" } ?? "'\\' at the end of the line"
            diagnostics.append(Diagnostic("unknown escape sequence \(shown)", at: SourceRange(location, location)))
            return c ?? " "
        }
    }
}
