/// A scenario script's text, with its display name, split into lines for diagnostics.
public struct SourceFile: Hashable, Sendable {
    /// The name shown in diagnostics (a path as the user gave it, or a scenario name).
    public var name: String
    /// The whole text.
    public var text: String
    /// The text split at line ends ("\n", "\r\n" or a lone "\r", as the lexer splits
    /// it), without the line-end characters.
    public let lines: [String]

    /// A byte-order mark at the start, as some Windows editors save, is not part of
    /// the text: a file with one reads as the same file without it.
    public init(name: String, text: String) {
        self.name = name
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
        self.text = text
        // Unicode scalars, not Characters: "\r\n" is one Character, equal to neither.
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var afterCR = false
        for c in text.unicodeScalars {
            if c == "\n" && afterCR {
                afterCR = false
                continue
            }
            afterCR = c == "\r"
            if c == "\n" || c == "\r" {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(c)
            }
        }
        lines.append(String(current))
        self.lines = lines
    }

    /// The text of a 1-based line, or "" past the end.
    public func line(_ number: Int) -> String {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }
}

/// A position in a source file: 1-based line and column (in unicode scalars).
public struct SourceLocation: Hashable, Comparable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A span of source text, from `start` up to (not including) `end`.
public struct SourceRange: Hashable, Sendable {
    public var start: SourceLocation
    public var end: SourceLocation

    public init(_ start: SourceLocation, _ end: SourceLocation) {
        self.start = start
        self.end = end
    }

    /// The smallest range covering both.
    public func joined(_ other: SourceRange) -> SourceRange {
        SourceRange(min(start, other.start), max(end, other.end))
    }
}
