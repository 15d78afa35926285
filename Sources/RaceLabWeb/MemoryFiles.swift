import RaceLabCommands

/// The page's files: held in memory, by path, for the commands (`FileSystem`). A
/// folder is any path that a file's path starts with; a path is relative to the root,
/// `.` and `..` parts taken out. What a command writes is kept, and listed in order.
final class MemoryFiles: @unchecked Sendable {
    // The browser build runs on one thread, and a request's commands on the caller's.
    var contents: [String: String] = [:]
    private(set) var written: [String] = []

    /// A path without `.`, `..` or empty parts, and without a leading `/`: the key.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Every path below `folder`, relative to it, folders included, sorted.
    func below(_ folder: String) -> [String] {
        let key = Self.normalized(folder)
        let prefix = key.isEmpty ? "" : key + "/"
        var found: Set<String> = []
        for path in contents.keys where path.hasPrefix(prefix) {
            let parts = path.dropFirst(prefix.count).split(separator: "/")
            for end in 1...parts.count { found.insert(parts[..<end].joined(separator: "/")) }
        }
        return found.sorted()
    }

    var system: FileSystem {
        FileSystem(
            read: { path in
                let key = Self.normalized(path)
                if let text = self.contents[key] { return .success(text) }
                if !self.below(key).isEmpty {
                    return .failure(FileFailure(message: "\(path) is a directory, not a scenario file", status: .noInput))
                }
                return .failure(FileFailure(message: "no such file: \(path)", status: .noInput))
            },
            bytes: { path in
                let key = Self.normalized(path)
                guard let text = self.contents[key] else { return .failure(FileFailure(message: "no such file: \(path)", status: .noInput)) }
                return .success(Array(text.utf8))
            },
            write: { text, path, exclusive in
                let key = Self.normalized(path)
                if exclusive && self.contents[key] != nil {
                    return FileFailure(message: "cannot create \(path): it already exists, and is left as it is", status: .cannotCreate)
                }
                self.contents[key] = text
                if !self.written.contains(key) { self.written.append(key) }
                return nil
            },
            kind: { path in
                let key = Self.normalized(path)
                if self.contents[key] != nil { return .file }
                return key.isEmpty || !self.below(key).isEmpty ? .directory : nil
            },
            names: { folder in
                let names = self.below(folder).filter { !$0.contains("/") }
                return names.isEmpty && self.contents[Self.normalized(folder)] != nil ? nil : names
            },
            walk: { self.below($0) },
            standardized: { "/" + Self.normalized($0) },
            absolute: { $0 }
        )
    }
}
