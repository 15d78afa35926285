/// The races two conflicting steps that can both run from one state do not show,
/// read off the finished graph: each access is followed from every step that makes it
/// along every path, with what the threads know of it (`HappensBefore`), and a step
/// of another thread that does not know it and conflicts with it races with it. The
/// walk takes no steps of the engine: the graph keeps what each step did
/// (`StepEffects`). A path ends where the access's thread makes it again (the walk
/// from that step goes on for it), or where every thread it could still race with (in
/// a race not reported yet) knows it; a walk ends once every race it could make is
/// reported. It runs only where the search's own races may not be all
/// (`needsOrderedRaces`).
///
/// The walk is bounded as the search is: by the clock (`deadline`) and by the memory
/// budget, counting what the search still holds (`held`) and the states a walk has
/// seen; reaching either cuts the search (the races found so far stand).
extension StatefulSearch {
    /// One access as a race report tells it apart: its thread, the access, its line.
    private struct Made: Hashable {
        var thread: ThreadID
        var access: Access
        var line: Int
    }

    /// What the threads may know of an access, each numbered once, and what a step
    /// makes of each (the same for every access followed): a state on a walk is its
    /// number and the number of what is known there, in one `UInt64`.
    private struct Knowledge {
        let atomicsMeetLocks: Bool
        private var values: [HappensBefore] = []
        private(set) var knowers: [UInt64] = []
        private var numbers: [HappensBefore: UInt32] = [:]
        private var after: [UInt64: UInt32] = [:]

        init(atomicsMeetLocks: Bool) {
            self.atomicsMeetLocks = atomicsMeetLocks
        }

        mutating func number(_ known: HappensBefore) -> UInt32 {
            if let number = numbers[known] { return number }
            let number = UInt32(values.count)
            values.append(known)
            knowers.append(known.knowers)
            numbers[known] = number
            return number
        }

        /// What is known after step `effect` (numbered `number`), from what `known` says.
        mutating func after(_ known: UInt32, _ effect: StepEffects.Effect, number: UInt32) -> UInt32 {
            let key = UInt64(known) << 32 | UInt64(number)
            if let next = after[key] { return next }
            var value = values[Int(known)]
            value.step(effect.thread, syncs: effect.accesses.lazy.filter(Trace.isSync), spawned: effect.spawned, atomicsMeetLocks: atomicsMeetLocks)
            let next = self.number(value)
            after[key] = next
            return next
        }
    }

    /// What a state on a walk holds, estimated: its slot in the set (at most three
    /// quarters full) and in the list waiting.
    private static let visitBytes = 32

    /// Whether the races two steps enabled in one state show may not be all: when
    /// they show one (the others may lie behind it, as `data` behind the plain flag);
    /// when a run fails (a failure can stop every run before a race comes side by
    /// side: two `critical` sections writing one variable); and where something that
    /// is not synchronization decides which of two steps runs first
    /// (`HappensBefore.isNeeded`). Elsewhere a program with a race has two
    /// conflicting steps enabled in one state (the first race of any execution can be
    /// brought side by side), so none shown means none, and the walk would find none.
    func needsOrderedRaces(_ result: Exploration) -> Bool {
        !result.dataRaces.isEmpty || result.outcomes.contains(where: { $0.outcome.isFailure }) || HappensBefore.isNeeded(for: engine.program)
    }

    func recordOrderedRaces(
        graph: StateGraph, tree: StateGraph.Tree, effects: StepEffects, initial: World, deadline: Deadline?, held: Int,
        seen: inout Explorer.SeenRaces, into result: inout Exploration
    ) {
        // The accesses made, in the order first met, and the steps that make each.
        var made: [Made] = []
        var madeNumbers: [Made: Int] = [:]
        // By effect: the accesses it makes.
        var madeBy: [[Int]] = []
        for effect in effects.table {
            var numbers: [Int] = []
            for access in effect.accesses where Trace.isData(access) {
                let key = Made(thread: effect.thread, access: access, line: effect.line)
                if let number = madeNumbers[key] {
                    numbers.append(number)
                } else {
                    madeNumbers[key] = made.count
                    numbers.append(made.count)
                    made.append(key)
                }
            }
            madeBy.append(numbers)
        }
        guard !made.isEmpty else { return }
        var starts = [[Int32]](repeating: [], count: made.count)
        var startCount = 0
        for state in 0..<graph.stateCount {
            for edge in graph.edges(of: state) {
                for number in madeBy[Int(graph.effect(edge))] { starts[number].append(Int32(edge)) }
                startCount += madeBy[Int(graph.effect(edge))].count
            }
        }
        let held = held + startCount * 4
        var taken = 0
        var knowledge = Knowledge(atomicsMeetLocks: engine.program.codes.contains { $0.instructions.contains(.monitorEnter) })
        let log = EventLog(narrate: false)
        func key(_ a: Made, _ b: Made) -> Explorer.RaceKey {
            Explorer.RaceKey(a.access, by: a.thread, line: a.line < 0 ? nil : a.line, b.access, by: b.thread, line: b.line < 0 ? nil : b.line)
        }
        for (number, access) in made.enumerated() {
            // What it can race with: another thread's conflicting access.
            let partners = made.filter {
                $0.thread != access.thread && $0.access.targetBits == access.access.targetBits && !($0.access.isRead && access.access.isRead)
            }
            // The threads it can still race with, as a race not reported yet: a path
            // where they all know it can show no more.
            func unknowing() -> UInt64 {
                partners.reduce(0) { seen.contains(key(access, $1)) ? $0 : $0 | 1 << UInt64($1.thread) }
            }
            var open = unknowing()
            guard open != 0 else { continue }
            var visited: Set<UInt64> = []
            var waiting: [UInt64] = []
            let fresh = knowledge.number(HappensBefore(madeBy: access.thread))
            for edge in starts[number].lazy.map(Int.init) {
                let known = knowledge.after(fresh, effects[graph.effect(edge)], number: graph.effect(edge))
                let visit = UInt64(graph.target(edge)) << 32 | UInt64(known)
                if visited.insert(visit).inserted { waiting.append(visit) }
            }
            walk: while let visit = waiting.popLast() {
                taken += 1
                if taken & 1023 == 0 {
                    let bytes = held + (visited.count + waiting.count) * Self.visitBytes
                    result.memory = max(result.memory, bytes)
                    if bytes > config.maxStateMemory {
                        result.cut = result.cut ?? .memoryBound(config.maxStateMemory)
                        return
                    }
                    if let deadline, deadline.hasPassed(keepingShareForCounterexample: false) {
                        result.cut = result.cut ?? .timeLimit(deadline.seconds)
                        return
                    }
                }
                let state = Int(visit >> 32), known = UInt32(truncatingIfNeeded: visit)
                let knowers = knowledge.knowers[Int(known)]
                if open & ~knowers == 0 { continue }
                for edge in graph.edges(of: state) {
                    let effect = effects[graph.effect(edge)]
                    let thread = effect.thread
                    if knowers & 1 << UInt64(thread) == 0 {
                        for other in effect.accesses where Trace.isData(other) {
                            let step = Made(thread: thread, access: other, line: effect.line)
                            guard other.targetBits == access.access.targetBits, !(other.isRead && access.access.isRead) else { continue }
                            guard !seen.contains(key(access, step)) else { continue }
                            // Named in a world the step is taken in: a shortest way to the state.
                            var world = replay(tree.path(to: state, in: graph), from: initial, reduced: result.sleepSets, log: log).0
                            engine.quietStep(&world, thread: thread, log: log)
                            explorer.recordOrderedRace(
                                (access.thread, access.access, access.line < 0 ? nil : access.line),
                                (thread, other, effect.line < 0 ? nil : effect.line), at: Int(tree.distance[state]), world: world,
                                seen: &seen, into: &result)
                            open = unknowing()
                            if open == 0 { break walk }
                        }
                    }
                    // The thread makes the access again: the walk from that step follows it.
                    if thread == access.thread && madeBy[Int(graph.effect(edge))].contains(number) { continue }
                    let next = UInt64(graph.target(edge)) << 32 | UInt64(knowledge.after(known, effect, number: graph.effect(edge)))
                    if visited.insert(next).inserted { waiting.append(next) }
                }
            }
        }
    }
}
