import RaceLabLanguage

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

    /// The scalars `escaped` rewrites: `isUnsafeToPrint` ones other than tab and line feed.
    public static func isUnsafe(_ c: Unicode.Scalar) -> Bool {
        c != "\t" && c != "\n" && c.isUnsafeToPrint
    }
}
