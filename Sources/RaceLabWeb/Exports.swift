/// The module's C functions, which the page calls through WebAssembly's exports: it
/// allocates a buffer, writes a request's UTF-8 into it, calls `racelab_respond`, and
/// reads the response's bytes at `racelab_response()`. One response is kept at a time;
/// the next call frees it. Nothing else crosses the boundary.

/// The last response's bytes (owned here until the next request).
nonisolated(unsafe) private var lastResponse = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

/// `size` bytes for the page to write a request into.
@_cdecl("racelab_alloc")
public func racelabAlloc(_ size: Int32) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer.allocate(byteCount: max(1, Int(size)), alignment: 1)
}

/// Frees a buffer from `racelab_alloc`.
@_cdecl("racelab_free")
public func racelabFree(_ pointer: UnsafeMutableRawPointer) {
    pointer.deallocate()
}

/// Answers the request of `length` bytes at `request` (`WebAPI`); returns the
/// response's length in bytes.
@_cdecl("racelab_respond")
public func racelabRespond(_ request: UnsafePointer<UInt8>, _ length: Int32) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: request, count: Int(length)), as: UTF8.self)
    let bytes = Array(WebAPI.respond(to: text).utf8)
    lastResponse.deallocate()
    lastResponse = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    _ = lastResponse.initialize(from: bytes)
    return Int32(bytes.count)
}

/// Where the last response's bytes are.
@_cdecl("racelab_response")
public func racelabResponse() -> UnsafeMutablePointer<UInt8>? {
    lastResponse.baseAddress
}
