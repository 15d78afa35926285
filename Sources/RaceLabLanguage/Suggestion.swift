/// "Did you mean" suggestions by edit distance.
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    ///
    ///     Suggestion.closest(to: "singelton", in: ["singleton", "lock"]) // "singleton"
    ///
    /// - Complexity: O(n·m) per candidate.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        var best: (String, Int)?
        for candidate in candidates where candidate != word {
            let d = distance(word.lowercased(), candidate.lowercased())
            let limit = max(1, min(word.count, candidate.count) / 3 + 1)
            // Some letters must survive: 'Q' is not a typo of 'A'.
            let sharesSomething = d < max(word.count, candidate.count)
            if d <= limit, sharesSomething, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// The edit distance between two strings: inserts, deletes, substitutions and
    /// swaps of two neighbouring letters each count one (optimal string alignment),
    /// so "hlep" is one edit from "help", not two as from "step".
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// A `note` line for a diagnostic, or nil when nothing is close.
    public static func note(for word: String, in candidates: [String]) -> String? {
        closest(to: word, in: candidates).map { "did you mean '\($0)'?" }
    }
}
