/// The choices a generator makes, read from the fuzzer's bytes: each choice takes the
/// next byte (two for more than 256 options), so every choice is the input's, and
/// libFuzzer's mutations and minimisation act on the program written. When the bytes
/// run out every choice is 0, which each menu keeps for its plainest option: a short
/// input writes a short program, and minimising an input simplifies its program.
struct FuzzChoices {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// Bytes left to read.
    var remaining: Int { bytes.count - position }

    /// A number in 0..<count (0 when `count` is at most 1, or the bytes are used up).
    /// - Complexity: O(1).
    mutating func below(_ count: Int) -> Int {
        guard count > 1, position < bytes.count else { return 0 }
        var value = Int(bytes[position])
        position += 1
        if count > 256, position < bytes.count {
            value = value << 8 | Int(bytes[position])
            position += 1
        }
        return value % count
    }

    /// True about `percent` times in a hundred (never once the bytes are used up).
    mutating func chance(_ percent: Int) -> Bool {
        below(100) >= 100 - percent
    }

    /// One of `options` (the first once the bytes are used up).
    mutating func pick<T>(_ options: [T]) -> T {
        options[below(options.count)]
    }

    /// A number in `range`.
    mutating func number(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }
}
