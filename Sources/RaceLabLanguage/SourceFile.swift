/// A scenario script's text, with its display name, split into lines for diagnostics.
public struct SourceFile: Hashable, Sendable {
    /// The name shown in diagnostics (a path as the user gave it, or a scenario name).
    public var name: String
    /// The whole text.
    public var text: String
    /// The text split at newlines, without the newline characters.
    public let lines: [String]

    public init(name: String, text: String) {
        self.name = name
        self.text = text
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
    }

    /// The text of a 1-based line, or "" past the end.
    public func line(_ number: Int) -> String {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }
}

/// A position in a source file: 1-based line and column (in characters).
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
