import Foundation

/// The terminal in raw mode, for step mode: keys arrive one at a time, unechoed, and
/// the screen is redrawn on the alternate screen. Whatever happens (q, end of input,
/// Ctrl-C, a signal) the terminal is put back as it was.
public final class Terminal: @unchecked Sendable {
    let input: Int32
    let output: Int32
    private var saved = termios()
    private var active = false

    /// A terminal on standard input and output, or nil when either is not one.
    public static func standard() -> Terminal? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        return Terminal(input: STDIN_FILENO, output: STDOUT_FILENO)
    }

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Columns, from the terminal itself (80 when it does not say).
    var width: Int {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Raw keys, no echo, no signals from Ctrl-C (it arrives as a key), the alternate
    /// screen, the cursor hidden. Output processing stays on, so "\n" still returns.
    func enter() {
        guard !active, tcgetattr(input, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSAFLUSH, &raw)
        active = true
        Terminal.restoreOnSignal = (input, saved)
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            signal(signalNumber) { number in
                Terminal.restoreAfterSignal()
                _exit(128 + number)
            }
        }
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// Puts everything back: the normal screen, the cursor, the saved mode.
    func leave() {
        guard active else { return }
        write("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSAFLUSH, &saved)
        active = false
        Terminal.restoreOnSignal = nil
    }

    /// The next key, or nil at end of input.
    func readKey() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(input, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Drops the rest of an escape sequence (arrow keys and the like) already waiting.
    func discardPending() {
        var flags = fcntl(input, F_GETFL)
        _ = fcntl(input, F_SETFL, flags | O_NONBLOCK)
        var byte: UInt8 = 0
        while read(input, &byte, 1) == 1 {}
        flags &= ~O_NONBLOCK
        _ = fcntl(input, F_SETFL, flags)
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Clears the screen and draws `text` from the top left.
    func draw(_ text: String) {
        write("\u{1B}[H\u{1B}[2J" + text)
    }

    // A signal handler cannot capture context: the mode to restore lives here.
    nonisolated(unsafe) private static var restoreOnSignal: (Int32, termios)?

    private static func restoreAfterSignal() {
        guard let (descriptor, saved) = restoreOnSignal else { return }
        let reset = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
        _ = reset.withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        var mode = saved
        tcsetattr(descriptor, TCSAFLUSH, &mode)
    }
}
