/// Comma-separated values as RFC 4180 writes them: a field with a comma, a quote or
/// a line break is quoted, and quotes inside are doubled; lines end with CRLF. A field
/// a spreadsheet would take for a formula is defused as OWASP's CSV-injection advice
/// says: a student's folder named `=HYPERLINK(…)` is shown, never run.
public enum CSV {
    /// One field: control characters escaped (`TerminalText`), a formula's first
    /// character (`=`, `+`, `-`, `@`, tab or carriage return) preceded by `'`, quoted
    /// when needed.
    public static func field(_ text: String) -> String {
        let formula = text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false
        let text = (formula ? "'" : "") + TerminalText.escaped(text)
        guard formula || text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }

    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
