/// The two conflicting steps whose order decides a failure, and what that order meant.
public struct DecisivePair: Sendable, Equatable {
    /// Indexes into the schedule: `first` ran before `second`, and running `second`
    /// first (with the steps that do not depend on `first`; the rest without
    /// preemption) passes every check.
    public var first: Int
    public var second: Int
    /// What happened, in plain words: `B read singleton (step 3) before A wrote it (step 8).`
    public var what: String
    /// What the other order changes: `Had A written it first, B would have read
    /// MySingle#1, and every check passes (the rest running without preemption).`
    public var otherwise: String
}

extension Explorer {
    /// The longest schedule `decisivePair` looks into: it tries each conflicting pair
    /// with a replay, which costs the cube of the length.
    static let decisivePairLimit = 200

    /// The pair of conflicting steps (on different threads) whose reversal makes the
    /// run pass: the second step, and whatever does not depend on the first, moved
    /// before the first; the rest run without preemption. Of the pairs that do, the
    /// one that conflicts on what the failure reads (the state a failing check reads,
    /// the crashing step's or the deadlocked threads' accesses) comes first, then one
    /// on other shared state, then one that only orders output or object creation;
    /// within each, the earliest second step, and for it the latest first step (the
    /// direct conflict, not one ordered through others). nil for a schedule longer than `decisivePairLimit`,
    /// or when the deadline has passed.
    public func decisivePair(_ schedule: Schedule) -> DecisivePair? {
        guard schedule.count <= Self.decisivePairLimit else { return nil }
        let deadline = config.started().deadline
        var worlds: [World] = []
        var threads: [ThreadID] = []
        var accesses: [[Access]] = []
        guard
            let last = engine.follow(
                schedule,
                { world, thread, made in
                    worlds.append(world)
                    threads.append(thread)
                    accesses.append(made)
                    return true
                })
        else { return nil }
        worlds.append(last)
        var trace = Trace()
        for (step, thread) in threads.enumerated() {
            let (before, after) = (worlds[step], worlds[step + 1])
            trace.append(thread: thread, accesses: accesses[step], halts: after.halted, creates: before.threads.count..<after.threads.count)
        }
        let failure = failureAccesses(worlds[worlds.count - 1], trace: trace)
        var candidates: [(rank: Int, second: Int, first: Int, conflict: (Access, Access)?)] = []
        for second in trace.threads.indices {
            let previous = trace.threads[..<second].lastIndex(of: trace.threads[second])
            for first in 0..<second where trace.threads[first] != trace.threads[second] && trace.dependent(first, second) {
                // The second step's own thread must be able to reach it without the first.
                if let previous, previous > first, trace.isBefore(first, previous) { continue }
                let (rank, conflict) = Self.conflict(first, second, trace: trace, failure: failure)
                candidates.append((rank, second, first, conflict))
            }
        }
        candidates.sort { ($0.rank, $0.second, -$0.first) < ($1.rank, $1.second, -$1.first) }
        let names = worlds[worlds.count - 1].threadNames
        for candidate in candidates {
            let (first, second) = (candidate.first, candidate.second)
            // Replay up to the race, then the steps that do not depend on the first
            // step, then the second step, and go on without preemption.
            var reordered = Array(trace.threads[..<first])
            reordered += (first + 1..<second).filter { !trace.isBefore(first, $0) }.map { trace.threads[$0] }
            reordered.append(trace.threads[second])
            if let run = passingRun(reordered.map { names[$0] }) {
                return explain(first, second, conflict: candidate.conflict, worlds: worlds, trace: trace, passing: run.schedule.steps)
            }
            if let deadline, deadline.hasPassed { return nil }
        }
        return nil
    }

    /// What the failure at the end of `trace` reads: the accesses of each step that
    /// made a finding, of each blocked thread's last step (its wait), and of every
    /// failing `expect` check.
    func failureAccesses(_ world: World, trace: Trace) -> [Access] {
        var result: [Access] = []
        func add(_ step: Int) {
            guard trace.threads.indices.contains(step) else { return }
            result += trace.accessList[trace.info[step].accesses]
        }
        for finding in world.findings { add(finding.step - 1) }
        if world.halted { return result }
        let blocked = world.threads.indices.filter { world.threads[$0].waiting != nil && !world.threads[$0].isFinished }
        for thread in blocked {
            if let last = trace.threads.lastIndex(of: thread) { add(last) }
        }
        if blocked.isEmpty { result += engine.failingChecksRead(world) }
        return result
    }

    /// How telling the conflict of steps `first` and `second` is (0: on what the
    /// failure reads; 1: on part of it, such as a field of an object the failure
    /// deallocates; 2: on other shared state; 3: on output or object creation alone;
    /// 4: only a halt orders them), and the pair of accesses that shows it.
    static func conflict(_ first: Int, _ second: Int, trace: Trace, failure: [Access]) -> (Int, (Access, Access)?) {
        var best: (Int, (Access, Access)?) = (4, nil)
        for a in trace.accessList[trace.info[first].accesses] {
            for b in trace.accessList[trace.info[second].accesses] where a.conflicts(with: b) {
                let rank: Int
                if failure.contains(where: { $0.target == a.target }) && failure.contains(where: { $0.target == b.target }) {
                    rank = 0
                } else if failure.contains(where: { $0.target.overlaps(a.target) && $0.target.overlaps(b.target) }) {
                    rank = 1
                } else if a.target == .output || a.target == .allocator {
                    rank = 3
                } else {
                    rank = 2
                }
                if rank < best.0 { best = (rank, (a, b)) }
            }
        }
        return best
    }

    /// The run that follows `prefix`, then goes on without preemption (as a written
    /// schedule does when it runs out), if it passes every check.
    func passingRun(_ prefix: [String]) -> Run? {
        var scheduler = FixedScheduler(names: prefix)
        let runner = Runner(program: engine.program, maxSteps: config.maxSteps, localBudget: engine.localBudget)
        guard let run = try? runner.run(&scheduler), !run.failed else { return nil }
        return run
    }

    /// The pair in words. `worlds` are the failing run's (the one before each step,
    /// then the last); `passing` is the schedule of the run with the pair reversed.
    func explain(
        _ first: Int, _ second: Int, conflict: (Access, Access)?, worlds: [World], trace: Trace, passing: [String]
    ) -> DecisivePair {
        let names = worlds[worlds.count - 1].threadNames
        let (one, other) = (names[trace.threads[first]], names[trace.threads[second]])
        let passes = "every check passes (the rest running without preemption)"
        guard let (a, b) = conflict else {
            return DecisivePair(
                first: first, second: second, what: "\(one) ran step \(first + 1) before \(other) ran step \(second + 1).",
                otherwise: "Had \(other) gone first, \(passes).")
        }
        let world = worlds[worlds.count - 1]
        let target = engine.name(of: a.target, in: world)
        // Two releases: the order decides whose is the last, and so where the object
        // is deallocated.
        if case .count(let id) = a.target, b.target == a.target, isRelease(id, at: first, worlds), isRelease(id, at: second, worlds) {
            return DecisivePair(
                first: first, second: second,
                what: "\(one) released its reference to \(target) (step \(first + 1)) before \(other) released its own (step \(second + 1)).",
                otherwise: "Had \(other) released its reference first, \(one)'s would have been the last, and \(passes).")
        }
        let firstDoes = action(a, step: first, worlds: worlds)
        let secondDoes = action(b, step: second, worlds: worlds)
        let secondTarget = engine.name(of: b.target, in: world) == target ? "it" : engine.name(of: b.target, in: world)
        let what =
            "\(one) \(Self.fill(firstDoes.verb, target)) (step \(first + 1)) before "
            + "\(other) \(Self.fill(secondDoes.verb, secondTarget)) (step \(second + 1))."
        var otherwise = "Had \(other) \(Self.fill(secondDoes.participle, secondTarget)) first, "
        // A read sees another value in the other order: say which.
        if a.kind == .read, b.kind != .read,
            let seen = valueSeen(a.target, by: trace.threads[first], ordinal: ordinal(of: first, trace), in: passing)
        {
            otherwise += "\(one) would have read \(seen), and "
        } else if b.kind == .read, a.kind != .read,
            let seen = valueSeen(b.target, by: trace.threads[second], ordinal: ordinal(of: second, trace), in: passing)
        {
            otherwise += "\(other) would have read \(seen), and "
        }
        return DecisivePair(first: first, second: second, what: what, otherwise: otherwise + passes + ".")
    }

    /// Whether step `step` lowered object `id`'s retain count.
    func isRelease(_ id: ObjectID, at step: Int, _ worlds: [World]) -> Bool {
        worlds[step + 1].headers[id].retainCount < worlds[step].headers[id].retainCount
    }

    /// `phrase` with its `%` replaced by `target`.
    static func fill(_ phrase: String, _ target: String) -> String {
        phrase.split(separator: "%", omittingEmptySubsequences: false).joined(separator: target)
    }

    /// How many steps step `index`'s thread took before it.
    func ordinal(of index: Int, _ trace: Trace) -> Int {
        trace.threads[..<index].count { $0 == trace.threads[index] }
    }

    /// The value of `target` just before `thread` takes its step number `ordinal`
    /// (0-based) in the run that follows `schedule`.
    func valueSeen(_ target: Access.Target, by thread: ThreadID, ordinal: Int, in schedule: [String]) -> String? {
        var taken = 0
        var seen: String?
        engine.follow(schedule) { world, next, _ in
            guard next == thread else { return true }
            if taken == ordinal {
                seen = value(of: target, in: world)
                return false
            }
            taken += 1
            return true
        }
        return seen
    }

    func value(of target: Access.Target, in world: World) -> String? {
        switch target {
        case .global(let g): return world.describe(world.globals[g])
        case .field(let id, let field) where field >= 0 && field < world.heap[id].fields.count:
            return world.describe(world.heap[id].fields[field])
        default: return nil
        }
    }

    /// What an access did, as a verb phrase and its past participle, `%` standing for
    /// the target: `wrote %` / `written %`, `took %` / `taken %`.
    func action(_ access: Access, step: Int, worlds: [World]) -> (verb: String, participle: String) {
        switch (access.target, access.kind) {
        case (.lock, .read): return ("tried to take %", "taken %")
        case (.lock, .acquire), (.object, .acquire): return ("took %", "taken %")
        case (.lock, .release), (.object, .release): return ("released %", "released %")
        case (.count(let id), .write):
            return isRelease(id, at: step, worlds)
                ? ("released a reference to %", "released a reference to %") : ("took a reference to %", "taken a reference to %")
        case (.object(let id), .write) where id >= worlds[step].heap.count: return ("created %", "created %")
        case (.object(let id), .write) where !worlds[step + 1].headers[id].isAlive: return ("deallocated %", "deallocated %")
        case (.section(let index), _):
            func inside(_ world: World) -> Int { index < world.criticalInside.count ? world.criticalInside[index].count : 0 }
            return inside(worlds[step + 1]) > inside(worlds[step]) ? ("entered %", "entered %") : ("left %", "left %")
        case (.operation(let id), .read) where id < worlds[step].heap.count && worlds[step].heap[id].kind.isTask:
            return ("read the state of %", "read the state of %")
        case (.operation(let id), _) where id < worlds[step].heap.count && worlds[step].heap[id].kind.isTask:
            return ("changed the state of %", "changed the state of %")
        case (.queue(let id), _) where worlds[step].heap[id].isActor:
            // An actor: the step enqueued on it, began a job on it, or ended one.
            return ("got to %", "got to %")
        case (.pool, .read): return ("waited for a thread of %", "waited for a thread of %")
        case (.pool, _):
            let before = worlds[step].threads.count(where: { $0.onPool }), after = worlds[step + 1].threads.count(where: { $0.onPool })
            return after > before ? ("took a thread of %", "taken a thread of %") : ("gave back a thread of %", "given back a thread of %")
        case (.mainQueue, .write): return ("sent a block to %", "sent a block to %")
        case (.mainQueue, _): return ("took a block from %", "taken a block from %")
        case (.output, _): return ("printed", "printed")
        case (.allocator, _): return ("created or freed an object", "created or freed an object")
        case (_, .read): return ("read %", "read %")
        default: return ("wrote %", "written %")
        }
    }
}
