extension JSON {
    /// Why a text is not a `JSON` value, with the byte offset where it stops being one.
    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        /// 0-based, in UTF-8 bytes.
        public var offset: Int
    }

    /// How deep arrays and objects may nest: the parser recurses once per level.
    public static let maxDepth = 64

    /// Reads a JSON text (RFC 8259) that `serialized()` or `compact()` could have
    /// written: whole numbers only (`JSON` has no other kind), keys kept in order.
    /// `JSON.parse(value.compact()) == value` for every value.
    ///
    ///     try JSON.parse(#"{"points":10,"reason":"a\nb"}"#)
    ///     // .object([("points", .int(10)), ("reason", .string("a\nb"))])
    ///
    /// - Parameter text: the whole text; white space may surround the value.
    /// - Returns: the value.
    /// - Throws: `ParseError` for anything else: a fraction, a number out of `Int`'s
    ///   range, a lone surrogate, nesting deeper than `maxDepth`, text after the value.
    /// - Complexity: O(n) in the text's length.
    public static func parse(_ text: String) throws(ParseError) -> JSON {
        var reader = Reader(bytes: Array(text.utf8))
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.at == reader.bytes.count else { throw reader.error("text after the value") }
        return value
    }

    /// The value of `key` in an object (the first one), or nil.
    public subscript(key: String) -> JSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The string this is, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The whole number this is, or nil.
    public var intValue: Int? {
        if case .int(let number) = self { return number }
        if case .int64(let number) = self { return Int(exactly: number) }
        return nil
    }

    /// The truth value this is, or nil.
    public var boolValue: Bool? {
        if case .bool(let truth) = self { return truth }
        return nil
    }

    /// The items of the array this is, or nil.
    public var arrayValue: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The members of the object this is, in their order, or nil.
    public var objectValue: [(String, JSON)]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

/// A cursor over UTF-8 bytes; each method reads one construct and leaves `at` after it.
private struct Reader {
    let bytes: [UInt8]
    var at = 0

    func error(_ message: String) -> JSON.ParseError {
        JSON.ParseError(message: message, offset: at)
    }

    mutating func skipWhitespace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func value(depth: Int) throws(JSON.ParseError) -> JSON {
        skipWhitespace()
        guard at < bytes.count else { throw error("the text ends where a value should be") }
        switch bytes[at] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSON.maxDepth else { throw error("nested more than \(JSON.maxDepth) levels deep") }
            return bytes[at] == UInt8(ascii: "{") ? try object(depth: depth + 1) : try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try number())
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: String, _ value: JSON) throws(JSON.ParseError) -> JSON {
        let expected = Array(word.utf8)
        guard bytes.count - at >= expected.count, Array(bytes[at..<at + expected.count]) == expected else {
            throw error("unexpected character")
        }
        at += expected.count
        return value
    }

    mutating func number() throws(JSON.ParseError) -> Int {
        let start = at
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        let digits = at
        while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
        guard at > digits else { throw error("a number needs a digit") }
        guard bytes[digits] != UInt8(ascii: "0") || at == digits + 1 else { throw error("a number cannot start with 0") }
        if at < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at]) {
            throw error("only whole numbers are read")
        }
        guard let number = Int(String(decoding: bytes[start..<at], as: UTF8.self)) else {
            at = start
            throw error("the number is out of range")
        }
        return number
    }

    mutating func string() throws(JSON.ParseError) -> String {
        at += 1 // the opening quote
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw error("the string is not closed") }
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw error("the string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw error("the string is not closed") }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out += Array(String(try escapedScalar()).utf8)
                default: throw error("unknown escape")
                }
            case 0x00..<0x20: throw error("a control character must be escaped")
            default: out.append(byte)
            }
        }
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair.
    mutating func escapedScalar() throws(JSON.ParseError) -> Unicode.Scalar {
        let high = try hex4()
        var value = high
        if (0xD800..<0xDC00).contains(high) {
            guard bytes.count - at >= 2, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw error("a lone surrogate")
            }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate") }
            value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("a lone surrogate") }
        return scalar
    }

    mutating func hex4() throws(JSON.ParseError) -> UInt32 {
        guard bytes.count - at >= 4, let value = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16) else {
            throw error("\\u needs four hex digits")
        }
        at += 4
        return value
    }

    mutating func array(depth: Int) throws(JSON.ParseError) -> JSON {
        at += 1
        var items: [JSON] = []
        skipWhitespace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            guard at < bytes.count else { throw error("the array is not closed") }
            at += 1
            if bytes[at - 1] == UInt8(ascii: "]") { return .array(items) }
            guard bytes[at - 1] == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
        }
    }

    mutating func object(depth: Int) throws(JSON.ParseError) -> JSON {
        at += 1
        var pairs: [(String, JSON)] = []
        skipWhitespace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return .object(pairs)
        }
        while true {
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected ':'") }
            at += 1
            pairs.append((key, try value(depth: depth)))
            skipWhitespace()
            guard at < bytes.count else { throw error("the object is not closed") }
            at += 1
            if bytes[at - 1] == UInt8(ascii: "}") { return .object(pairs) }
            guard bytes[at - 1] == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
        }
    }
}
