import RaceLabEngine

/// A question gets the same answer from every search (DESIGN.md): the oracle asks
/// DPOR, every interleaving (`reduction = .none`) and the stateful search about one
/// program, each within small budgets, and compares what they answer.
///
/// - A program that ends (DPOR finishes without a cut): every two searches that
///   finished must give the same verdict, the same set of outcomes (state, end,
///   findings, failed checks and facts) and the same set of data races (`RaceKey`).
/// - A program that loops (an execution reached the step bound): only the stateful
///   search can finish. When it does, every outcome of an execution DPOR completed
///   must be among its outcomes, and every race DPOR saw among its races.
///
/// Anything else is a disagreement, said with the three answers side by side.
struct SearchOracle {
    /// What the oracle found.
    enum Finding: Equatable {
        /// Every search that finished gave the same answer (how many pairs compared).
        case agreed(pairs: Int)
        /// The program loops; the stateful search's answer holds what DPOR saw.
        case loops(checked: Bool)
        /// The searches disagree: which way, and the three answers.
        case disagreement(String)
    }

    /// A data race as the searches can all name it: the target, without object
    /// numbers (`Box#.v`: another interleaving can number objects another way), and
    /// the two sides' lines and access kinds, in order (thread names aside: a
    /// queue's block is numbered as it was sent).
    struct RaceKey: Hashable, Comparable, CustomStringConvertible {
        var target: String
        var sides: [String]

        init(_ race: DataRace) {
            var target = ""
            var skipping = false
            for character in race.target {
                if skipping && character.isNumber { continue }
                skipping = character == "#"
                target.append(character)
            }
            self.target = target
            sides = [race.first, race.second].map { "line \($0.line ?? 0) \($0.kind.rawValue)" }.sorted()
        }

        var description: String { "\(target): \(sides.joined(separator: " / "))" }

        static func < (a: RaceKey, b: RaceKey) -> Bool { a.description < b.description }
    }

    /// One search's answer, in the terms compared.
    struct Answer: CustomStringConvertible {
        var name: String
        var exploration: Exploration
        var outcomes: Set<Outcome> { Set(exploration.outcomes.map(\.outcome)) }
        var races: Set<RaceKey> { Set(exploration.dataRaces.map(RaceKey.init)) }
        var finished: Bool { exploration.isExhaustive }

        var description: String {
            let rows = exploration.outcomes.map(\.outcome).map(SearchOracle.describe).sorted()
            let races = races.sorted().map(\.description)
            return "\(name): \(exploration.verdict()), \(exploration.cut.map { "cut: \($0)" } ?? "finished"), "
                + "\(exploration.executions) executions, \(exploration.states) states\n"
                + rows.map { "    outcome \($0)\n" }.joined() + races.map { "    race \($0)\n" }.joined()
        }
    }

    /// Steps one execution may take (the stateful search's depth).
    var maxSteps = 100
    var dporExecutions = 500
    var noneExecutions = 3_000
    var maxStates = 20_000

    /// The three searches' answers about `program`, compared.
    func check(_ program: Program) -> Finding {
        let dpor = answer("DPOR", program, executions: dporExecutions) { $0.reduction = .dpor }
        if case .stepBound = dpor.exploration.cut { return checkLooping(program, dpor: dpor) }
        let none = answer("every interleaving", program, executions: noneExecutions) { $0.reduction = .none }
        let stateful = answer("stateful", program, executions: noneExecutions) { $0.search = .stateful }
        let answers = [dpor, none, stateful]
        var pairs = 0
        for i in answers.indices {
            for j in answers.indices where j > i && answers[i].finished && answers[j].finished {
                pairs += 1
                if let difference = Self.difference(answers[i], answers[j]) {
                    return .disagreement("\(difference)\n" + answers.map(\.description).joined())
                }
            }
        }
        return .agreed(pairs: pairs)
    }

    /// A looping program: what DPOR completed, against the stateful search.
    private func checkLooping(_ program: Program, dpor: Answer) -> Finding {
        let stateful = answer("stateful", program, executions: noneExecutions) { $0.search = .stateful }
        guard stateful.finished else { return .loops(checked: false) }
        let completed = dpor.outcomes.filter { $0.end != .stepLimit }
        if let missing = completed.subtracting(stateful.outcomes).map(Self.describe).min() {
            return .disagreement("DPOR completes an execution with an outcome the stateful search never reaches: \(missing)\n\(dpor)\(stateful)")
        }
        if let missing = dpor.races.subtracting(stateful.races).min() {
            return .disagreement("DPOR reports a race the stateful search does not: \(missing)\n\(dpor)\(stateful)")
        }
        return .loops(checked: true)
    }

    /// How two finished searches' answers differ, if they do.
    static func difference(_ a: Answer, _ b: Answer) -> String? {
        if a.exploration.verdict() != b.exploration.verdict() {
            return "\(a.name) says \(a.exploration.verdict()), \(b.name) says \(b.exploration.verdict())"
        }
        if a.outcomes != b.outcomes {
            let onlyA = a.outcomes.subtracting(b.outcomes).map(describe).sorted()
            let onlyB = b.outcomes.subtracting(a.outcomes).map(describe).sorted()
            return "outcomes differ: only \(a.name): \(onlyA); only \(b.name): \(onlyB)"
        }
        if a.races != b.races {
            let onlyA = a.races.subtracting(b.races).sorted().map(\.description)
            let onlyB = b.races.subtracting(a.races).sorted().map(\.description)
            return "data races differ: only \(a.name): \(onlyA); only \(b.name): \(onlyB)"
        }
        return nil
    }

    /// `x = 1, y = 2 | completed | crash | checks [1] | 2 Box created`.
    static func describe(_ outcome: Outcome) -> String {
        let findings = outcome.findings.map(\.rawValue).joined(separator: ", ")
        return "\(outcome.state) | \(outcome.end.rawValue) | [\(findings)] | checks \(outcome.failedChecks) | \(outcome.facts.joined(separator: ", "))"
    }

    func answer(_ name: String, _ program: Program, executions: Int, _ adjust: (inout ExploreConfig) -> Void) -> Answer {
        var config = ExploreConfig()
        config.search = .stateless
        config.timeLimit = nil
        config.maxSteps = maxSteps
        config.maxExecutions = executions
        config.maxStates = maxStates
        config.failureMargin = nil
        config.countInterleavings = false
        adjust(&config)
        return Answer(name: name, exploration: Explorer(program: program, config: config).explore())
    }
}
