import RaceLabEngine
import RaceLabLanguage

#if canImport(Foundation)
    import Foundation
#endif

/// What a grader has already explored, so that a class's identical submissions and
/// shared programs are explored once: a fix by its program (the file's tokens, at
/// their places: files that differ only in comments share it), and a predict-it
/// exercise's own program and a fix-it's required lines by its ID. Grading stays deterministic: an entry is the
/// exploration that the same program would give again.
final class GradingCache: @unchecked Sendable {
    /// One table of entries by key (a class: the cache's lock guards it).
    private final class Table<Value> {
        var entries: [String: Value] = [:]
    }

    private let lock = CacheLock()
    private let fixes = Table<Analysis>()
    private let predictions = Table<Exploration>()
    private let required = Table<Set<Int>>()
    /// How many explorations were made, not found (for the tests).
    private(set) var explored = 0

    /// The program's identity within an exercise: every token with its place.
    static func key(_ exercise: String, _ file: SourceFile) -> String {
        var lexer = Lexer(file)
        var key = exercise
        // Line ends and the end of the file are left out: every other token's place says
        // where they are, and a comment after the last line moves only them.
        for token in lexer.tokenize() where token.kind != .newline && token.kind != .end {
            key += "\u{1}\(token.range.start.line):\(token.range.start.column):\(token.kind)"
        }
        return key
    }

    func fix(_ key: String, _ make: () -> Analysis) -> Analysis { remembered(fixes, key, make) }

    func prediction(_ exercise: String, _ make: () -> Exploration) -> Exploration { remembered(predictions, exercise, make) }

    func requiredLines(_ exercise: String, _ make: () -> Set<Int>) -> Set<Int> { remembered(required, exercise, make) }

    /// The entry of `table` for `key`, made (and counted) the first time.
    private func remembered<Value>(_ table: Table<Value>, _ key: String, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ table.entries[key] }) { return known }
        let made = make()
        lock.withLock {
            table.entries[key] = made
            explored += 1
        }
        return made
    }
}

#if canImport(Foundation)
    /// The grader's workers share the cache across threads.
    package typealias CacheLock = NSLock
#else
    /// The browser build runs on one thread: there is nothing to lock.
    package struct CacheLock {
        package init() {}
        package func withLock<Result>(_ body: () -> Result) -> Result { body() }
    }
#endif
