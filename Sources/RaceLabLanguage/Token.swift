/// One lexical token of a scenario script.
public struct Token: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case identifier(String)
        case keyword(Keyword)
        case int(Int64)
        case string(String)
        case symbol(String)
        case attribute(String)
        case newline
        case end

        public var isString: Bool {
            if case .string = self { return true }
            return false
        }

        public var isInt: Bool {
            if case .int = self { return true }
            return false
        }
    }

    public var kind: Kind
    public var range: SourceRange

    public init(_ kind: Kind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// How the token reads in a diagnostic: `'singelton'`, `end of file`.
    public var quoted: String {
        switch kind {
        case .identifier(let s): return "'\(s)'"
        case .keyword(let k): return "'\(k.rawValue)'"
        case .int(let n): return "'\(n)'"
        case .string(let s): return "\"\(s)\""
        case .symbol(let s): return "'\(s)'"
        case .attribute(let s): return "'@\(s)'"
        case .newline: return "end of line"
        case .end: return "end of file"
        }
    }
}

/// The reserved words of the scenario language.
public enum Keyword: String, CaseIterable, Hashable, Sendable {
    case `var`, `let`, `func`, `class`, thread, `if`, `else`, `while`, `for`, `in`
    case `return`, `break`, `continue`, `true`, `false`, `nil`, spawn, synchronized
    case `deinit`, fix, expect, schedule, `self`
}
