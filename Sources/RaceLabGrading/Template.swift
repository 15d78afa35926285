import RaceLabLanguage
import RaceLabPresentation

/// The editable regions of an exercise file and the locked text around them.
///
/// A region starts at a line `// begin editable` and ends at a line `// end editable`
/// (text may follow either marker: `// begin editable: take the lock here`). Being
/// comments, the markers leave the file an ordinary scenario that `run`, `step` and
/// `explore` accept. Everything outside the regions is locked: a submission must keep
/// it token for token (comments, blank lines and indentation may differ).
public struct Template: Sendable {
    /// The marker lines of each region, 1-based.
    public var regions: [(begin: Int, end: Int)]

    public static let beginMarker = "// begin editable"
    public static let endMarker = "// end editable"

    /// Finds the regions.
    /// - Throws: a message when the markers do not pair up.
    public static func parse(_ file: SourceFile) throws(GradingError) -> Template {
        var regions: [(begin: Int, end: Int)] = []
        var open: Int?
        for (index, text) in file.lines.enumerated() {
            let line = index + 1
            let trimmed = text.trimmingCharacters(in: " \t")
            if trimmed.hasPrefix(beginMarker) {
                if let open {
                    throw GradingError("line \(line): '\(beginMarker)' inside the region opened at line \(open); close it with '\(endMarker)' first")
                }
                open = line
            } else if trimmed.hasPrefix(endMarker) {
                guard let begin = open else {
                    throw GradingError("line \(line): '\(endMarker)' without a '\(beginMarker)' before it")
                }
                regions.append((begin, line))
                open = nil
            }
        }
        if let open {
            throw GradingError("line \(open): '\(beginMarker)' is never closed by '\(endMarker)'")
        }
        return Template(regions: regions)
    }

    /// The tokens outside the regions (newlines left out), one list per locked part:
    /// before the first region, between each two, and after the last.
    public func lockedParts(of file: SourceFile) -> [[Token]] {
        var lexer = Lexer(file)
        var parts: [[Token]] = Array(repeating: [], count: regions.count + 1)
        var part = 0
        for token in lexer.tokenize() where token.kind != .newline && token.kind != .end {
            let line = token.range.start.line
            while part < regions.count && line > regions[part].end { part += 1 }
            if part < regions.count && line >= regions[part].begin { continue }
            parts[part].append(token)
        }
        return parts
    }

    /// The lines of `file` that hold locked code (a token outside every region).
    public func lockedLines(of file: SourceFile) -> Set<Int> {
        Set(lockedParts(of: file).joined().map({ $0.range.start.line }))
    }

    /// The lines of locked statements a fix may not skip: each statement at the top of
    /// a thread's (or main's) body, unless an editable region of that body comes both
    /// before and after it (the first may open an `if` that the second closes, as a
    /// fix may rightly do).
    public func unguardedLines(of file: SourceFile) -> Set<Int> {
        guard let script = try? Parser.parse(file) else { return [] }
        let inRegion: (Int) -> Bool = { line in regions.contains { $0.begin <= line && line <= $0.end } }
        var lines: Set<Int> = []
        for declaration in script.declarations {
            let body: [Statement]
            switch declaration.kind {
            case .thread(_, let code), .task(_, let code): body = code
            default: continue
            }
            // The regions at the top of this body: inside it, and inside none of its statements.
            let top = regions.filter { region in
                declaration.range.start.line < region.begin && region.end < declaration.range.end.line
                    && !body.contains { $0.range.start.line <= region.begin && region.end <= $0.range.end.line }
            }
            for statement in body where !inRegion(statement.range.start.line) {
                let before = top.contains { $0.end < statement.range.start.line }
                let after = top.contains { $0.begin > statement.range.end.line }
                if !(before && after) { lines.insert(statement.range.start.line) }
            }
        }
        return lines
    }

    /// Where each locked line of `exercise` is in `submission`, whose locked parts
    /// match it token for token (`firstChange` found no change): the line of the
    /// same locked token, by the first token on each line.
    public static func lineMap(exercise: SourceFile, submission: SourceFile) throws(GradingError) -> [Int: Int] {
        let theirs = try parse(exercise).lockedParts(of: exercise)
        let mine = try parse(submission).lockedParts(of: submission)
        var map: [Int: Int] = [:]
        for (part, tokens) in zip(theirs, mine).map({ ($0, $1) }) {
            for (their, my) in zip(part, tokens) where map[their.range.start.line] == nil {
                map[their.range.start.line] = my.range.start.line
            }
        }
        return map
    }

    /// The names declared (`let`, `var`, `func`, `class`, `for`, `spawn`) in the
    /// locked parts and in the regions of `file`, each with its line.
    func declaredNames(in file: SourceFile) -> (locked: [(String, Int)], editable: [(String, Int)]) {
        var lexer = Lexer(file)
        let tokens = lexer.tokenize()
        var locked: [(String, Int)] = []
        var editable: [(String, Int)] = []
        let declaring: Set<Keyword> = [.let, .var, .func, .class, .for, .spawn]
        for (index, token) in tokens.enumerated().dropLast() {
            guard case .keyword(let keyword) = token.kind, declaring.contains(keyword),
                case .identifier(let name) = tokens[index + 1].kind
            else { continue }
            let line = token.range.start.line
            if regions.contains(where: { $0.begin <= line && line <= $0.end }) {
                editable.append((name, line))
            } else {
                locked.append((name, line))
            }
        }
        return (locked, editable)
    }

    /// The first statement in an editable region that belongs to the exercise, not
    /// to a student: one that changes the model the exercise is run under
    /// (`Parser.modelKeys`: `scheduling "strict priority"` there would let a student
    /// choose the scheduler that grades the fix), what the grader tells a student
    /// (`feedback "count"`), or a marker that tells the search a loop that never ends
    /// is fine (`progress`, `idle`: with one, a fix that loops for ever would pass).
    /// Decided on tokens, as the parser reads them, so spacing, comments and line
    /// endings hide nothing.
    public func exerciseStatement(in file: SourceFile) -> GradingError? {
        var lexer = Lexer(file)
        let tokens = lexer.tokenize()
        for (index, token) in tokens.enumerated().dropLast() {
            guard case .identifier(let key) = token.kind else { continue }
            let next = tokens[index + 1].kind
            let what: String
            if Parser.modelKeys.contains(key), next.isString || (key == "pool" && next.isInt) {
                what = "changes how the exercise is run"
            } else if case .string = next, key == "feedback" {
                what = "says what the grader tells a student"
            } else if key == "progress" || key == "idle", Parser.endsStatement(next) {
                what = "tells the search that a thread which never stops is doing its job"
            } else {
                continue
            }
            let line = token.range.start.line
            guard regions.contains(where: { $0.begin <= line && line <= $0.end }) else { continue }
            return GradingError("line \(line): '\(key)' \(what); it belongs to the exercise, not to an editable region")
        }
        return nil
    }

    /// A name the editable code declares that the locked code declares too: a second
    /// `sum` would hide the locked one, so locked code would use the student's value
    /// (a hard-coded answer) instead of the work it does.
    public static func shadowing(in submission: SourceFile) throws(GradingError) -> GradingError? {
        let names = try parse(submission).declaredNames(in: submission)
        for (name, line) in names.editable {
            guard let (_, lockedLine) = names.locked.first(where: { $0.0 == name }) else { continue }
            return GradingError(
                "line \(line): the editable code declares '\(name)', which the locked code declares too (line \(lockedLine)); use another name, so that the locked code keeps its own"
            )
        }
        return nil
    }

    /// The first place where `submission` changes a locked part of `exercise`, or nil
    /// when every locked part is kept.
    /// Metadata whose text is for people, not for the grader, which reads it from the
    /// exercise: a student may reword a task or a hint at no cost.
    static let proseKeys: Set<String> = ["task", "hint", "title", "source"]

    /// Whether `tokens[index]` is the text of a prose line (`task "…"`).
    static func isProse(_ index: Int, in tokens: [Token]) -> Bool {
        guard index > 0, case .string = tokens[index].kind, case .identifier(let key) = tokens[index - 1].kind else { return false }
        return proseKeys.contains(key)
    }

    public static func firstChange(exercise: SourceFile, submission: SourceFile) throws(GradingError) -> LockedChange? {
        let original = try parse(exercise)
        let handedIn: Template
        do throws(GradingError) {
            handedIn = try parse(submission)
        } catch {
            throw GradingError("the editable markers are broken: \(error.message)")
        }
        guard handedIn.regions.count == original.regions.count else {
            throw GradingError(
                "the exercise has \(Words.count(original.regions.count, "editable region")) but the file has \(handedIn.regions.count): keep every '\(beginMarker)' and '\(endMarker)' line where it was"
            )
        }
        let expected = original.lockedParts(of: exercise)
        let found = handedIn.lockedParts(of: submission)
        for (part, (want, have)) in zip(expected, found).enumerated() {
            let same = zip(want, have).enumerated().prefix { index, pair in
                pair.0.kind == pair.1.kind || (isProse(index, in: want) && isProse(index, in: have))
            }.count
            if same == want.count && same == have.count { continue }
            let exerciseLine = same < want.count ? want[same].range.start.line : nil
            let submissionLine = same < have.count ? have[same].range.start.line : nil
            // Past the end of a part, point at the marker that ends it.
            let fallback = part < original.regions.count ? original.regions[part].begin : exercise.lines.count
            return LockedChange(
                exerciseLine: exerciseLine ?? fallback, submissionLine: submissionLine,
                added: exerciseLine == nil)
        }
        return nil
    }
}

/// Where a submission first departs from the locked text.
public struct LockedChange: Sendable, Equatable {
    /// The exercise's line that was changed or removed (or, when code was added, the
    /// line the addition comes before).
    public var exerciseLine: Int
    /// The submission's line at that point, if it has one.
    public var submissionLine: Int?
    /// True when the submission added code to a locked part rather than changing it.
    public var added: Bool

    public init(exerciseLine: Int, submissionLine: Int?, added: Bool) {
        self.exerciseLine = exerciseLine
        self.submissionLine = submissionLine
        self.added = added
    }
}

/// A problem with an exercise or a submission, in words.
public struct GradingError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
