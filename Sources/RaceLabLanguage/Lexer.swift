/// Turns script text into tokens. Newlines are tokens, because a statement ends at one.
///
/// Lexical errors (a stray character, an unterminated string) become diagnostics and
/// lexing goes on, so one run reports every error.
public struct Lexer {
    private let chars: [Character]
    private var index = 0
    private var line = 1
    private var column = 1
    public private(set) var diagnostics: [Diagnostic] = []

    public init(_ file: SourceFile) {
        chars = Array(file.text)
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
            if c == "\n" {
                advance()
                if tokens.last?.kind != .newline { tokens.append(Token(.newline, SourceRange(start, location))) }
            } else if c.isLetter || c == "_" {
                let word = takeWhile { $0.isLetter || $0.isNumber || $0 == "_" }
                let kind: Token.Kind = Keyword(rawValue: word).map { .keyword($0) } ?? .identifier(word)
                tokens.append(Token(kind, SourceRange(start, location)))
            } else if c.isNumber {
                let digits = takeWhile { $0.isNumber || $0 == "_" }.filter { $0 != "_" }
                if let n = Int(digits) {
                    tokens.append(Token(.int(n), SourceRange(start, location)))
                } else {
                    diagnostics.append(Diagnostic("integer literal '\(digits)' is too large", at: SourceRange(start, location)))
                    tokens.append(Token(.int(0), SourceRange(start, location)))
                }
            } else if c == "\"" {
                tokens.append(lexString(start))
            } else if c == "@" {
                advance()
                let word = takeWhile { $0.isLetter || $0.isNumber || $0 == "_" }
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
                diagnostics.append(Diagnostic("unexpected character '\(c)'", at: SourceRange(start, location)))
            }
        }
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    private mutating func advance() {
        if chars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, ch) in symbol.enumerated() where peek(offset) != ch { return false }
        return true
    }

    private mutating func takeWhile(_ predicate: (Character) -> Bool) -> String {
        var out = ""
        while let c = peek(), predicate(c) {
            out.append(c)
            advance()
        }
        return out
    }

    private mutating func skipSpaceAndComments() {
        while let c = peek() {
            if c == " " || c == "\t" || c == "\r" {
                advance()
            } else if c == "/" && peek(1) == "/" {
                while let d = peek(), d != "\n" { advance() }
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
        var value = ""
        while let c = peek(), c != "\"", c != "\n" {
            if c == "\\" {
                advance()
                value.append(escape(peek(), start))
                if peek() != nil && peek() != "\n" { advance() }
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
        return Token(.string(value), SourceRange(start, location))
    }

    /// `"""` text `"""`: the lines between the delimiters, with the closing line's
    /// indentation removed from each, as in Swift.
    private mutating func lexMultilineString(_ start: SourceLocation) -> Token {
        for _ in 0..<3 { advance() }
        _ = takeWhile { $0 == " " || $0 == "\t" }
        if peek() == "\n" { advance() }
        var raw = ""
        while peek() != nil && !matches("\"\"\"") {
            raw.append(peek()!)
            advance()
        }
        if peek() == nil {
            diagnostics.append(Diagnostic("unterminated multi-line string literal", at: SourceRange(start, location)))
        } else {
            for _ in 0..<3 { advance() }
        }
        var lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let indent = lines.last.map { $0.allSatisfy { $0 == " " || $0 == "\t" } ? $0.count : 0 } ?? 0
        if let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        let text = lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " || $0 == "\t" }.count))) }
        return Token(.string(text.joined(separator: "\n")), SourceRange(start, location))
    }

    private mutating func escape(_ c: Character?, _ start: SourceLocation) -> Character {
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "\"": return "\""
        case "\\": return "\\"
        default:
            diagnostics.append(Diagnostic("unknown escape sequence '\\\(c.map(String.init) ?? "")'", at: SourceRange(location, location)))
            return c ?? " "
        }
    }
}
