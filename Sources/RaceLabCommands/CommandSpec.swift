import RaceLabLanguage

/// A subcommand's interface: what it takes and the help screen built from that, in
/// the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout of swift-argument-parser.
package struct CommandSpec {
    package struct Option {
        package var name: String
        /// nil for a flag that takes no value.
        package var value: String?
        package var help: String
        /// A one-letter name (`-o`), said in `help` by whoever writes it.
        package var short: Character? = nil
        /// Accepted, but left out of `help` (the teacher's switch).
        package var hidden = false

        package init(name: String, value: String?, help: String, short: Character? = nil, hidden: Bool = false) {
            self.name = name
            self.value = value
            self.help = help
            self.short = short
            self.hidden = hidden
        }
    }

    package var name: String
    package var abstract: String
    package var usage: String
    package var arguments: [(String, String)] = []
    package var options: [Option] = []
    package var discussion: String?

    package init(
        name: String, abstract: String, usage: String, arguments: [(String, String)] = [], options: [Option] = [], discussion: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    package var help: String {
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
    package static func row(_ left: String, _ help: String) -> String {
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
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
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

package struct ParsedArguments {
    package var positionals: [String] = []
    package var values: [String: String] = [:]
    package var flags: Set<String> = []
    package var wantsHelp = false

    /// A whole-number option's value, checked against `range` (nil when it is not
    /// given): every command's numbers are read, and refused in the same words, here.
    package func number(_ name: String, in range: ClosedRange<Int>, _ spec: CommandSpec, why: String = "") throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'\(why)", command: spec)
        }
        return value
    }

    /// `--seed`: any 64-bit unsigned number (nil when it is not given).
    package func seed(_ spec: CommandSpec) throws(UsageError) -> UInt64? {
        guard let text = values["seed"] else { return nil }
        guard let value = UInt64(text) else { throw UsageError("--seed takes a whole number from 0 to \(UInt64.max), not '\(text)'", command: spec) }
        return value
    }
}

extension CommandSpec.Option {
    /// The `--format` option of the commands that print text or JSON.
    package static let textOrJSON = CommandSpec.Option(name: "format", value: "format", help: "text (the default) or json.")
}

/// A mistake in how the command was called: exit code 64, with the usage line.
package struct UsageError: Error {
    package var message: String
    package var command: CommandSpec?

    package init(_ message: String, command: CommandSpec?) {
        self.message = message
        self.command = command
    }
}
