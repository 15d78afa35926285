import RaceLabLanguage

/// The simulated machine's rules: `step(world, thread) -> (world, events)`.
///
///     let engine = Engine(program: program)
///     var world = engine.initialWorld()
///     (world, _) = engine.step(world, thread: engine.runnableThreads(world)[0])
public struct Engine: Sendable {
    /// The program, held by reference: a step creates a machine, and copying the
    /// program's arrays into each one would cost a retain and a release apiece.
    let compiled: Compiled
    public var program: Program { compiled.program }
    /// Local instructions a thread may run between two steps before it is stopped
    /// as a runaway loop.
    public var localBudget: Int
    /// Whether a spin loop becomes a wait (`Engine.watchSpin`); off only to check the
    /// rule against the plain semantics.
    public var spinWaits = true

    public init(program: Program, localBudget: Int = 100_000) {
        compiled = Compiled(program)
        self.localBudget = localBudget
    }

    /// Globals initialised (atomically, on main), then the declared threads created.
    public func initialWorld() -> World {
        var world = World()
        world.globals = Array(repeating: .none, count: program.globals.count)
        world.globalVersions = Array(repeating: 0, count: program.globals.count)
        world.created = Array(repeating: 0, count: program.classes.count)
        let main = Frame(code: program.mainCode, localCount: program.codes[program.mainCode].localCount, kind: .body)
        let setup = Frame(code: program.setupCode, localCount: program.codes[program.setupCode].localCount, kind: .call)
        world.addThread(name: "main", frames: [main, setup], isMain: true)
        Machine.run(compiled, world: &world, thread: 0, localBudget: localBudget) { machine in
            var budget = localBudget
            while machine.world.threads[0].frames.count > 1 && !machine.world.halted && budget > 0 {
                machine.executeCurrent()
                budget -= 1
            }
        }
        world.threads[0].frames[0].dropStack()
        if program.usesMainActor {
            // Main's code is a job on the main actor, which it holds from the start.
            world.heap.append(HeapObject(kind: .actor(mailbox: []), classIndex: nil, name: "MainActor"))
            var header = ObjectHeader()
            // Main with no code of its own (`constant`, `ret`) has no job to run.
            let mainHasCode = program.codes[program.mainCode].instructions.count > 2
            if mainHasCode {
                header.owner = 0
                header.depth = 1
            }
            world.headers.append(header)
            world.mainActor = world.heap.count - 1
            if mainHasCode { world.threads[0].executor = world.mainActor }
        }
        for info in program.threads {
            guard info.isTask else {
                let frame = Frame(code: info.code, localCount: program.codes[info.code].localCount, kind: .body)
                world.addThread(name: info.name, frames: [frame])
                continue
            }
            // A task declared at the top: its handle, kept by the runtime while it runs.
            var handle = HeapObject(kind: .task(TaskState(thread: world.threads.count)), classIndex: nil, name: info.name)
            handle.fields = []
            world.heap.append(handle)
            var header = ObjectHeader()
            // One reference for the runtime while it runs, one for its name.
            header.retainCount = 2
            world.headers.append(header)
            let frame = Frame(code: info.code, localCount: program.codes[info.code].localCount, kind: .task(world.heap.count - 1))
            let id = world.addThread(name: info.name, frames: [frame])
            world.threads[id].task = world.heap.count - 1
        }
        for id in world.threads.indices {
            Machine.run(compiled, world: &world, thread: id, localBudget: localBudget) { $0.normalize() }
        }
        // `always` holds in every state, the first one too: broken by the initial
        // values, every run fails before its first step (as main's setup left it).
        if program.invariantsCode != nil { checkInvariants(&world, after: 0, log: EventLog(narrate: false)) }
        return world
    }

    /// Threads that can take a step now, in creation order.
    ///
    /// A thread waiting on a condition may wake spuriously, but only while some other
    /// thread can run: when a spurious wakeup is all that is left, nothing promises
    /// one, and the program is stuck (a deadlock). Otherwise a lost signal rescued by
    /// a wakeup that may never come would pass.
    public func runnableThreads(_ world: World) -> [ThreadID] {
        guard !world.halted else { return [] }
        let runnable = world.threads.indices.filter { isRunnable(world, $0) }
        if runnable.allSatisfy({ canOnlyWakeSpuriously(world, $0) }) { return [] }
        guard program.strictPriority else { return runnable }
        // The highest priority among threads that can truly go on; a spurious wakeup
        // of one at least as high may come too.
        let top = runnable.filter { !canOnlyWakeSpuriously(world, $0) }.map { effectivePriority(world, $0) }.max()!
        return runnable.filter { canOnlyWakeSpuriously(world, $0) ? effectivePriority(world, $0) >= top : effectivePriority(world, $0) == top }
    }

    /// Whether a thread may take the next step: it is runnable, and under a strict-priority
    /// scheduler no runnable thread has a higher priority.
    public func isSchedulable(_ world: World, _ id: ThreadID) -> Bool {
        runnableThreads(world).contains(id)
    }

    /// A thread's priority as the scheduler sees it: its own, or that of a thread
    /// waiting for an `OSAllocatedUnfairLock` it holds, if higher (priority
    /// inheritance; through chains of such locks too).
    public func effectivePriority(_ world: World, _ id: ThreadID) -> Int {
        var best = world.threads[id].priority
        var seen: Set<ThreadID> = [id]
        var holders = [id]
        while let holder = holders.popLast() {
            for waiter in world.threads.indices where !seen.contains(waiter) {
                guard case .lock(let lock, _) = world.threads[waiter].waiting, world.headers[lock].owner == holder,
                    case .lock(_, inheritsPriority: true) = world.heap[lock].kind
                else { continue }
                seen.insert(waiter)
                holders.append(waiter)
                best = max(best, world.threads[waiter].priority)
            }
        }
        return best
    }

    /// The runnable threads as a bit set (bit i: thread i), for worlds of at most 64
    /// threads: what exploration keeps per node, without an array.
    /// The most threads a search follows: a set of threads is a 64-bit mask (this
    /// mask, sleep sets, happens-before). Past it, a search stops (`Cut.threadLimit`).
    public static let threadCap = 64

    func runnableMask(_ world: World) -> UInt64 {
        guard !world.halted else { return 0 }
        if program.strictPriority { return runnableThreads(world).reduce(0) { $0 | 1 << UInt64($1) } }
        var mask: UInt64 = 0
        var ordinary = false
        for id in world.threads.indices where isRunnable(world, id) {
            mask |= 1 << UInt64(id)
            if !ordinary && !canOnlyWakeSpuriously(world, id) { ordinary = true }
        }
        // As `runnableThreads`: spurious wakeups alone do not keep a program going.
        return ordinary ? mask : 0
    }

    public func isRunnable(_ world: World, _ id: ThreadID) -> Bool {
        let thread = world.threads[id]
        if thread.isFinished { return false }
        if thread.frames.isEmpty {
            // A main-queue block is a job on the main actor too: it waits for the actor.
            let actorFree = world.mainActor.map { world.headers[$0].owner == nil || world.headers[$0].owner == id } ?? true
            return thread.isMain && !world.mainQueue.isEmpty && actorFree
        }
        guard let wait = thread.waiting else { return true }
        return isSatisfied(world, wait, for: id)
    }

    /// Whether the thread's only step is a spurious wakeup (it waits on a condition).
    public func canOnlyWakeSpuriously(_ world: World, _ id: ThreadID) -> Bool {
        if case .condition = world.threads[id].waiting { return true }
        return false
    }

    /// Advances one thread by one step. Never touches anything but the returned world.
    /// - Precondition: `thread` is runnable.
    public func step(_ world: World, thread: ThreadID) -> (World, [Event]) {
        var next = world
        let events = step(&next, thread: thread)
        return (next, events)
    }

    /// `step` on a world changed in place: the same function, but the parts of the
    /// world no one else holds are not copied (a run that keeps no old worlds copies
    /// no heap per step).
    public func step(_ world: inout World, thread: ThreadID) -> [Event] {
        narratedStep(&world, thread: thread).events
    }

    /// `step`, also saying whether the step ran a `progress` statement.
    func narratedStep(_ world: inout World, thread: ThreadID) -> (events: [Event], progressed: Bool) {
        let log = EventLog(narrate: true)
        let halted = world.halted
        let spins = advance(&world, thread, log: log)
        var events = log.events
        // What followed the step, in words: a spin that became a wait, a broken invariant.
        if spins, let wait = waitDescription(world, thread) {
            events.append(
                Event(step: world.stepCount, thread: thread, range: events.last?.range, text: wait.text + " (a spin loop: it waits instead)", accesses: []))
        }
        if !halted, world.halted, let finding = world.findings.last, finding.kind == .invariant {
            events.append(Event(step: world.stepCount, thread: thread, range: finding.range, text: "breaks the invariant: \(finding.message)", accesses: []))
        }
        return (events, log.progressed)
    }

    /// The same step without sentences: the next world and every access the step
    /// made (exploration runs millions of these).
    public func quietStep(_ world: World, thread: ThreadID) -> (World, [Access]) {
        var next = world
        let log = EventLog(narrate: false)
        quietStep(&next, thread: thread, log: log)
        return (next, log.accesses)
    }

    /// `quietStep` on a world changed in place, its accesses left in `log` (emptied
    /// first): the parts of the world no one else holds are not copied, so running a
    /// sequence of steps copies each part at most once.
    func quietStep(_ world: inout World, thread: ThreadID, log: EventLog) {
        log.reset()
        advance(&world, thread, log: log)
    }

    /// One step of `thread`, its events and accesses in `log`, and what follows every
    /// step, narrated or not: the spin watch and the invariants. Returns whether the
    /// thread now waits in a spin.
    @discardableResult
    private func advance(_ world: inout World, _ thread: ThreadID, log: EventLog) -> Bool {
        let before = startStep(&world, thread)
        Machine.run(compiled, world: &world, thread: thread, localBudget: localBudget, log: log) { $0.step() }
        let spins = watchSpin(&world, thread, before: before, accesses: log.accesses)
        if program.invariantsCode != nil { checkInvariants(&world, after: thread, log: log) }
        return spins
    }

    /// Checks the `always` invariants on the world a step of `thread` left; the first
    /// that does not hold is a finding at this step, and stops the run.
    ///
    /// An invariant sees every state, and two orders of the same steps pass through
    /// different states: so, for the search, every step that changes what an
    /// invariant can read (a global, a field, an object's life) also writes one shared
    /// target (`.observer`), which orders all such steps. Steps that only read stay
    /// independent: they change no state an invariant sees. The target synchronizes
    /// nothing: the race detector still sees every race.
    func checkInvariants(_ world: inout World, after thread: ThreadID, log: EventLog) {
        if log.accesses.contains(where: { !$0.isRead && Self.invariantCanSee($0.target) }) {
            log.accesses.append(Access(.observer, .write))
        }
        guard !world.halted, let code = program.invariantsCode else { return }
        var copy = world
        let results = runCode(code, &copy, log: EventLog(narrate: false))
        var broken: Int?
        var why = ""
        if let failed = results.first(where: { !$0.passed }) {
            broken = failed.index
        } else if results.count < program.invariants.count {
            // Evaluating one failed (nil unwrapped, an index out of range): it does not hold.
            broken = results.count
            why = copy.findings.last.map { ": could not be evaluated: \($0.message)" } ?? ""
        }
        guard let broken else { return }
        let invariant = program.invariants[broken]
        world.findings.append(
            Finding(kind: .invariant, step: world.stepCount, thread: thread, range: invariant.range, message: invariant.message + why))
        world.halted = true
    }

    static func invariantCanSee(_ target: Access.Target) -> Bool {
        switch target {
        case .global, .field, .object, .allocator: return true
        default: return false
        }
    }

    /// Follows `schedule` from the initial world without sentences, calling `visit`
    /// with each step's world before it, its thread, and the accesses it made (the
    /// world after it is the next call's, or the returned one). nil when a name is
    /// unknown or its thread cannot run at its turn; `visit` returning false stops
    /// the replay there.
    @discardableResult
    func follow(_ schedule: some Sequence<String>, _ visit: (_ before: World, _ thread: ThreadID, _ accesses: [Access]) -> Bool) -> World? {
        var world = initialWorld()
        let log = EventLog(narrate: false)
        for name in schedule {
            guard let thread = world.thread(named: name), isSchedulable(world, thread) else { return nil }
            let before = world
            quietStep(&world, thread: thread, log: log)
            guard visit(before, thread, log.accesses) else { return world }
        }
        return world
    }

    /// Evaluates every `expect` on a final world: true where it holds, false where it
    /// fails, nil where evaluating it failed (the message says why).
    public func evaluateExpectations(_ world: World) -> [(passed: Bool?, error: String?)] {
        var results: [(passed: Bool?, error: String?)] = program.expectations.map { _ in (nil, nil) }
        var copy = world
        let checks = runChecks(&copy, log: EventLog(narrate: true))
        for (index, passed, _) in checks { results[index] = (passed, nil) }
        if let failure = copy.findings.last, copy.halted,
            let pending = results.firstIndex(where: { $0.0 == nil })
        {
            results[pending] = (nil, failure.message)
        }
        return results
    }

    /// Runs the `expect` checks on `world` (a final world, changed only by the checks).
    private func runChecks(_ world: inout World, log: EventLog) -> [(index: Int, passed: Bool, accessesEnd: Int)] {
        runCode(program.checksCode, &world, log: log)
    }

    /// Runs checking code (the checks, or the invariants) on `world` on a thread of its own.
    private func runCode(_ code: Int, _ world: inout World, log: EventLog) -> [(index: Int, passed: Bool, accessesEnd: Int)] {
        world.halted = false
        let frame = Frame(code: code, localCount: program.codes[code].localCount, kind: .body)
        let checker = world.addThread(name: "check", frames: [frame], isMain: true)
        return Machine.run(compiled, world: &world, thread: checker, localBudget: localBudget, log: log) { machine in
            machine.checking = true
            var budget = localBudget
            while !machine.world.threads[machine.thread].frames.isEmpty && !machine.world.halted && budget > 0 {
                machine.executeCurrent()
                budget -= 1
            }
            return machine.checkResults
        }
    }

    /// What the `expect` checks that fail on `world` read: the state a failure of
    /// theirs depends on.
    func failingChecksRead(_ world: World) -> [Access] {
        var copy = world
        let log = EventLog(narrate: false)
        var start = 0
        var reads: [Access] = []
        for (_, passed, end) in runChecks(&copy, log: log) {
            if !passed { reads += log.accesses[start..<end] }
            start = end
        }
        return reads
    }

    /// Why the work of `required` block `index` was not done in `world`, in words:
    /// `it never ran`, `it ran on a thread other than main`, `it ran without holding lock2`.
    public func shortfall(ofRequirement index: Int, in world: World) -> String {
        let requirement = program.requirements[index]
        let record = index < world.requirements.count ? world.requirements[index] : RequirementRecord()
        if requirement.hasDue && record.runs != record.dues {
            func times(_ n: Int) -> String { n == 1 ? "once" : n == 2 ? "twice" : "\(n) times" }
            if record.dues == 0 { return "it ran \(times(record.runs)), but it was never due" }
            if record.runs == 0 { return "it fell due \(times(record.dues)), but it never ran" }
            return "it fell due \(times(record.dues)), but it ran \(times(record.runs))"
        }
        if record.runs == 0 { return "it never ran" }
        var parts: [String] = []
        if record.offThread, let thread = requirement.thread { parts.append("on a thread other than \(thread)") }
        let missing = requirement.holding.indices.filter { $0 < 64 && record.locksMissing & (1 << UInt64($0)) != 0 }
        if !missing.isEmpty {
            parts.append("without holding " + missing.map { requirement.holding[$0] }.joined(separator: " and "))
        }
        return "it ran " + parts.joined(separator: ", ")
    }

    /// What an access touched, in words: `singleton`, `ViewController#1.cancelled`,
    /// `lock1`, `the main queue`.
    public func name(of target: Access.Target, in world: World) -> String {
        program.name(of: target, in: world)
    }
}

/// A program behind one reference, shared by every machine of an engine.
final class Compiled: Sendable {
    let program: Program

    init(_ program: Program) {
        self.program = program
    }
}
