import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// Predict it: the submission's answer against the explorer's outcome histogram.
extension Grader {
    /// `scenario` is the submission's, for its answer; the exercise's program is explored.
    func gradePrediction(_ exercise: Exercise, _ scenario: Scenario, _ file: SourceFile) -> (Bool, String, String) {
        let program = exercise.program
        var answer = ""
        for declaration in scenario.declarations {
            if case .metadata("answer", let value) = declaration.kind { answer = value }
        }
        if answer.allSatisfy({ $0.isWhitespace }) {
            return (false, "no answer: write it in 'answer \"…\"'", "")
        }
        // Every outcome, even past a failure: the answer is the whole set.
        let config = self.config.everyOutcome
        let result = cache.prediction(exercise.id) { Analysis.of(program, config: config, needs: .init(counterexample: false)).exploration }
        if let cut = result.cut {
            return (false, "the exercise could not be explored exhaustively (not exhaustive: \(cut)), so the answer cannot be graded", "")
        }
        switch exercise.prediction {
        case .deadlock:
            let said = answer.lowercased().trimmingCharacters(in: " .!")
            guard let yes = ["yes": true, "no": false][said] else {
                return (false, "answer \"yes\" or \"no\", not \"\(answer)\"", "")
            }
            let deadlock = result.outcomes.first { $0.outcome.end == .deadlocked }
            if yes == (deadlock != nil) {
                return (true, "right: \(deadlock == nil ? "no" : "some") interleaving deadlocks (\(result.interleavings) explored)", "")
            }
            if let deadlock {
                let details = "This schedule deadlocks: \(ReplayCommand(file.name).schedule(deadlock.schedule))\n"
                return (false, "wrong: it can deadlock", revealsAnswers ? details : "")
            }
            return (false, "wrong: none of its \(result.interleavings) interleavings deadlocks", "")
        case .values(let variable):
            let reachable = finalValues(of: variable, program, result)
            let said = Self.split(answer)
            // "2 10 11" is several values without their commas: say how to write them
            // (the form of an answer, not whether it is right).
            if said.contains(where: { item in item.contains(where: { $0.isWhitespace }) && !item.contains(where: { "[(\"".contains($0) }) }) {
                return (false, "write the values separated by commas, like answer \"1, 5\"", "")
            }
            let known = Set(reachable.map { Self.normalized($0.value) })
            let missing = reachable.filter { !said.map(Self.normalized).contains(Self.normalized($0.value)) }
            let wrong = said.filter { !known.contains(Self.normalized($0)) }
            if missing.isEmpty && wrong.isEmpty {
                return (true, "right: \(variable) can end as \(reachable.map({ $0.value }).joined(separator: ", ")), and only those", "")
            }
            // By default a wrong answer is told no more: a count per try would let a
            // student find the answer by grading candidates.
            if !revealsAnswers && exercise.feedback == .rightOrWrong {
                return (false, "wrong: those are not exactly the values \(variable) can end with", "")
            }
            var reasons: [String] = []
            if !wrong.isEmpty {
                // Which of the student's values are wrong would tell them the answer a
                // value at a time: a student is told how many.
                reasons.append(
                    revealsAnswers
                        ? "no run ends with \(variable) = \(wrong.joined(separator: ", "))"
                        : "\(wrong.count) of your \(Words.count(said.count, "value")) \(wrong.count == 1 ? "is" : "are") not a final value of \(variable)"
                )
            }
            if !missing.isEmpty { reasons.append("\(missing.count) value\(missing.count == 1 ? " is" : "s are") missing") }
            let details = missing.map {
                "\(variable) = \($0.value) after: \(ReplayCommand(file.name).schedule($0.schedule))\n"
            }.joined()
            return (false, "wrong: " + reasons.joined(separator: ", and "), revealsAnswers ? details : "")
        case nil:
            return (false, "the exercise does not say what to predict", "")
        }
    }

    /// Every value `variable` holds at the end of a completed run, with a schedule
    /// that reaches it, in order of first appearance (numbers sorted).
    func finalValues(of variable: String, _ program: Program, _ result: Exploration) -> [(value: String, schedule: Schedule)] {
        guard let index = program.globals.firstIndex(where: { $0.name == variable }) else { return [] }
        var values: [(value: String, schedule: Schedule)] = []
        for entry in result.outcomes where entry.outcome.end.ranToTheEnd {
            guard let run = replay(program, entry.schedule) else { continue }
            let value = run.world.describe(run.world.globals[index], elided: false)
            if !values.contains(where: { $0.value == value }) { values.append((value, entry.schedule)) }
        }
        if values.allSatisfy({ Int($0.value) != nil }) { values.sort { Int($0.value)! < Int($1.value)! } }
        return values
    }

    /// "1, 2, [3, 4]" → ["1", "2", "[3, 4]"]: commas inside brackets stay.
    static func split(_ answer: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        for c in answer {
            if c == "[" || c == "(" { depth += 1 }
            if c == "]" || c == ")" { depth -= 1 }
            if (c == "," || c == ";") && depth == 0 {
                items.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        items.append(current)
        return items.map { $0.trimmingCharacters(in: " \t\n") }.filter { !$0.isEmpty }
    }

    static func normalized(_ value: String) -> String {
        value.filter { !$0.isWhitespace && $0 != "\"" }.lowercased()
    }
}
