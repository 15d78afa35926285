import RaceLabLanguage

/// The stateful search under way (`StatefulSearch.start`): all it holds between two
/// states it expands, so that it can stop after one and go on later where it stopped
/// (`Explorer.exploreChoosing` takes turns between the two searches without starting
/// either again).
extension StatefulSearch {
    struct Run {
        let search: StatefulSearch
        var result: Exploration
        /// Whether it is over: explored to the end, or cut by a bound.
        var ended = false
        let deadline: Deadline?
        let initial: World
        /// The walk: the states stored, the graph, the states waiting.
        var states: ReachableStates<SleepMark>
        /// What each step in the graph did, for the race detector.
        var effects = StepEffects()
        var sleep = StateSleepSets()
        var keys: [Explorer.OutcomeKey] = []
        var seenRaces = Explorer.SeenRaces()
        var expanded = 0
        /// The number of states stored when the first failure (a failing outcome or a
        /// data race) was met.
        var storedAtFailure: Int?
        /// The most the store, graph, sleep sets and waiting worlds held together.
        var peakMemory = 0
        var depthCut = false
        /// The sizes the states at the search's edge reach, to name what keeps growing.
        var growth: GrowthWatch
        /// The states stored at each depth (breadth first: every level but the last
        /// is complete).
        var levels: [Int] = [1]

        var store: StateStore { states.store }

        /// What the search has cost, counted without the clock: a step, and a step for
        /// each 512 bytes encoded (a world with a long array costs more to store).
        var work: Int { result.steps &+ states.encodedBytes / 512 }

        private var engine: Engine { search.engine }
        private var config: ExploreConfig { search.config }
        private var explorer: Explorer { search.explorer }
        private var sleepSets: Bool { search.sleepSets }
        private var visit: ((World) -> Void)? { search.visit }

        /// Goes on until the search is over, or until its `work` reaches `budget`
        /// (looked at after each state expanded); `progress` may cut it (`.stopped`).
        mutating func resume(progress: Explorer.Progress?, until budget: Int = .max) {
            guard !ended else { return }
            let log = EventLog(narrate: false), blockLog = EventLog(narrate: false)
            var stepped: [(thread: ThreadID, accesses: [Access], line: Int?)] = []
            search: while let pending = states.next() {
                if let margin = config.failureMargin, let at = storedAtFailure, store.count - at >= margin {
                    result.cut = .afterFailure(margin, .states)
                    break search
                }
                let state = pending.state, world = pending.world, depth = pending.depth
                let enabled = world.halted ? 0 : engine.runnableMask(world)
                if enabled == 0 {
                    // A revisit of a final state has nothing to run (no step sleeps there).
                    guard states.graph.final[state] < 0 else { continue }
                    let index = explorer.outcomeIndex(world, engine.conclude(world), into: &result, keys: &keys) { [] }
                    states.graph.final[state] = Int32(index)
                    result.outcomes[index].executions += 1
                    result.executions += 1
                    if storedAtFailure == nil, result.hasFailed { storedAtFailure = store.count }
                    continue
                }
                if depth >= config.maxSteps {
                    // Every state this near the start is explored; what lies further is not.
                    depthCut = true
                    growth.add(world)
                    continue
                }
                states.graph.beginEdges(of: state)
                stepped.removeAll(keepingCapacity: true)
                // The steps asleep for the children: the ones asleep here, then each step
                // taken here, in the order taken.
                var done = pending.mark.asleep
                var bits = enabled & (pending.mark.revisit ?? ~StateSleepSets.threads(pending.mark.asleep))
                while bits != 0 {
                    let thread = bits.trailingZeroBitCount
                    bits &= bits - 1
                    var next = world
                    let threadCount = world.threads.count
                    engine.quietStep(&next, thread: thread, log: log)
                    result.steps += 1
                    let line = log.range?.start.line
                    var spawns: UInt64 = 0
                    for spawned in threadCount..<next.threads.count { spawns |= 1 << UInt64(spawned) }
                    var effect: UInt32 = 0
                    if config.detectRaces {
                        if log.accesses.contains(where: Trace.isData) { stepped.append((thread, log.accesses, line)) }
                        if log.accesses.contains(where: { $0.kind == .acquire }) {
                            explorer.recordLockOrder(heldBefore: world.headers, after: next, thread: thread, accesses: log.accesses, line: line, into: &result)
                        }
                        effect = effects.number(
                            StepEffects.Effect(
                                thread: thread, accesses: log.accesses.filter { Trace.isData($0) || Trace.isSync($0) }, line: line ?? -1,
                                spawned: spawns))
                    }
                    // Under the reduction, the blocks on held locks this step leaves pending
                    // are taken with it (`Engine.takePendingBlocks`): part of the step, for
                    // sleep sets, but no access of this thread's for the race detector.
                    let blocks = sleepSets ? engine.takePendingBlocks(&next, log: blockLog).accesses : []
                    let target: Int, isNew: Bool
                    switch states.reach(next, from: state, thread: thread, progress: log.progressed, effect: effect) {
                    case .new(let stored): (target, isNew) = (stored, true)
                    case .known(let stored): (target, isNew) = (stored, false)
                    case .tooManyThreads, .overBudget:
                        result.cut = .threadLimit(Engine.threadCap)
                        break search
                    }
                    if isNew {
                        visit?(next)
                        if levels.count == depth + 1 { levels.append(0) }
                        levels[depth + 1] += 1
                    }
                    guard sleepSets else {
                        if isNew { states.enqueue(target, next, depth: depth + 1, mark: SleepMark()) }
                        continue
                    }
                    let step = WakeupStep(thread: thread, accesses: StepAccesses(log.accesses + blocks), halts: next.halted, spawns: spawns)
                    let asleep = done.filter { !$0.step.isDependent(step) }
                    let threads = StateSleepSets.threads(asleep)
                    if isNew {
                        sleep.addState(asleep: threads)
                        states.enqueue(target, next, depth: depth + 1, mark: SleepMark(asleep: asleep))
                    } else if let wake = sleep.revisit(target, asleep: threads) {
                        states.enqueue(target, next, depth: depth + 1, mark: SleepMark(asleep: asleep, revisit: wake))
                    }
                    done.append(Sleeper(step: step, line: line))
                }
                if config.detectRaces {
                    // A sleeping step can run here too: it races with what it conflicts with.
                    for sleeper in pending.mark.asleep where sleeper.step.accesses.contains(where: Trace.isData) {
                        stepped.append((sleeper.step.thread, Array(sleeper.step.accesses), sleeper.line))
                    }
                    if stepped.count > 1 { explorer.recordCoenabledRaces(stepped, at: depth, world: world, seen: &seenRaces, into: &result) }
                    if storedAtFailure == nil, result.hasFailed { storedAtFailure = store.count }
                }
                if store.count >= config.maxStates {
                    result.cut = .stateBound(config.maxStates)
                    break search
                }
                let held = states.bytes + effects.bytes + sleep.bytes
                peakMemory = max(peakMemory, held)
                if held > config.maxStateMemory {
                    result.cut = .memoryBound(config.maxStateMemory)
                    break search
                }
                // Every 1,024 states expanded (not stored: a stretch of states seen before
                // stores none, and the clock must still be read).
                expanded += 1
                if expanded & 1023 == 0 {
                    if let deadline, deadline.hasPassed(keepingShareForCounterexample: false) {
                        result.cut = .timeLimit(deadline.seconds)
                        break search
                    }
                    result.states = store.count
                    if let progress, !progress(result) {
                        result.cut = .stopped
                        break search
                    }
                }
                if work >= budget {
                    result.states = store.count
                    return
                }
            }
            ended = true
            finish()
        }

        /// The report, once the search is over.
        private mutating func finish() {
            if result.cut == nil, depthCut { result.cut = .depthBound(config.maxSteps) }
            // What keeps growing explains a budget's cut; one past a race explains itself.
            if let cut = result.cut, result.failingExecutions == 0, !cut.isAfterFailure {
                for world in states.waiting { growth.add(world) }
                result.growing = growth.grown
            }
            result.states = store.count
            result.transitions = states.graph.edgeCount
            let held = states.store.bytes + effects.bytes + states.graph.bytes + sleep.bytes
            result.memory = max(peakMemory, held)
            assert(states.graph.isConsistent(complete: result.cut == nil && !sleepSets), "the state graph breaks its invariants")
            assert(states.store.isConsistent(), "the state store breaks its invariants")
            search.finishStateful(
                &result, graph: states.graph, initial: initial, complete: result.cut == nil, races: (effects, deadline, held), seen: &seenRaces)
        }

        /// The states a search of a program whose executions take at most `longest` steps
        /// will store, estimated from the levels so far, as interleavings spread: the
        /// levels grow to a widest one and shrink as threads finish. Past the widest
        /// level, what is left mirrors what came before it. Before it, the growth from
        /// level to level slows as it did over the last complete levels, until it stops
        /// (or half the depth is reached: a spin makes executions longer than the
        /// levels are deep), and the levels after mirror those before.
        func estimatedStates(longest: Int) -> Int {
            let complete = Array(levels.dropLast())
            guard complete.count >= 4 else { return Int.max }
            if let widest = complete.indices.dropFirst().first(where: { complete[$0] < complete[$0 - 1] }).map({ $0 - 1 }) {
                return 2 * complete[...widest].reduce(0, +) - complete[widest]
            }
            var sizes = complete.map(Double.init)
            let n = sizes.count
            // The growth from level to level, and how much it fell over the last level
            // (as a factor: no logarithms in the engine, which builds for the browser).
            var growth = sizes[n - 1] / max(1, sizes[n - 2])
            let slowing = max(sizes[n - 2] / max(1, sizes[n - 3]) / growth, 1 + (growth - 1) / 8, 1.01)
            while sizes.count < max(longest / 2 + 1, n + 1) && growth > 1 {
                sizes.append(sizes[sizes.count - 1] * growth)
                growth /= slowing
            }
            let estimate = 2 * sizes.reduce(0, +) - sizes[sizes.count - 1]
            return estimate >= Double(Int.max / 2) ? Int.max : Int(estimate)
        }
    }
}
