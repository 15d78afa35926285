import RaceLabLanguage

/// A scenario file: the broken version, its checks and schedules, and its fixes.
public struct Scenario: Sendable {
    public struct Fix: Sendable {
        public var name: String
        public var summary: String
        /// Set for a fix that is meant to fail, with the reason it cannot work.
        public var expectedFailure: String?
        /// Set for a broken variant of the scenario (not a fix), with what it shows.
        public var variant: String?
        public var declarations: [Declaration]
        public var range: SourceRange

        /// A variant, a fix meant to fail, or a fix.
        public var role: VersionRole {
            variant != nil ? .variant : expectedFailure != nil ? .expectedToFail : .fix
        }
    }

    public private(set) var name: String
    public private(set) var file: SourceFile
    public private(set) var title: String
    public private(set) var story: String
    public private(set) var source: String
    /// The goal of `racelab step --challenge`, in words: "make two MySingle objects exist".
    public private(set) var challenge: String?
    public private(set) var fixes: [Fix]
    /// The base declarations (everything but fixes).
    public private(set) var declarations: [Declaration]
    /// The broken version, then each fix in the file's order, each compiled.
    public private(set) var versions: [Version] = []

    /// The version `fix` names (nil: the broken version), or nil if there is no such fix.
    public func version(_ fix: String?) -> Version? {
        versions.first { $0.fix == fix }
    }

    /// Parses and compiles the scenario and every fix, reporting all errors at once.
    /// `probes`: lines of the broken version whose code must run in every complete
    /// run (`Compiler.compile(_:file:probes:)`), as the grader asks of a submission.
    public static func load(name: String, file: SourceFile, probes: Set<Int> = []) throws(ScriptError) -> Scenario {
        let script = try Parser.parse(file)
        var diagnostics: [Diagnostic] = []
        var base: [Declaration] = []
        var fixes: [Fix] = []
        var metadata: [String: String] = [:]
        for declaration in script.declarations {
            switch declaration.kind {
            case .fix(let fixName, let body):
                if fixes.contains(where: { $0.name == fixName }) {
                    diagnostics.append(Diagnostic("fix '\(fixName)' is declared twice", at: declaration.nameRange))
                }
                var fix = Fix(name: fixName, summary: "", expectedFailure: nil, variant: nil, declarations: [], range: declaration.range)
                for inner in body {
                    switch inner.kind {
                    case .metadata("summary", let text): fix.summary = text
                    case .metadata("fails", let text): fix.expectedFailure = text
                    case .metadata("variant", let text): fix.variant = text
                    case .metadata(let key, _) where Parser.modelKeys.contains(key):
                        // A fix may run under another model (ARC where the scenario is manual).
                        fix.declarations.append(inner)
                    case .metadata(let key, _):
                        diagnostics.append(
                            Diagnostic(
                                "a fix may set 'summary', 'fails', 'variant' or the model (\(Parser.modelKeys.joined(separator: ", "))), not '\(key)'",
                                at: inner.range))
                    case .expect:
                        diagnostics.append(Diagnostic("a fix cannot change the checks: move this expect out of the fix", at: inner.range))
                    case .remove(let what, let removed):
                        if !base.contains(where: { $0.replacementKey.map { $0 == (inner.replacementKey!.name, what) } ?? false }) {
                            let names = base.compactMap { $0.replacementKey?.what == what ? $0.replacementKey?.name : nil }
                            diagnostics.append(
                                Diagnostic(
                                    "the base scenario has no \(what) '\(removed)' to remove", at: inner.nameRange,
                                    note: Suggestion.note(for: removed, in: names)))
                        }
                        fix.declarations.append(inner)
                    default: fix.declarations.append(inner)
                    }
                }
                fixes.append(fix)
            case .metadata(let key, let value):
                if key == "summary" || key == "fails" || key == "variant" {
                    diagnostics.append(Diagnostic("'\(key)' belongs inside a fix", at: declaration.range))
                }
                metadata[key] = value
                base.append(declaration)
            default:
                base.append(declaration)
            }
        }
        var scenario = Scenario(
            name: name, file: file, title: metadata["title"] ?? name, story: metadata["story"] ?? "",
            source: metadata["source"] ?? "", challenge: metadata["challenge"], fixes: fixes, declarations: base)
        for fix in [nil] + fixes.map({ Optional($0) }) {
            do throws(ScriptError) {
                let program = try Compiler.compile(scenario.declarations(fix: fix?.name), file: file, probes: fix == nil ? probes : [])
                scenario.versions.append(Version(fix: fix?.name, role: fix?.role ?? .broken, program: program))
            } catch {
                diagnostics += error.diagnostics.filter { !diagnostics.contains($0) }
            }
        }
        if !diagnostics.isEmpty { throw ScriptError(file: file, diagnostics: diagnostics) }
        return scenario
    }

    public func fix(named name: String) -> Fix? {
        fixes.first { $0.name == name }
    }

    /// The declarations with a fix applied: each replaces the same-named one, or is added;
    /// `remove` drops one.
    public func declarations(fix name: String?) -> [Declaration] {
        guard let name, let fix = fix(named: name) else { return declarations }
        var result = declarations
        for declaration in fix.declarations {
            if case .remove = declaration.kind {
                result.removeAll { $0.replacementKey.map { $0 == declaration.replacementKey! } ?? false }
            } else if let key = declaration.replacementKey?.name,
                let index = result.firstIndex(where: { $0.replacementKey?.name == key })
            {
                result[index] = declaration
            } else {
                result.append(declaration)
            }
        }
        return result
    }

    /// Named schedules, in declaration order, with a fix's own overriding the base's.
    public func schedules(fix: String?) -> [(name: String, steps: String)] {
        declarations(fix: fix).compactMap {
            if case .schedule(let name, let steps) = $0.kind { return (name, steps) }
            return nil
        }
    }
}
