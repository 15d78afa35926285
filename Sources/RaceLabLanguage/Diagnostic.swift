/// One problem found in a script, located at a range of its source.
///
/// Rendered as `file:line:col: error: message`, then the source line and a caret
/// under the offending column, in the style of swiftc and clang.
public struct Diagnostic: Hashable, Sendable, Error {
    public var range: SourceRange
    public var message: String
    /// An optional extra line (`note: …`), such as a suggestion.
    public var note: String?

    public init(_ message: String, at range: SourceRange, note: String? = nil) {
        self.message = message
        self.range = range
        self.note = note
    }

    /// The diagnostic as the user sees it.
    ///
    ///     singleton.race:4:9: error: unknown name 'singelton'
    ///         if singelton == nil {
    ///            ^~~~~~~~~
    ///     note: did you mean 'singleton'?
    public func rendered(in file: SourceFile) -> String {
        let start = range.start
        var out = "\(file.name):\(start.line):\(start.column): error: \(message)\n"
        var text = Array(file.line(start.line).unicodeScalars)
        var column = start.column
        var width = range.end.line == start.line ? max(1, range.end.column - start.column) : 1
        // A long line is shown as a window around the column, so one line of a
        // generated file does not fill the screen.
        var prefix = "", suffix = ""
        if text.count > Self.maxLineWidth {
            let from = min(max(0, column - 1 - Self.maxLineWidth / 2), max(0, text.count - Self.maxLineWidth))
            if from > 0 { prefix = "…" }
            if from + Self.maxLineWidth < text.count { suffix = "…" }
            text = Array(text[from..<min(text.count, from + Self.maxLineWidth)])
            column = column - from + (prefix.isEmpty ? 0 : 1)
            width = min(width, max(1, text.count + (prefix.isEmpty ? 0 : 1) - column + 1))
        }
        // Control characters (an ESC, a CR) must not reach the terminal as they are.
        let shown = text.map { Self.printable($0) }
        out += prefix + shown.joined() + suffix + "\n"
        let indent =
            (prefix.isEmpty ? [] : [" "])
            + shown.prefix(max(0, column - 1 - (prefix.isEmpty ? 0 : 1))).map { $0 == "\t" ? "\t" : String(repeating: " ", count: $0.unicodeScalars.count) }
        out += indent.joined() + "^" + String(repeating: "~", count: width - 1) + "\n"
        if let note { out += "note: \(note)\n" }
        return out
    }
}

extension Diagnostic {
    /// Source lines longer than this (in unicode scalars) are shown as a window.
    static let maxLineWidth = 120

    /// A scalar as the source line shows it: itself, or `?` for a control character
    /// other than a tab (so a script cannot move the cursor or clear the screen).
    static func printable(_ c: Unicode.Scalar) -> String {
        c != "\t" && c.isUnsafeToPrint ? "?" : String(c)
    }
}

/// All the diagnostics of one script, in source order.
public struct ScriptError: Error, Sendable {
    public var file: SourceFile
    public var diagnostics: [Diagnostic]

    public init(file: SourceFile, diagnostics: [Diagnostic]) {
        self.file = file
        self.diagnostics = diagnostics.sorted { $0.range.start < $1.range.start }
    }

    /// Every diagnostic rendered, then a count.
    public var rendered: String {
        let body = diagnostics.map { $0.rendered(in: file) }.joined()
        let n = diagnostics.count
        return body + "\(n) error\(n == 1 ? "" : "s") in \(file.name)\n"
    }
}
