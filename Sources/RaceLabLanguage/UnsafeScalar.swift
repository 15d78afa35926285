extension Unicode.Scalar {
    /// Whether printing this scalar as it is could act on a terminal or change what a
    /// reader sees: the C0 controls (tab and line feed included), DEL, the C1 controls,
    /// the line and paragraph separators, and the bidirectional marks, embeddings,
    /// overrides and isolates. The one definition behind every place that shows a
    /// script's text: diagnostics, traces (`World.describe`) and command output
    /// (`TerminalText`), each escaping these its own way.
    public var isUnsafeToPrint: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
