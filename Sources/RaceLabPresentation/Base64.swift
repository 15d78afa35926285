/// Base64 (RFC 4648, with padding), for the bytes a page embeds: the playground's
/// WebAssembly module, which a page opened from disk cannot fetch.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                if position <= count {
                    out.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 63)])
                } else {
                    out.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
