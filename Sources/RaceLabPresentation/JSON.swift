/// A small JSON value with ordered object keys, so output is byte-for-byte stable.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number that may pass 32 bits on any platform (an interleaving count).
    case int64(Int64)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool { a.serialized() == b.serialized() }

    /// Pretty-printed with two-space indentation, keys in the order given.
    public func serialized(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent)
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .int64(let n): return String(n)
        case .string(let s): return JSON.quote(s)
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.serialized(indent: indent + 1) }.joined(separator: ",\n") + "\n\(close)]"
        case .object(let pairs):
            if pairs.isEmpty { return "{}" }
            return "{\n" + pairs.map { pad + JSON.quote($0.0) + ": " + $0.1.serialized(indent: indent + 1) }.joined(separator: ",\n") + "\n\(close)}"
        }
    }

    /// On one line, with no spaces: for data a page embeds.
    public func compact() -> String {
        switch self {
        case .null, .bool, .int, .int64, .string: return serialized()
        case .array(let items): return "[" + items.map { $0.compact() }.joined(separator: ",") + "]"
        case .object(let pairs): return "{" + pairs.map { JSON.quote($0.0) + ":" + $0.1.compact() }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal (RFC 8259 escaping).
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // RFC 8259 requires the C0 controls; DEL, C1 and the bidirectional
            // controls are escaped too, so the JSON is safe to print.
            case _ where scalar.value < 0x20 || TerminalText.isUnsafe(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
