/// Text that is safe to print to a terminal: control characters a script put in a
/// string (ESC, a lone CR, BEL, backspace…) are shown as `\u{1B}` instead of acting on
/// the terminal, so a student's file cannot erase or rewrite the lines of a teacher's
/// report. Line feeds, tabs and CRLF line ends (CSV's) pass through.
public enum TerminalText {
    /// `text` with every unsafe scalar written as `\u{…}`.
    ///
    ///     TerminalText.escaped("ok\u{1B}[2J")  // "ok\\u{1B}[2J"
    ///
    /// - Complexity: O(n) in the scalars of `text`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, c) in scalars.enumerated() {
            if c == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" {
                out.append(c)
            } else if isUnsafe(c) {
                out.append(contentsOf: ("\\u{" + String(c.value, radix: 16, uppercase: true) + "}").unicodeScalars)
            } else {
                out.append(c)
            }
        }
        return String(out)
    }

    /// C0 controls other than tab and line feed, DEL, the C1 controls, and the
    /// bidirectional overrides and isolates (which reorder what a reader sees).
    public static func isUnsafe(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
