import Foundation

/// Visits every interleaving of a program, depth first, keeping one world per level
/// of the search (memory grows with depth, not with the number of executions).
///
/// With `.dpor` it runs source-set DPOR with sleep sets (Abdulla, Aronis, Jonsson and
/// Sagonas, POPL 2014): after each step it finds the races of that step with earlier
/// ones (dependent, different threads, not ordered through a third step) and adds a
/// thread to the backtrack set where the race began, so the reversed order is tried.
/// Sleep sets keep two explored executions from being the same trace.
public struct Explorer {
    public let engine: Engine
    public let config: ExploreConfig

    public init(program: Program, config: ExploreConfig = ExploreConfig()) {
        engine = Engine(program: program, localBudget: 10_000)
        self.config = config
    }

    /// Called after every complete execution with the running totals; return false to stop.
    public typealias Progress = (Exploration) -> Bool

    struct Node {
        var world: World
        var enabled: [ThreadID]
        /// Threads to run from here (DPOR adds to it as races are found), as a bit set.
        var backtrack: UInt64 = 0
        var done: UInt64 = 0
        /// Threads whose step from here is known to lead only to explored traces, with that step's accesses.
        var sleep: [(thread: ThreadID, accesses: [Access])] = []
        /// The thread being explored from here, and its step's accesses.
        var current: (thread: ThreadID, accesses: [Access])?
        var preemptions = 0
        var last: ThreadID?

        func isAsleep(_ thread: ThreadID) -> Bool { sleep.contains { $0.thread == thread } }
    }

    public func explore(progress: Progress? = nil) -> Exploration {
        explore(progress: progress, visit: nil)
    }

    /// `visit` sees the trace of every complete execution (the tests' oracle uses it).
    func explore(progress: Progress?, visit: ((Trace) -> Void)?) -> Exploration {
        var result = Exploration(reduction: config.reduction)
        let start = Date()
        var trace = Trace()
        var seenRaces: Set<RaceKey> = []
        let initial = engine.initialWorld()
        var stack: [Node] = []
        guard initial.threads.count <= 64 else {
            result.cut = "not exhaustive: more than 64 threads"
            return result
        }
        var root = Node(world: initial, enabled: engine.runnableThreads(initial))
        if root.enabled.isEmpty {
            result.executions = 1
            record(root.world, trace: trace, into: &result)
            return result
        }
        root.backtrack = initialBacktrack(root)
        stack.append(root)
        search: while !stack.isEmpty {
            let depth = stack.count - 1
            trace.truncate(to: depth)
            guard let thread = nextChoice(stack[depth]) else {
                stack.removeLast()
                if let parent = stack.indices.last { finish(&stack[parent]) }
                continue
            }
            if let bound = config.preemptionBound, isPreemption(stack[depth], thread), stack[depth].preemptions >= bound {
                stack[depth].done |= 1 << UInt64(thread)
                if result.cut == nil { result.cut = "not exhaustive: preemption bound \(bound)" }
                continue
            }
            let (world, accesses, range) = engine.quietStepWithRange(stack[depth].world, thread: thread)
            result.steps += 1
            stack[depth].current = (thread, accesses)
            let created = Array(stack[depth].world.threads.count..<world.threads.count)
            trace.append(thread: thread, accesses: accesses, halts: world.halted, creates: created, range: range, detectRaces: config.detectRaces)
            if config.detectRaces {
                recordRaces(depth, trace: trace, world: world, seen: &seenRaces, into: &result)
                recordLockOrder(before: stack[depth].world, after: world, thread: thread, accesses: accesses,
                                line: range?.start.line, into: &result)
            }
            if config.reduction == .dpor { addBacktracks(for: depth, trace: trace, stack: &stack) }

            if world.threads.count > 64 {
                result.cut = "not exhaustive: an execution started more than 64 threads"
                break search
            }
            var child = Node(world: world, enabled: engine.runnableThreads(world))
            child.last = thread
            child.preemptions = stack[depth].preemptions + (isPreemption(stack[depth], thread) ? 1 : 0)
            let terminal = child.enabled.isEmpty || world.halted || depth + 1 >= config.maxSteps
            if terminal {
                if depth + 1 >= config.maxSteps && !child.enabled.isEmpty && !world.halted {
                    result.cut = "not exhaustive: an execution reached the step bound (\(config.maxSteps) steps)"
                }
                if world.halted && config.reduction == .dpor {
                    // A halting step stops every other thread: each one's pending step
                    // is in a race with it, so try running that step first.
                    let stopped = world.threads.indices.filter { $0 != thread && engine.isRunnable(stack[depth].world, $0) }
                    for other in stopped where stack[depth].enabled.contains(other) {
                        stack[depth].backtrack |= 1 << UInt64(other)
                    }
                }
                result.executions += 1
                record(world, trace: trace, into: &result)
                visit?(trace)
                finish(&stack[depth])
            } else if config.reduction == .dpor {
                child.sleep = stack[depth].sleep.filter { !Trace.conflict($0.accesses, accesses) }
                if child.enabled.allSatisfy(child.isAsleep) {
                    result.sleepBlocked += 1
                    finish(&stack[depth])
                } else {
                    child.backtrack = initialBacktrack(child)
                    stack.append(child)
                }
            } else {
                child.backtrack = initialBacktrack(child)
                stack.append(child)
            }
            if terminal {
                if let progress {
                    var guess = 1.0
                    for node in stack { guess *= Double(max(1, (node.backtrack | node.done).nonzeroBitCount)) }
                    result.estimate = guess > 1e15 ? Int(1e15) : Int(guess)
                }
                if let progress, !progress(result) {
                    result.cut = "not exhaustive: stopped"
                    break search
                }
                if result.executions >= config.maxExecutions {
                    result.cut = "not exhaustive: stopped after \(config.maxExecutions) executions (the execution bound)"
                    break search
                }
                if let limit = config.timeLimit, result.executions % 64 == 0, Date().timeIntervalSince(start) > limit {
                    result.cut = "not exhaustive: stopped after \(Int(limit)) seconds (the time limit)"
                    break search
                }
            }
        }
        return result
    }

    func isPreemption(_ node: Node, _ thread: ThreadID) -> Bool {
        guard let last = node.last, last != thread else { return false }
        return node.enabled.contains(last)
    }

    /// Every enabled thread without reduction; under DPOR, the first awake one.
    func initialBacktrack(_ node: Node) -> UInt64 {
        switch config.reduction {
        case .none:
            return node.enabled.reduce(0) { $0 | 1 << UInt64($1) }
        case .dpor:
            // Prefer the thread that just ran: fewer preemptions in the first execution.
            let awake = node.enabled.filter { !node.isAsleep($0) }
            let first = node.last.flatMap { awake.contains($0) ? $0 : nil } ?? awake[0]
            return 1 << UInt64(first)
        }
    }

    func nextChoice(_ node: Node) -> ThreadID? {
        node.enabled.first { node.backtrack & (1 << UInt64($0)) != 0 && node.done & (1 << UInt64($0)) == 0 && !node.isAsleep($0) }
    }

    /// The thread explored from a node is done; under DPOR it goes to sleep there.
    func finish(_ node: inout Node) {
        guard let current = node.current else { return }
        node.done |= 1 << UInt64(current.thread)
        if config.reduction == .dpor { node.sleep.append(current) }
        node.current = nil
    }

    /// The races of the step at `index` with earlier steps, each reversed by a backtrack point.
    func addBacktracks(for index: Int, trace: Trace, stack: inout [Node]) {
        for race in trace.races(of: index) {
            let initials = trace.initials(after: race, upTo: index)
            if initials.contains(where: { stack[race].backtrack & (1 << UInt64($0)) != 0 }) { continue }
            if let pick = initials.first(where: { stack[race].enabled.contains($0) }) {
                stack[race].backtrack |= 1 << UInt64(pick)
            } else {
                for thread in stack[race].enabled { stack[race].backtrack |= 1 << UInt64(thread) }
            }
        }
    }

    /// What makes two race reports the same: the target and the two sides (thread,
    /// kind, line), in either order. Cheap to hash; names are built only for new races.
    struct RaceKey: Hashable {
        var target: Access.Target
        var first: Int
        var second: Int
    }

    func recordRaces(_ index: Int, trace: Trace, world: World, seen: inout Set<RaceKey>, into result: inout Exploration) {
        var checked: [RaceKey] = []
        for (earlier, first, second) in trace.dataRaces(of: index) {
            func code(_ step: Int, _ access: Access) -> Int {
                (trace.threads[step] * 4 + (access.kind == .read ? 0 : 1)) * 1_000_000 + (trace.ranges[step]?.start.line ?? 0)
            }
            let a = code(earlier, first), b = code(index, second)
            let key = RaceKey(target: first.target, first: min(a, b), second: max(a, b))
            // A loop repeats the same pair many times in one step's list: skip those before hashing.
            guard !checked.contains(key) else { continue }
            checked.append(key)
            guard seen.insert(key).inserted else { continue }
            let target: String
            switch first.target {
            case .global(let g): target = engine.program.globals[g].name
            case .field(let id, let field): target = "\(world.heap[id].name).\(field)"
            default: target = "\(first.target)"
            }
            func side(_ step: Int, _ access: Access) -> DataRace.Side {
                .init(thread: world.threads[trace.threads[step]].name, kind: access.kind, line: trace.ranges[step]?.start.line, step: step + 1)
            }
            result.dataRaces.append(DataRace(target: target, first: side(earlier, first), second: side(index, second)))
        }
    }

    /// Adds one complete execution to the totals.
    func record(_ world: World, trace: Trace, into result: inout Exploration) {
        var world = world
        var end = Run.End.completed
        if world.halted {
            end = .crashed
        } else if !engine.runnableThreads(world).isEmpty {
            end = .stepLimit
        } else if let finding = engine.deadlock(world) {
            world.findings.append(finding)
            end = .deadlocked
        }
        var failedChecks: [Int] = []
        if end == .completed && !engine.program.expectations.isEmpty {
            for (index, check) in engine.evaluateExpectations(world).enumerated() where check.passed != true {
                failedChecks.append(index)
                world.findings.append(Finding(kind: .expectation, step: world.stepCount, thread: nil, range: nil, message: ""))
            }
        }
        let kinds = Finding.Kind.allCases.filter { kind in world.findings.contains { $0.kind == kind } }
        let state = engine.program.globals.indices.filter { !engine.program.globals[$0].isLet }
            .map { "\(engine.program.globals[$0].name) = \(world.describe(world.globals[$0]))" }.joined(separator: ", ")
        let outcome = Outcome(state: state, end: end, findings: kinds, failedChecks: failedChecks)
        let (count, exact) = config.reduction == .none ? (1, true) : config.countInterleavings ? trace.linearizations() : (1, false)
        if !exact { result.interleavingsExact = false }
        result.interleavings = result.interleavings.saturatingAdd(count)
        if let index = result.outcomes.firstIndex(where: { $0.outcome == outcome }) {
            result.outcomes[index].executions += 1
            result.outcomes[index].interleavings = result.outcomes[index].interleavings.saturatingAdd(count)
        } else {
            let names = trace.threads.map { world.threads[$0].name }
            result.outcomes.append(.init(outcome: outcome, executions: 1, interleavings: count, schedule: names))
        }
    }
}
