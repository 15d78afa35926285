import RaceLabLanguage

/// Why a thread cannot run, in words: the wait descriptions that deadlock findings,
/// schedule errors and the step screen show, and the deadlock finding itself (a
/// wait-for cycle, or every thread left blocked).
extension Engine {
    /// Whether a wait is over: the thread may take its next step.
    func isSatisfied(_ world: World, _ wait: Wait, for id: ThreadID) -> Bool {
        // Asked of an earlier world (DPOR's reversals), before the object was made:
        // nothing there stops the thread, so it is not a wait of that world.
        if let object = wait.object, object >= world.heap.count { return true }
        switch wait {
        case .lock(let lock, let reentrant):
            return world.headers[lock].canBeTaken(by: id, reentrant: reentrant)
        case .operation(let op):
            if case .operation(let state) = world.heap[op].kind { return state.phase == .finished }
            return true
        case .queue(let q):
            if case .queue(let state) = world.heap[q].kind { return state.operations.isEmpty }
            return true
        case .mainBlock(let block):
            return world.completedBlocks.contains(block)
        case .semaphore(let id):
            if case .semaphore(let count) = world.heap[id].kind { return count > 0 }
            return true
        case .group(let group):
            if case .group(let state) = world.heap[group].kind { return state.entered == 0 }
            return true
        case .condition:
            return program.spuriousWakeups
        case .conditionWoken:
            return true
        case .spin(let reads):
            return reads.contains { world.version(of: $0.target) != $0.version }
        case .actor(let actor):
            let owner = world.headers[actor].owner
            return owner == id || (program.mailboxAnyOrder && owner == nil)
        case .task(let handle):
            if case .task(let task) = world.heap[handle].kind { return task.isFinished }
            return true
        case .continuation(let id):
            if case .continuation(let continuation) = world.heap[id].kind { return continuation.isResumed }
            return true
        case .taskGroup(let group, let all):
            guard case .taskGroup(let state) = world.heap[group].kind else { return true }
            let running = state.children.contains(where: world.isRunningTask)
            return !running || (!all && !state.finished.isEmpty)
        case .sleep:
            guard let deadline = world.threads[id].sleepsUntil else { return true }
            if let handle = world.threads[id].task, world.heap[handle].taskState?.isCancelled == true { return true }
            // The earliest deadline comes first (equal ones in either order).
            return !world.threads.contains { $0.waiting == .sleep && ($0.sleepsUntil ?? .max) < deadline }
        case .pool:
            return world.threads.count { $0.onPool } < program.poolWidth ?? Int.max
        case .stream(let stream):
            if case .stream(let state) = world.heap[stream].kind { return state.handed.contains { $0.consumer == id } }
            return true
        }
    }

    /// A reading of the virtual clock, or a duration: "1 s", "250 ms".
    public static func duration(_ milliseconds: Int64) -> String {
        milliseconds != 0 && milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// Who could wake a thread waiting on a semaphore or a condition: any thread may
    /// signal, so the others that are not finished, idle or waiting themselves.
    func signallers(_ world: World, besides id: ThreadID) -> String {
        let others = world.threads.indices.filter {
            $0 != id && !world.threads[$0].isFinished && !world.threads[$0].frames.isEmpty && world.threads[$0].waiting == nil
        }
        guard !others.isEmpty else { return "; no other thread can run to signal it" }
        return "; only a signal from another thread (\(others.map { world.threadNames[$0] }.joined(separator: ", "))) wakes it"
    }

    /// Why an operation will never finish on its own, if that is so: an asynchronous
    /// operation whose code has returned without finishing it, or an operation that
    /// waits for one.
    func stuck(_ world: World, _ id: ObjectID) -> String? {
        guard case .operation(let op) = world.heap[id].kind else { return nil }
        let name = world.heap[id].name
        if op.isAsynchronous && op.phase == .executing && op.running == 0 {
            return "operation \(name) is asynchronous and its code has returned without calling finish(), so it never finishes"
        }
        if op.phase == .pending, !op.isCancelled,
            let blocker = op.dependencies.first(where: { other in
                if case .operation(let dependency) = world.heap[other].kind { return dependency.phase != .finished }
                return false
            })
        {
            return "operation \(name) waits for \(world.heap[blocker].name) to finish"
        }
        return nil
    }

    /// Why a thread cannot run, in words, and the threads it waits on.
    public func waitDescription(_ world: World, _ id: ThreadID) -> (text: String, waitsOn: [ThreadID])? {
        let thread = world.threads[id]
        if thread.isFinished { return ("has finished", []) }
        if program.strictPriority, isRunnable(world, id), let first = runnableThreads(world).first, !isSchedulable(world, id) {
            let mine = effectivePriority(world, id)
            return (
                "is ready, but \(world.threadNames[first]) runs first: its priority is \(effectivePriority(world, first)), this thread's \(mine), and a strict-priority scheduler always runs the highest",
                []
            )
        }
        guard let wait = thread.waiting, !isSatisfied(world, wait, for: id) || canOnlyWakeSpuriously(world, id) else {
            if thread.frames.isEmpty && thread.isMain { return ("is idle: the main queue is empty", []) }
            return nil
        }
        switch wait {
        case .lock(let lock, _):
            let object = world.heap[lock]
            let owner = world.headers[lock].owner
            let holder = owner.map { [$0] } ?? []
            let held = world.heap.indices.filter { world.headers[$0].owner == id }.map { world.heap[$0].name }
            let name = world.threadNames[id]
            if owner == id {
                let others = held.filter { $0 != object.name }
                let holds = others.isEmpty ? "" : "holds \(others.joined(separator: ", ")) and "
                return ("\(holds)waits for \(object.name), which \(name) itself holds: a lock that is not re-entrant", holder)
            }
            let holds = held.isEmpty ? "" : "holds \(held.joined(separator: ", ")) and "
            guard let owner else { return ("\(holds)waits for \(object.name), held by nobody", []) }
            if world.threads[owner].isFinished {
                // Nobody can ever unlock it: the owner is gone.
                return ("\(holds)waits for \(object.name), but \(world.threadNames[owner]) finished while holding it", [])
            }
            return ("\(holds)waits for \(object.name), held by \(world.threadNames[owner])", holder)
        case .operation(let op):
            var on: [ThreadID] = []
            var note = ""
            if case .operation(let state) = world.heap[op].kind {
                if let t = state.thread { on = [t] }
                if state.queue == nil && state.phase == .created { note = ", but it was never added to a queue, so nothing will run it" }
                if let why = stuck(world, op) { note = ", but " + why }
                // The classic: a block on a serial queue waits for another block of it.
                if let q = state.queue, state.phase == .pending, case .queue(let queue) = world.heap[q].kind, queue.maxConcurrent == 1,
                    let own = world.threads[id].operation, queue.operations.contains(own)
                {
                    let name = world.heap[q].name
                    note =
                        ", but \(name) is serial and runs one block at a time: the one \(world.threadNames[id]) is running itself,"
                        + " which cannot finish while it waits (a sync onto its own serial queue)"
                }
            }
            return ("waits for operation \(world.heap[op].name) to finish\(note)", on)
        case .queue(let q):
            var note = ""
            if case .queue(let queue) = world.heap[q].kind {
                let reasons = queue.operations.compactMap { stuck(world, $0) }
                if !reasons.isEmpty { note = ", but " + reasons.joined(separator: "; ") }
            }
            return ("waits for every operation of \(world.heap[q].name) to finish\(note)", [])
        case .mainBlock:
            return ("waits in main.sync for main to run its block", [0])
        case .semaphore(let semaphore):
            return ("waits on semaphore \(world.heap[semaphore].name) (count 0)\(signallers(world, besides: id))", [])
        case .condition(let condition):
            let spurious = isSatisfied(world, wait, for: id) ? " (a spurious wakeup could free it, but none is promised)" : ""
            return ("waits on condition \(world.heap[condition].name) for a signal\(signallers(world, besides: id))\(spurious)", [])
        case .group(let group):
            guard case .group(let state) = world.heap[group].kind else { return nil }
            // The threads running the group's blocks: it waits on them.
            let workers = world.heap.indices.compactMap { id -> ThreadID? in
                guard world.headers[id].isAlive, case .operation(let op) = world.heap[id].kind, op.group == group, op.phase == .executing else { return nil }
                return op.thread
            }
            let left = state.entered == 1 ? "1 unit of work has" : "\(state.entered) units of work have"
            let running = workers.isEmpty ? "" : " (running on \(workers.map { world.threadNames[$0] }.joined(separator: ", ")))"
            return ("waits on group \(world.heap[group].name): \(left) entered it and not left\(running)", workers)
        case .conditionWoken:
            return nil
        case .actor(let actor):
            let name = world.heap[actor].name
            guard let owner = world.headers[actor].owner else { return ("is enqueued on \(name)", []) }
            return ("is enqueued on \(name), which \(world.threadNames[owner]) holds", [owner])
        case .task(let handle):
            guard case .task(let task) = world.heap[handle].kind else { return nil }
            let name = world.heap[handle].name
            return ("awaits \(name)'s value, and \(name) has not finished", [task.thread])
        case .stream(let stream):
            guard case .stream(let state) = world.heap[stream].kind else { return nil }
            let name = world.heap[stream].name
            if state.isFinished {
                return ("awaits the next element of \(name), which has finished: nothing will resume it (swiftlang/swift #71412)", [])
            }
            return ("awaits the next element of \(name), which nothing has yielded", [])
        case .taskGroup(let group, let all):
            guard case .taskGroup(let state) = world.heap[group].kind else { return nil }
            let running = state.children.filter(world.isRunningTask)
            let names = running.map { world.heap[$0].name }.joined(separator: ", ")
            let threads = running.compactMap { world.heap[$0].taskState?.thread }
            let name = world.heap[group].name
            if all { return ("waits at the end of \(name)'s body for its children to finish (\(names))", threads) }
            return ("awaits the next child of \(name) to finish (\(names) still running)", threads)
        case .sleep:
            let until = world.threads[id].sleepsUntil ?? world.clock
            return ("sleeps until the clock reads \(Engine.duration(until)) (it reads \(Engine.duration(world.clock)))", [])
        case .pool:
            let holders = world.threads.indices.filter { world.threads[$0].onPool }
            let width = program.poolWidth ?? 0
            let held = holders.map { world.threadNames[$0] }.joined(separator: ", ")
            return ("waits for a thread of the cooperative pool: all \(width) are held (by \(held))", holders)
        case .continuation(let id):
            guard case .continuation(let continuation) = world.heap[id].kind else { return nil }
            let name = world.heap[id].name, function = program.names[continuation.function]
            if !world.headers[id].isAlive {
                return ("waits for ever on continuation \(name), which \(function) leaked without resuming it", [])
            }
            return ("waits on continuation \(name) (made in \(function)), which nobody has resumed", [])
        case .spin(let reads):
            guard !reads.isEmpty else { return ("spins forever: its loop reads nothing another thread could change", []) }
            let names = reads.map { name(of: $0.target, in: world) }.joined(separator: ", ")
            return ("spins on \(names), waiting for another thread to change \(reads.count == 1 ? "it" : "one of them")", [])
        }
    }

    /// How an execution that stopped in `world` ended, and what it broke: the one
    /// place that decides it, for the runner, the searches and the state space.
    public struct Conclusion: Sendable {
        /// Crashed (the program halted); deadlocked; idle (every thread left rests
        /// where it may, see `isIdle`); completed; or, where a thread can still run,
        /// stopped at the step limit.
        public var end: Run.End
        /// The finding that names a deadlock's wait-for cycle.
        public var deadlock: Finding?
        /// Each `expect` check's result, evaluated where the run got to its end (else
        /// none, and the checks are not evaluated).
        public var checks: [(passed: Bool?, error: String?)] = []
        /// The checks that failed or could not be evaluated, by index.
        public var failedChecks: [Int] = []
        /// The kinds of finding the world made, the deadlock and a failed check
        /// included, each once, in `Finding.Kind` order.
        public var kinds: [Finding.Kind] = []

        public var isFailure: Bool { !kinds.isEmpty }
    }

    /// How `world`, where an execution stopped, ended (`Conclusion`).
    public func conclude(_ world: World) -> Conclusion {
        var conclusion = Conclusion(end: .stepLimit)
        if world.halted {
            conclusion.end = .crashed
        } else if runnableMask(world) == 0 {
            if let finding = deadlock(world) {
                (conclusion.end, conclusion.deadlock) = (.deadlocked, finding)
            } else {
                conclusion.end = world.threads.contains { $0.waiting != nil && !$0.isFinished } ? .idle : .completed
            }
        }
        if conclusion.end.ranToTheEnd && !program.expectations.isEmpty {
            conclusion.checks = evaluateExpectations(world)
            conclusion.failedChecks = conclusion.checks.indices.filter { conclusion.checks[$0].passed != true }
        }
        var found = Set<Finding.Kind>()
        for finding in world.findings { found.insert(finding.kind) }
        if conclusion.deadlock != nil { found.insert(.deadlock) }
        if !conclusion.failedChecks.isEmpty { found.insert(.expectation) }
        conclusion.kinds = found.isEmpty ? [] : Finding.Kind.allCases.filter(found.contains)
        return conclusion
    }

    /// Whether a blocked thread rests rather than being stuck: it holds no lock, and
    /// it waits in a statement marked `idle`, or, having completed a round of its
    /// outermost `while true` loop, at that loop's first wait (a server between pieces
    /// of work; before its first round it has done none, and two loops that wait for
    /// each other from the start are a deadlock). When no thread can run and every
    /// one left rests so, the program has done its work: it ends idle.
    public func isIdle(_ world: World, _ thread: ThreadID) -> Bool {
        let state = world.threads[thread]
        guard state.waiting != nil, !state.isFinished, let frame = state.frames.last else { return false }
        let code = program.codes[frame.code]
        guard
            code.idlePoints.contains(where: { $0.contains(frame.pc) })
                || state.completedRound && code.roundIdlePoints.contains(where: { $0.contains(frame.pc) })
        else { return false }
        return !world.headers.contains { $0.owner == thread }
    }

    /// Where a resting thread (`isIdle`) waits, for a sentence: "server waits on
    /// semaphore jobs at line 6".
    public func restingDescription(_ world: World, _ thread: ThreadID) -> String {
        let state = world.threads[thread]
        var what = "waits"
        switch state.waiting {
        case .semaphore(let id): what = "waits on semaphore \(world.heap[id].name)"
        case .condition(let id): what = "waits on condition \(world.heap[id].name)"
        case .group(let id): what = "waits on group \(world.heap[id].name)"
        case .spin(let reads): what = "spins on " + reads.map { name(of: $0.target, in: world) }.joined(separator: ", ")
        default: what = waitDescription(world, thread)?.text ?? what
        }
        if let frame = state.frames.last, let range = program.codes[frame.code].ranges[frame.pc] { what += " at line \(range.start.line)" }
        return "\(world.threadNames[thread]) \(what)"
    }

    /// Nothing can run, yet some thread waits and not every one rests (`isIdle`): name
    /// the wait-for cycle if there is one.
    public func deadlock(_ world: World) -> Finding? {
        let blocked = world.threads.indices.filter { world.threads[$0].waiting != nil && !world.threads[$0].isFinished }
        guard !blocked.isEmpty, !blocked.allSatisfy({ isIdle(world, $0) }) else { return nil }
        var cycle: [ThreadID] = []
        for start in blocked {
            var path: [ThreadID] = []
            var current = start
            while let (_, next) = waitDescription(world, current), !path.contains(current), let following = next.first {
                path.append(current)
                current = following
            }
            if let loopStart = path.firstIndex(of: current) {
                cycle = Array(path[loopStart...])
                break
            }
        }
        let involved = cycle.isEmpty ? blocked : cycle
        let parts = involved.map { "\(world.threadNames[$0]) \(waitDescription(world, $0)?.text ?? "waits")" }
        let kind = cycle.isEmpty ? "every thread left is blocked" : "a wait-for cycle"
        let step = world.stepCount
        return Finding(
            kind: .deadlock, step: step, thread: nil, range: nil,
            message: "\(kind): " + parts.joined(separator: "; "))
    }
}

extension Engine {
    /// Whether `thread`'s next step would only block on a lock another thread holds
    /// (or that it holds itself, not re-entrant): `synchronized`, or a lock's or a
    /// condition's `lock()`. Such a step marks the thread waiting and changes nothing
    /// else. Read off the instruction, not tried: a step that would do anything more
    /// (a hop to an executor, a pool thread to take) is not one.
    func onlyBlocksOnLock(_ world: World, _ thread: ThreadID) -> Bool {
        // The instruction first, touching nothing else (this runs for every thread
        // after every step of the reduced search).
        let depth = world.threads[thread].frames.count
        guard depth > 0 else { return false }
        let code = world.threads[thread].frames[depth - 1].code, pc = world.threads[thread].frames[depth - 1].pc
        guard code >= 0 else { return false }
        let instruction = program.codes[code].instructions[pc]
        switch instruction {
        case .monitorEnter, .method(_, 0, _): break
        default: return false
        }
        let state = world.threads[thread]
        guard state.waiting == nil, !state.isFinished, state.task == nil, state.executor == nil,
            case .object(let id)? = state.frames[depth - 1].slots.last, id < world.headers.count
        else { return false }
        // As the machine takes each (`Machine.acquire`): `synchronized` re-entrant, a
        // lock as it was made, a condition's mutex not.
        let reentrant: Bool
        switch (instruction, world.heap[id].kind) {
        case (.monitorEnter, _): reentrant = true
        case (.method(let name, 0, _), .lock(let recursive, _)) where program.names[name] == "lock": reentrant = recursive
        case (.method(let name, 0, _), .condition) where program.names[name] == "lock": reentrant = false
        default: return false
        }
        return !world.headers[id].canBeTaken(by: thread, reentrant: reentrant)
    }

    /// Takes every step that would only block on a held lock (`onlyBlocksOnLock`), in
    /// thread order: the threads that blocked, and their accesses. The stateful
    /// search's reduction takes them with the step before (`StateSleepSets`): a block
    /// changes nothing but its thread's wait, so one taken early loses no behaviour,
    /// and the states where a thread has yet to block are never stored. One pass is
    /// enough: a block leaves every other thread's next step as it was.
    func takePendingBlocks(_ world: inout World, log: EventLog) -> (threads: [ThreadID], accesses: [Access]) {
        var taken: (threads: [ThreadID], accesses: [Access]) = ([], [])
        guard !world.halted else { return taken }
        for id in world.threads.indices where onlyBlocksOnLock(world, id) {
            quietStep(&world, thread: id, log: log)
            assert(isWaitingOnLock(world.threads[id].waiting), "a step taken as a block on a held lock did more than block")
            taken.threads.append(id)
            taken.accesses += log.accesses
        }
        return taken
    }

    private func isWaitingOnLock(_ wait: Wait?) -> Bool {
        if case .lock = wait { return true }
        return false
    }
}
