/// Small text layout helpers shared by the renderers and the step screen.
extension String {
    /// Padded with spaces to `width` characters, on the right (or, with `right`, on
    /// the left, for numbers); text already as wide is returned as it is.
    public func padded(_ width: Int, right: Bool = false) -> String {
        guard count < width else { return self }
        let fill = String(repeating: " ", count: width - count)
        return right ? fill + self : self + fill
    }

    /// `value` with one digit after the point, rounded as C's `printf("%.1f")` rounds:
    /// the exact binary value to the nearest tenth, a tie to the even digit. (Foundation's
    /// `String(format:)` is not in the browser build.)
    /// - Precondition: `value` is finite and below 10¹⁷ in magnitude.
    public init(tenths value: Double) {
        let scaled = value * 10
        // What the rounding of the product lost, exactly (a fused multiply-add).
        let lost = (-scaled).addingProduct(value, 10)
        var rounded = scaled.rounded(.toNearestOrEven)
        if lost != 0 && (scaled - scaled.rounded(.towardZero)).magnitude == 0.5 {
            // The product rounded onto a tie that the exact value is not on.
            rounded = lost > 0 ? scaled.rounded(.up) : scaled.rounded(.down)
        }
        let whole = Int64(rounded).magnitude
        self = (value.sign == .minus ? "-" : "") + "\(whole / 10).\(whole % 10)"
    }

    /// Every occurrence of `target` (not empty) replaced by `replacement`, left to right,
    /// as Foundation's `replacingOccurrences(of:with:)` does with a literal search.
    public func replacingAll(_ target: String, with replacement: String) -> String {
        let text = Array(utf8), pattern = Array(target.utf8)
        guard !pattern.isEmpty, text.count >= pattern.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if index + pattern.count <= text.count && text[index..<index + pattern.count].elementsEqual(pattern) {
                out += replacement.utf8
                index += pattern.count
            } else {
                out.append(text[index])
                index += 1
            }
        }
        // Whole scalars are replaced by whole scalars: the bytes stay valid UTF-8.
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `part` occurs in the text, scalar by scalar (an empty `part` does).
    public func includes(_ part: String) -> Bool {
        let text = Array(utf8), pattern = Array(part.utf8)
        guard text.count >= pattern.count else { return false }
        return (0...(text.count - pattern.count)).contains { text[$0..<$0 + pattern.count].elementsEqual(pattern) }
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
