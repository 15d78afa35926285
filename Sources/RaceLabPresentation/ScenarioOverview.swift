import RaceLabEngine
import RaceLabLanguage

/// A scenario in words, as `racelab show` prints it: its title and source, its story,
/// the broken version's code, each fix and variant as a line diff against it, and the
/// command to run it.
public enum ScenarioOverview {
    public static func render(_ scenario: Scenario) -> String {
        var out = "\(scenario.name): \(scenario.title)\n"
        if !scenario.source.isEmpty { out += "Source: \(scenario.source)\n" }
        if !scenario.story.isEmpty { out += "\nStory\n" + indent(scenario.story) + "\n" }
        out += "\nCode (the broken version)\n"
        for declaration in scenario.declarations where !isMetadata(declaration) {
            out += indent(ScenarioCode.text(of: declaration, in: scenario.file)) + "\n"
        }
        for fix in scenario.fixes {
            if let variant = fix.variant {
                out += "\nBroken variant '\(fix.name)': \(variant)\n"
            } else {
                out += "\nFix '\(fix.name)'" + (fix.summary.isEmpty ? "" : ": \(fix.summary)") + "\n"
            }
            if let reason = fix.expectedFailure { out += "  This fix fails, as expected: \(reason)\n" }
            for declaration in fix.declarations {
                let old = declaration.replacementKey.flatMap { key in
                    scenario.declarations.first { $0.replacementKey?.name == key.name }
                }.map { ScenarioCode.text(of: $0, in: scenario.file) }
                if case .remove = declaration.kind {
                    out += diff(old: old ?? "", new: "")
                } else {
                    out += diff(old: old ?? "", new: ScenarioCode.text(of: declaration, in: scenario.file))
                }
            }
        }
        // The story only where there is one (an exercise has none to give away).
        if scenario.schedules(fix: nil).contains(where: { $0.name == "story" }) {
            out += "\nRun it: racelab run \(scenario.name) --schedule story\n"
        } else {
            out += "\nStep through it: racelab step \(scenario.name)\n"
        }
        return out
    }

    static func isMetadata(_ declaration: Declaration) -> Bool {
        if case .metadata = declaration.kind { return true }
        return false
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n")
    }

    /// A line diff (longest common subsequence): `-` removed, `+` added, ` ` kept.
    static func diff(old: String, new: String) -> String {
        let a = old.isEmpty ? [] : old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.isEmpty ? [] : new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out = ""
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] {
                out += "    \(a[i])\n"
                i += 1
                j += 1
            } else if i < a.count && (j == b.count || lcs[i + 1][j] >= lcs[i][j + 1]) {
                out += "  - \(a[i])\n"
                i += 1
            } else {
                out += "  + \(b[j])\n"
                j += 1
            }
        }
        return out
    }
}
