/// Small text layout helpers shared by the renderers and the step screen.
extension String {
    /// Padded with spaces to `width` characters, on the right (or, with `right`, on
    /// the left, for numbers); text already as wide is returned as it is.
    public func padded(_ width: Int, right: Bool = false) -> String {
        guard count < width else { return self }
        let fill = String(repeating: " ", count: width - count)
        return right ? fill + self : self + fill
    }

    /// Without the characters of `set` at either end.
    public func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }

    /// Each line broken between words to fit `width`, keeping its indentation; the
    /// lines a break makes are indented `hanging` more spaces. A word longer than the
    /// width gets a line of its own.
    public func wordWrapped(_ width: Int, hanging: Int = 2) -> [String] {
        split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            guard line.count > width else { return [String(line)] }
            let indent = String(line.prefix { $0 == " " })
            let continuation = indent + String(repeating: " ", count: hanging)
            var lines: [String] = []
            var current = indent
            // Runs of spaces inside the line (aligned columns) are kept: they split into empty words.
            for word in line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
                let fresh = current == indent || current == continuation
                if !fresh && !word.isEmpty && current.count + 1 + word.count > width {
                    lines.append(current)
                    current = continuation + word
                } else {
                    current += (fresh ? "" : " ") + word
                }
            }
            lines.append(current)
            return lines
        }
    }
}
