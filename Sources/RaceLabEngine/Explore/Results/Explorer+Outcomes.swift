/// Recording complete executions: the outcome histogram.
extension Explorer {
    /// An outcome as `record` compares it, without its text: each shared variable's
    /// final value (an object by its name), how the run ended, what it broke. Most
    /// executions reach an outcome seen before, and need no text at all.
    struct OutcomeKey: Equatable {
        enum Atom: Equatable {
            case value(Value)
            case object(String)
            /// An array or closure holding references, as the trace shows it.
            case text(String)
        }

        var atoms: [Atom]
        var end: Run.End
        var findings: [Finding.Kind]
        var failedChecks: [Int]
        /// Instances created, by class.
        var created: [Int]
        /// Each dead instance of a main-thread-only class and where it was deallocated.
        var deallocations: [Deallocation]
    }

    struct Deallocation: Equatable {
        var object: ObjectID
        var thread: ThreadID
    }

    /// Where each instance of a main-thread-only class was deallocated, in object order.
    func deallocations(_ world: World) -> [Deallocation] {
        guard engine.program.classes.contains(where: { $0.mainThreadOnly }) else { return [] }
        var result: [Deallocation] = []
        for (id, object) in world.heap.enumerated() {
            guard let index = object.classIndex, engine.program.classes[index].mainThreadOnly,
                let thread = world.headers[id].deallocatedOn
            else { continue }
            result.append(Deallocation(object: id, thread: thread))
        }
        return result
    }

    /// `2 MySingle created`, `ViewController#1 deallocated on worker`: see `Outcome.facts`.
    func facts(_ world: World, _ deallocations: [Deallocation]) -> [String] {
        var facts: [String] = []
        for (index, count) in world.created.enumerated() where count > 0 {
            facts.append("\(count) \(engine.program.classes[index].name) created")
        }
        for deallocation in deallocations {
            facts.append("\(world.heap[deallocation.object].name) deallocated on \(world.threadNames[deallocation.thread])")
        }
        return facts
    }

    /// The values an outcome shows: each shown shared variable, then each `var` field
    /// of an actor that a `let` shared variable holds (its isolated state).
    func outcomeTerms(_ world: World) -> [(name: String, value: Value)] {
        variables.map { (name: engine.program.globals[$0].name, value: world.globals[$0]) } + engine.program.actorState(in: world)
    }

    func atom(_ value: Value, in world: World) -> OutcomeKey.Atom {
        switch value {
        case .object(let id) where world.heap[id].kind == .atomic: return .value(world.heap[id].fields[0])
        case .object(let id): return .object(world.heap[id].name)
        case .array, .closure: return value.hasReferences ? .text(world.describe(value, elided: false)) : .value(value)
        // A weak reference is its object while that lives and nil after.
        case .weak: return atom(world.resolve(value), in: world)
        default: return .value(value)
        }
    }

    /// The states the next interleaving count may visit: counting must never cost more
    /// than a fraction of the search it counts, so after `countingStart` states (about
    /// a millisecond; every shipped scenario and exercise but two needs fewer than
    /// 8,000 in all, so their counts are exact) it earns one state per step the search
    /// took (tree and replay steps), and spends what it visits; unspent states carry
    /// over. A state costs a fraction of a search step (about 125 ns against 1–2 µs),
    /// so counting adds well under 20% to a search (docs/PERFORMANCE.md measures it).
    /// Past the allowance a count is a lower bound ("at least …").
    func countingAllowance(_ result: Exploration) -> Int {
        max(0, Self.countingStart + Self.countingPerStep * (result.steps + result.reversalSteps) - result.countingStates)
    }

    static let countingStart = 10_000
    static let countingPerStep = 1

    /// Adds one complete execution to the totals; `keys` are the outcomes' keys, in
    /// the order of `result.outcomes`.
    func record(_ world: World, trace: Trace, into result: inout Exploration, keys: inout [OutcomeKey]) {
        let ending = engine.conclude(world)
        if ending.isFailure && trace.threads.count < (result.shortestFailure?.count ?? Int.max) {
            result.shortestFailure = Schedule(trace.threads.map { world.threadNames[$0] })
        }
        var count = InterleavingCount(1)
        if config.reduction == .dpor {
            count =
                config.countInterleavings
                ? trace.linearizations(stateLimit: countingAllowance(result), visited: &result.countingStates) : .atLeast(1)
        }
        let index = outcomeIndex(world, ending, into: &result, keys: &keys) { Schedule(trace.threads.map { world.threadNames[$0] }) }
        result.interleavings += count
        result.outcomes[index].executions += 1
        result.outcomes[index].interleavings += count
    }

    /// The index in `result.outcomes` of the outcome `world` reached, which is added
    /// (with no executions yet, and the schedule `schedule` gives) when new.
    func outcomeIndex(
        _ world: World, _ ending: Engine.Conclusion, into result: inout Exploration, keys: inout [OutcomeKey], schedule: () -> Schedule
    ) -> Int {
        let (end, kinds, failedChecks) = (ending.end, ending.kinds, ending.failedChecks)
        let deallocated = deallocations(world)
        let terms = outcomeTerms(world)
        let index = keys.firstIndex { key in
            key.end == end && key.findings == kinds && key.failedChecks == failedChecks && key.created == world.created
                && key.deallocations == deallocated
                && key.atoms.count == terms.count && zip(terms, key.atoms).allSatisfy { atom($0.value, in: world) == $1 }
        }
        if let index { return index }
        let facts = facts(world, deallocated)
        var state = terms.map { "\($0.name) = \(world.describe($0.value))" }.joined(separator: ", ")
        // Shortened values can look alike: two different outcomes never print the same line.
        if result.outcomes.contains(where: {
            $0.outcome.state == state && $0.outcome.end == end && $0.outcome.findings == kinds && $0.outcome.facts == facts
        }) {
            state = terms.map { "\($0.name) = \(world.describe($0.value, elided: false))" }.joined(separator: ", ")
        }
        var outcome = Outcome(state: state, end: end, findings: kinds, failedChecks: failedChecks)
        outcome.facts = facts
        result.outcomes.append(.init(outcome: outcome, executions: 0, interleavings: .zero, schedule: schedule()))
        keys.append(
            OutcomeKey(
                atoms: terms.map { atom($0.value, in: world) }, end: end, findings: kinds,
                failedChecks: failedChecks, created: world.created, deallocations: deallocated))
        return result.outcomes.count - 1
    }
}
