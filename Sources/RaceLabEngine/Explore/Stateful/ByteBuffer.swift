/// A growable byte buffer the encoder writes into without an array's checks on
/// every byte (an encoding is hundreds of one-byte writes, once per step).
final class ByteBuffer {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity = 256
    private(set) var count = 0

    init() {
        start = .allocate(capacity: capacity)
    }

    deinit {
        start.deallocate()
    }

    func reset() {
        count = 0
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow() }
        start[count] = byte
        count += 1
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        bigger.update(from: start, count: count)
        start.deallocate()
        start = bigger
        capacity *= 2
    }

    /// The bytes written since the last reset.
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }
}
