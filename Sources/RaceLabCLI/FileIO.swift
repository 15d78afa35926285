import Foundation
import RaceLabCommands

/// Reading scripts and writing reports with a precise reason, and the sysexits code,
/// for each way it can fail: a missing file, a directory, a symbolic-link loop, no
/// permission, a file that is not text, a full disk.
enum FileIO {
    /// Scripts are small; a larger file is not one (and `/dev/zero` must not hang us).
    static let maxScriptSize = 4 << 20

    typealias Failure = FileFailure

    /// The text of a file.
    static func read(_ path: String) -> Result<String, Failure> {
        var bytes: [UInt8]
        switch Self.bytes(path, limit: maxScriptSize) {
        case .success(let read): bytes = read
        case .failure(let failure): return .failure(failure)
        }
        // A byte-order mark, as some Windows editors save, is no part of a script or a
        // roster (a roster's first name would carry it, invisible).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Failure(message: "\(path) is not UTF-8 text", status: .scriptError))
        }
        return .success(text)
    }

    /// The bytes of a file, up to `limit` of them (a larger file is a script error:
    /// not a script); a WebAssembly module may be as large as 64 MiB.
    static func bytes(_ path: String, limit: Int = 64 << 20) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(openFailure(path, errno)) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(Failure(message: "\(path) is a directory, not a scenario file", status: .noInput))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(message: "cannot read \(path): \(reason(errno))", status: .noInput))
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            if bytes.count > limit {
                return .failure(Failure(message: "\(path) is larger than \(limit >> 20) MiB: not a scenario script", status: .scriptError))
            }
        }
        return .success(bytes)
    }

    /// Writes `text` to a new file at `path`; an existing file is left alone (73).
    static func create(_ text: String, at path: String) -> Failure? {
        write(text, to: path, flags: O_EXCL)
    }

    /// Writes `text` to a file, replacing it.
    static func write(_ text: String, to path: String) -> Failure? {
        write(text, to: path, flags: O_TRUNC)
    }

    private static func write(_ text: String, to path: String, flags: Int32) -> Failure? {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0o644)
        guard fd >= 0 else {
            let why = errno == EEXIST ? "it already exists, and is left as it is" : reason(errno)
            return Failure(message: "cannot create \(path): \(why)", status: .cannotCreate)
        }
        let written = write(text, to: fd)
        let closed = close(fd) == 0 ? 0 : errno
        if let failed = written ?? (closed == 0 ? nil : closed) {
            return Failure(message: "cannot write \(path): \(reason(failed))", status: .ioError)
        }
        return nil
    }

    static func write(_ text: String, to fd: Int32) -> Int32? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            bytes = bytes.dropFirst(count)
        }
        return nil
    }

    static func openFailure(_ path: String, _ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR:
            var info = stat()
            if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
                return Failure(message: "\(path) is a symbolic link to a file that does not exist", status: .noInput)
            }
            return Failure(message: "no such file: \(path)", status: .noInput)
        case ELOOP:
            return Failure(message: "\(path) is a loop of symbolic links", status: .noInput)
        default:
            return Failure(message: "cannot read \(path): \(reason(code))", status: .noInput)
        }
    }

    /// `permission denied`, from the system's message.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
