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
        let text = file.line(start.line)
        out += text + "\n"
        let width = range.end.line == start.line ? max(1, range.end.column - start.column) : 1
        let indent = String(String.UnicodeScalarView(text.unicodeScalars.prefix(max(0, start.column - 1)).map { $0 == "\t" ? "\t" : " " }))
        out += indent + "^" + String(repeating: "~", count: width - 1) + "\n"
        if let note { out += "note: \(note)\n" }
        return out
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
