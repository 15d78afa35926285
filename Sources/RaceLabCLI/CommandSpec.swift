import RaceLabLanguage

/// A subcommand's interface: what it takes and the help screen built from that, in
/// the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout of swift-argument-parser.
struct CommandSpec {
    struct Option {
        var name: String
        /// nil for a flag that takes no value.
        var value: String?
        var help: String
        /// A one-letter name (`-o`), said in `help` by whoever writes it.
        var short: Character? = nil
        /// Accepted, but left out of `help` (the teacher's switch).
        var hidden = false
    }

    var name: String
    var abstract: String
    var usage: String
    var arguments: [(String, String)] = []
    var options: [Option] = []
    var discussion: String?

    var help: String {
        var out = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for (name, help) in arguments { out += Self.row("<\(name)>", help) }
        }
        out += "\nOPTIONS:\n"
        for option in options where !option.hidden { out += Self.row(option.value.map { "--\(option.name) <\($0)>" } ?? "--\(option.name)", option.help) }
        out += Self.row("-h, --help", "Show help information.")
        if let discussion { out += "\n" + discussion + "\n" }
        return out
    }

    /// One row of a help screen: `left` in a 26-column gutter, then `help`, its lines
    /// aligned (`OPTIONS`, `ARGUMENTS`, the root help's subcommands).
    static func row(_ left: String, _ help: String) -> String {
        let width = 26
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "  " + left
        if left.count + 2 >= width {
            out += "\n" + String(repeating: " ", count: width)
        } else {
            out += String(repeating: " ", count: width - 2 - left.count)
        }
        out += lines.joined(separator: "\n" + String(repeating: " ", count: width)) + "\n"
        return out
    }

    /// Splits arguments into positionals and options, checking names and values.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
            } else if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            } else if argument.hasPrefix("-") && argument.count > 1 && Int(argument) == nil {
                var name = String(argument.drop { $0 == "-" })
                if argument.count == 2, let short = options.first(where: { $0.short != nil && $0.short == argument.last }) {
                    name = short.name
                }
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let option = options.first(where: { $0.name == name }) else {
                    let suggestion = Suggestion.closest(to: "--" + name, in: options.map { "--" + $0.name })
                    throw UsageError("unknown option '\(argument)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""), command: self)
                }
                if parsed.values[name] != nil || parsed.flags.contains(name) {
                    throw UsageError("option '--\(name)' is given twice", command: self)
                }
                if option.value == nil {
                    if inlineValue != nil { throw UsageError("option '--\(name)' takes no value", command: self) }
                    parsed.flags.insert(name)
                } else if let inlineValue {
                    parsed.values[name] = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("missing value for '--\(name) <\(option.value!)>'", command: self)
                    }
                    parsed.values[name] = arguments[index]
                    index += 1
                }
            } else {
                parsed.positionals.append(argument)
            }
        }
        return parsed
    }
}

struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    /// A whole-number option's value, checked against `range` (nil when it is not
    /// given): every command's numbers are read, and refused in the same words, here.
    func number(_ name: String, in range: ClosedRange<Int>, _ spec: CommandSpec, why: String = "") throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'\(why)", command: spec)
        }
        return value
    }

    /// `--seed`: any 64-bit unsigned number (nil when it is not given).
    func seed(_ spec: CommandSpec) throws(UsageError) -> UInt64? {
        guard let text = values["seed"] else { return nil }
        guard let value = UInt64(text) else { throw UsageError("--seed takes a whole number from 0 to \(UInt64.max), not '\(text)'", command: spec) }
        return value
    }
}

extension CommandSpec.Option {
    /// The `--format` option of the commands that print text or JSON.
    static let textOrJSON = CommandSpec.Option(name: "format", value: "format", help: "text (the default) or json.")
}

/// A mistake in how the command was called: exit code 64, with the usage line.
struct UsageError: Error {
    var message: String
    var command: CommandSpec?

    init(_ message: String, command: CommandSpec?) {
        self.message = message
        self.command = command
    }
}
