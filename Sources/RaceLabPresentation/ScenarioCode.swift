import RaceLabEngine
import RaceLabLanguage

/// A scenario's code as its author wrote it, declaration by declaration: what `show`
/// prints and what the lesson page shows beside play mode.
public enum ScenarioCode {
    /// A declaration's lines, with the indentation of its first line taken off.
    public static func text(of declaration: Declaration, in file: SourceFile) -> String {
        let lines = (declaration.range.start.line...declaration.range.end.line).map { file.line($0) }
        let indentation = lines.first.map { $0.prefix { $0 == " " }.count } ?? 0
        return lines.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
    }

    /// The code of one version (the broken one, or a fix applied), without metadata,
    /// schedules or other fixes.
    public static func code(of scenario: Scenario, fix: String?) -> String {
        scenario.declarations(fix: fix).filter { declaration in
            switch declaration.kind {
            case .metadata, .schedule, .fix, .remove: return false
            default: return true
            }
        }.map { text(of: $0, in: scenario.file) }.joined(separator: "\n")
    }
}
