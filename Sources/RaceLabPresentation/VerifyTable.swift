import RaceLabEngine

/// `verify`'s report: the broken version and every fix side by side, as a text table
/// or as JSON, from their explorations. The command explores and decides the exit
/// status; this only renders.
public struct VerifyTable {
    /// One version and its exploration.
    public struct Row {
        public var version: Version
        public var result: Exploration
        var role: VersionRole { version.role }

        public init(version: Version, result: Exploration) {
            self.version = version
            self.result = result
        }
    }

    public let scenario: Scenario
    public let reduction: ExploreConfig.Reduction
    public let versions: [Row]

    public init(scenario: Scenario, reduction: ExploreConfig.Reduction, versions: [Row]) {
        self.scenario = scenario
        self.reduction = reduction
        self.versions = versions
    }

    /// The text report: a title, what the counts mean, and the table.
    public func text() -> String {
        var rows: [[String]] = [["version", "search", "interleavings", "executions", "failing", "outcomes", "races", "findings", "verdict"]]
        var statesCounted = false
        for version in versions {
            let result = version.result
            let kinds = result.findingKinds.map({ $0.rawValue })
            // Where runs go on forever the stateful search counts final states.
            let unit = result.countsInterleavings ? "" : " states"
            statesCounted = statesCounted || !result.countsInterleavings
            rows.append([
                Words.versionLabel(version.version),
                Words.searchColumn(result), result.interleavings.description + unit, String(result.executions),
                result.failingInterleavings.description + unit, String(result.outcomes.count), String(result.dataRaces.count),
                kinds.isEmpty ? "-" : kinds.joined(separator: ", "), Words.verdictCell(result.verdict(as: version.role), version.role),
            ])
        }
        var out = "\(scenario.name): \(scenario.title)\n"
        out += "Every version explored (\(reduction == .dpor ? "DPOR" : "no reduction") or stateful, as the search column says); "
        out += statesCounted ? "counts are interleavings, or final states where runs can go on forever.\n" : "counts are interleavings.\n"
        if let note = orderingNote { out += "Orderings: \(note).\n" }
        return out + "\n" + Self.table(rows)
    }

    /// The one sentence on weaker orderings (`MemoryOrdering.note`), naming the
    /// versions that use them; nil when none does.
    public var orderingNote: String? {
        let using = versions.filter { !$0.result.weakOrderings.isEmpty }
        let orderings = MemoryOrdering.allCases.filter { ordering in using.contains { $0.result.weakOrderings.contains(ordering) } }
        if using.count > 1 && using.count == versions.count { return MemoryOrdering.note(orderings, "every version") }
        let names = using.map { Words.version($0.version) }
        return MemoryOrdering.note(orderings, Words.list(names, "and"), plural: names.count > 1)
    }

    /// The JSON report; `verdict` is the exit status in words.
    public func json(verdict: String) -> String {
        let items: [JSON] = versions.map { version in
            let result = version.result
            let counts =
                ExplorationJSON.fields("interleavings", result.interleavings) + [("executions", .int(result.executions))]
                + ExplorationJSON.fields("failingInterleavings", result.failingInterleavings)
            return .object(
                [("version", .string(version.version.fix ?? "broken")), ("role", .string(version.role.rawValue))] + counts + [
                    ("outcomes", .int(result.outcomes.count)),
                    ("dataRaces", .int(result.dataRaces.count)),
                    ("findings", .array(result.findingKinds.map { JSON.string($0.rawValue) })),
                    ("search", .string(Words.searchColumn(result))),
                    ("weakOrderings", .array(result.weakOrderings.map { .string("." + $0.name) })),
                    ("exhaustive", .bool(result.isExhaustive)),
                    ("cut", result.cut.map { .string("not exhaustive: \($0)") } ?? .null),
                    ("verdict", .string(Words.verdictCell(result.verdict(as: version.role), version.role))),
                ])
        }
        let json = JSON.object([
            ("scenario", .string(scenario.name)), ("title", .string(scenario.title)),
            ("reduction", .string(reduction.rawValue)),
            ("verdict", .string(verdict)),
            ("orderingNote", orderingNote.map(JSON.string) ?? .null),
            ("versions", .array(items)),
        ])
        return json.serialized() + "\n"
    }

    /// Columns padded to their widest cell; the counts (columns 2 to 6) right-aligned.
    static func table(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                let fill = String(repeating: " ", count: widths[column] - cell.count)
                return (2...6).contains(column) ? fill + cell : cell + fill
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }
}
