import RaceLabEngine

/// An exploration as JSON, for scripts and autograders: the counts, the outcome
/// histogram, the verdict per check, the detectors' reports and the counterexample.
/// Keys keep their order, so the output is byte-for-byte stable.
public struct ExplorationJSON: Sendable {
    public let program: Program

    public init(program: Program) {
        self.program = program
    }

    /// A count as two keys: `name` (the number, or its lower bound) and `nameExact`
    /// (false when the number is a lower bound: counting was bounded, or it passed Int.max).
    public static func fields(_ name: String, _ count: InterleavingCount) -> [(String, JSON)] {
        [(name, .int64(count.value)), (name + "Exact", .bool(count.isExact))]
    }

    /// What `explore --format json` prints: the scenario and each version's exploration.
    public static func document(_ scenario: Scenario, explorations: [JSON]) -> JSON {
        .object([("scenario", .string(scenario.name)), ("title", .string(scenario.title)), ("explorations", .array(explorations))])
    }

    public func render(_ result: Exploration, version: String?, counterexample: Counterexample?) -> JSON {
        // The one verdict (`Exploration.verdict`): a data race fails a version too.
        let verdict: String =
            switch result.verdict() {
            case .proven, .passesUnexpectedly: "proven"
            case .fails, .failsAsExpected: "fails"
            case .notExhaustive: "not exhaustive"
            }
        let outcomes: [JSON] = result.outcomes.map { count in
            .object(
                [
                    ("state", .string(count.outcome.state)),
                    ("end", .string(count.outcome.end.rawValue)),
                    ("findings", .array(count.outcome.findings.map { .string($0.rawValue) })),
                    ("failedChecks", .array(count.outcome.failedChecks.map { .string(program.expectations[$0].message) })),
                    ("facts", .array(count.outcome.facts.map(JSON.string))),
                    ("executions", .int(count.executions)),
                ] + Self.fields("interleavings", count.interleavings) + [
                    ("schedule", .string(count.schedule.text))
                ])
        }
        let checks: [JSON] = program.expectations.indices.map { index in
            let failing = result.interleavings { $0.failedChecks.contains(index) }
            return .object(
                [
                    ("check", .string(program.expectations[index].message)),
                    ("holds", .bool(failing == .zero)),
                ] + Self.fields("failingInterleavings", failing))
        }
        let races: [JSON] = result.dataRaces.map { race in
            func side(_ side: DataRace.Side) -> JSON {
                .object([
                    ("thread", .string(side.thread)), ("kind", .string(side.kind.rawValue)),
                    ("line", side.line.map(JSON.int) ?? .null), ("step", .int(side.step)),
                ])
            }
            return .object([("target", .string(race.target)), ("first", side(race.first)), ("second", side(race.second))])
        }
        let inversions: [JSON] = result.lockInversions.map { inversion in
            .array(
                inversion.edges.map { edge in
                    .object([
                        ("held", .string(edge.held)), ("taken", .string(edge.taken)), ("thread", .string(edge.thread)),
                        ("line", edge.line.map(JSON.int) ?? .null),
                    ])
                })
        }
        var example = JSON.null
        if let counterexample {
            let why: JSON =
                counterexample.why.map {
                    .object([
                        ("first", .int($0.first + 1)), ("second", .int($0.second + 1)), ("what", .string($0.what)),
                        ("otherwise", .string($0.otherwise)),
                    ])
                } ?? .null
            example = .object([
                ("schedule", .string(counterexample.schedule.text)),
                ("preemptions", .int(counterexample.preemptions)),
                ("decisiveSteps", why),
            ])
        }
        return .object(
            [
                ("version", version.map(JSON.string) ?? .null),
                ("search", .string(Words.searchColumn(result))),
                ("searchReason", result.searchReason.map { .string(Words.searchReason($0)) } ?? .null),
                ("weakOrderings", .array(result.weakOrderings.map { .string("." + $0.name) })),
                ("orderingNote", result.orderingNote.map(JSON.string) ?? .null),
                ("reduction", .string(result.search == .stateful ? (result.sleepSets ? "sleep-sets" : "none") : result.reduction.rawValue)),
                ("verdict", .string(verdict)),
                ("exhaustive", .bool(result.isExhaustive)),
                ("cut", result.cut.map { .string("not exhaustive: \($0)") } ?? .null),
                ("cutBound", result.cut.map { .string($0.bound) } ?? .null),
                ("executions", .int(result.executions)),
                ("sleepBlocked", .int(result.sleepBlocked)),
            ] + stateful(result) + Self.fields("interleavings", result.interleavings) + [
                ("findings", .array(result.findingKinds.map { .string($0.rawValue) })),
                ("checks", .array(checks)),
                ("outcomes", .array(outcomes)),
                ("dataRaces", .array(races)),
                ("lockInversions", .array(inversions)),
                ("livelock", livelock(result.livelock)),
                ("counterexample", example),
            ])
    }

    /// The stateful search's graph, and what its counts are (nothing under DPOR).
    func stateful(_ result: Exploration) -> [(String, JSON)] {
        guard result.search == .stateful else { return [] }
        return [
            ("states", .int(result.states)), ("transitions", .int(result.transitions)), ("depth", .int(result.depth)),
            ("memoryBytes", .int(result.memory)),
            ("counts", .string(result.countsInterleavings ? "interleavings" : "final states")),
            ("hasCycle", .bool(result.hasCycle)), ("livelockChecked", .bool(result.livelockChecked)),
            ("growing", .array(result.growing.map(JSON.string))),
        ]
    }

    func livelock(_ livelock: Livelock?) -> JSON {
        guard let livelock else { return .null }
        return .object([
            ("prefix", .string(livelock.prefix.text)),
            ("cycle", .string(livelock.cycle.text)),
            ("progressMarked", .bool(livelock.progressMarked)),
        ])
    }
}
