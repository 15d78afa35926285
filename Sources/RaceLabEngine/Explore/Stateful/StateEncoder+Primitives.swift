/// The encoder's primitives: numbers, strings, values, closures and main-queue blocks
/// as bytes, each in a form that reads back one way only.
extension StateEncoder {
    /// A main-queue block by its number in the order met (see `StateEncoder.blocks`).
    mutating func put(block id: Int) {
        if let index = blocks.firstIndex(of: id) {
            put(index)
        } else {
            put(blocks.count)
            blocks.append(id)
        }
    }

    mutating func put(_ value: Value) {
        switch value {
        case .none: put(0)
        case .int(let n): put(1); put(signed: n)
        case .bool(let b): put(b ? 3 : 2)
        case .string(let s): put(4); put(s)
        case .object(let id): put(5); put(id)
        case .array(let items):
            put(7)
            put(items.count)
            for item in items { put(item) }
        case .closure(let closure): put(8); put(closure)
        case .weak(let id): put(9); put(id)
        case .set(let members):
            put(11)
            put(members.count)
            for member in members { put(member) }
        case .dictionary(let entries):
            put(10)
            put(entries.count)
            for entry in entries { put(entry) }
        }
    }

    mutating func put(_ closure: ClosureValue) {
        put(closure.code)
        put(closure.captures.count)
        for value in closure.captures { put(value) }
    }

    mutating func put(optional closure: ClosureValue?) {
        if let closure {
            put(1)
            put(closure)
        } else {
            put(0)
        }
    }

    mutating func put(_ s: String) {
        put(s.utf8.count)
        for byte in s.utf8 { bytes.append(byte) }
    }

    @inline(__always)
    mutating func put(optional n: Int?) {
        put(n.map { $0 + 1 } ?? 0)
    }

    mutating func put(signed n: Int64) {
        put(bits: UInt64(bitPattern: n << 1 ^ n >> 63))
    }

    /// A count, an index or an ID: never negative here, but written as its bits so
    /// that a negative one cannot trap.
    @inline(__always)
    mutating func put(_ n: Int) {
        put(bits: UInt64(bitPattern: Int64(n)))
    }

    @inline(__always)
    mutating func put(bits: UInt64) {
        if bits < 0x80 {
            bytes.append(UInt8(bits))
            return
        }
        var n = bits
        while n >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: n) | 0x80)
            n >>= 7
        }
        bytes.append(UInt8(n))
    }
}
