import RaceLabEngine

/// What a program does to its shared state, apart from how it is written: the set of
/// its outcomes, each as how the run ended, what it left behind (instances created,
/// where a main-thread-only object died) and the values of its shared variables.
/// The spoiler guard compares behaviours to recognise a break-it or predict-it
/// exercise's program wherever it appears (docs/TEACHING.md, "What the guard
/// holds"), so a behaviour forgets what a copy can change without changing what the
/// explorer would print as the answer:
///
/// - names: a class is "object", a thread other than main is "thread", and a
///   variable's name is dropped (each outcome's values are a sorted multiset), so
///   renaming and reordering declarations change nothing; and a value's containers
///   (`[2]` for `2`);
/// - checks and findings: an `expect` deleted or reworded leaves the outcomes, and
///   their schedules, as they were;
/// - what stays is specific: under DPOR each outcome carries the number of
///   Mazurkiewicz traces that reach it, which none of the disguises changes;
/// - padding: a variable with one value in every outcome is left out (an unused
///   one), and a dead statement or a thread that touches nothing shared adds no
///   outcome.
///
/// Two programs with one behaviour may differ (a behaviour is a fingerprint, not a
/// proof of sameness); the shipped scenarios are tested to differ from every
/// guarded exercise.
public struct Behaviour: Hashable, Sendable {
    /// Each outcome: its end, its facts, then its values, each part sorted; sorted.
    public let outcomes: [[String]]

    /// What exploring the program took.
    public let size: Size

    public init(outcomes: [[String]], size: Size) {
        self.outcomes = outcomes
        self.size = size
    }

    /// A file's text as a number (64-bit FNV-1a of its UTF-8): how the guard knows a
    /// shipped scenario without reading the disk (`ShippedBehaviours`).
    public static func textHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// The bounds of a behaviour's exploration, or what one took: complete
    /// executions (the stateless search), distinct states (the stateful one), and
    /// steps in the longest run that reaches an outcome.
    public struct Size: Hashable, Sendable {
        public var executions: Int
        public var states: Int
        public var steps: Int

        public init(executions: Int, states: Int, steps: Int) {
            self.executions = executions
            self.states = states
            self.steps = steps
        }

        /// Room for every small program: an exercise's own exploration.
        public static let exercise = Size(executions: 20_000, states: 20_000, steps: 2_000)

        /// The bounds within which a copy of programs of these sizes is looked for:
        /// a few times the largest, so padding fits and a large program costs little.
        public static func room(for sizes: [Size]) -> Size {
            Size(
                executions: 4 * (sizes.map({ $0.executions }).max() ?? 0) + 100, states: 4 * (sizes.map({ $0.states }).max() ?? 0) + 100,
                steps: 2 * (sizes.map({ $0.steps }).max() ?? 0) + 50)
        }
    }

    /// The behaviour of `program`, or nil when exploring it needs more than
    /// `bounds` (it is not a small exercise's program, nor a copy of one).
    /// `constants`: keep the variables that end with one value in every outcome. The
    /// guard drops them (an unused variable is padding); telling two correct
    /// programs apart, each with a single outcome, needs them.
    public static func of(_ program: Program, within bounds: Size = .exercise, constants: Bool = false) -> Behaviour? {
        // The search is chosen by the program alone, never by which of two finishes
        // first: the stateful search where `SearchPlan` forces it (progress marks,
        // spurious wakeups, a strict-priority scheduler), else DPOR (which counts
        // each outcome's traces) where every run ends, else the stateful search.
        var config = ExploreConfig().everyOutcome
        var asked = config
        asked.search = .automatic
        config.search = SearchPlan.resolve(asked, for: program).config.search == .stateful ? .stateful : .stateless
        config.countInterleavings = false
        config.timeLimit = nil
        config.maxExecutions = bounds.executions
        config.maxStates = bounds.states
        config.maxSteps = bounds.steps
        config.maxStateMemory = 64 << 20
        // A run past the step bound stops DPOR: the program may loop for ever.
        var exploration = Analysis.of(program, config: config, needs: .init(counterexample: false)) {
            $0.outcomes.allSatisfy { $0.outcome.end != .stepLimit }
        }.exploration
        if exploration.outcomes.contains(where: { $0.outcome.end == .stepLimit }) {
            config.search = .stateful
            exploration = Analysis.of(program, config: config, needs: .init(counterexample: false)).exploration
        }
        guard exploration.cut == nil, exploration.outcomes.allSatisfy({ $0.outcome.end != .stepLimit }) else { return nil }
        let shared = program.globals.indices.filter { !program.globals[$0].isLet }
        var rows: [(head: [String], values: [String])] = []
        for entry in exploration.outcomes {
            var scheduler = FixedScheduler(entry.schedule)
            guard let run = try? Runner(program: program, maxSteps: config.maxSteps).run(&scheduler) else { return nil }
            let names = anonymous(program, threads: run.world.threadNames)
            // The shared variables, then the actors' state (by position: names are forgotten).
            let state = shared.map { run.world.globals[$0] } + program.actorState(in: run.world).map({ $0.value })
            let values = state.map { plain(rename(run.world.describe($0, elided: false), names)) }
            // Under DPOR, how many Mazurkiewicz traces reach the outcome: no rename,
            // reordering, dead statement, unused variable or thread that touches
            // nothing shared changes it, and it tells programs with like outcomes apart.
            let traces = exploration.search == .stateless && exploration.reduction == .dpor ? ["\(entry.executions) traces"] : []
            let head = [entry.outcome.end.rawValue] + traces + entry.outcome.facts.map { rename($0, names) }.sorted()
            rows.append((head, values))
        }
        // A variable that ends with one value in every outcome tells none apart.
        let columns = rows.first?.values.indices ?? 0..<0
        let varying = columns.filter { column in constants || Set(rows.map { $0.values[column] }).count > 1 }
        let outcomes = Set(rows.map { row in row.head + varying.map { row.values[$0] }.sorted() })
        let size = Size(
            executions: exploration.executions, states: exploration.states,
            steps: exploration.outcomes.map({ $0.schedule.count }).max() ?? 0)
        return Behaviour(outcomes: outcomes.sorted { $0.lexicographicallyPrecedes($1) }, size: size)
    }

    /// Two behaviours are one when their outcomes are: what it took to find them is
    /// no part of it.
    public static func == (a: Behaviour, b: Behaviour) -> Bool { a.outcomes == b.outcomes }
    public func hash(into hasher: inout Hasher) { hasher.combine(outcomes) }

    /// What each name a copy may rename becomes: classes "object", threads other
    /// than main (declared or spawned) "thread".
    static func anonymous(_ program: Program, threads: [String]) -> [String: String] {
        var names: [String: String] = [:]
        for type in program.classes { names[type.name] = "object" }
        for thread in threads where thread != "main" { names[thread] = "thread" }
        return names
    }

    /// A value's text without its containers and spacing: `[2]` and `2` are one
    /// value, so wrapping a variable in an array changes no behaviour.
    static func plain(_ text: String) -> String {
        text.filter { !"[]() ".contains($0) }
    }

    /// `text` with each identifier in `names` replaced by what it maps to.
    static func rename(_ text: String, _ names: [String: String]) -> String {
        var result = ""
        var word = ""
        func flush() {
            result += names[word] ?? word
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
