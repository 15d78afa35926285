import RaceLabLanguage

/// Executes instructions of one thread against a world. `Engine.step` makes one,
/// runs a single step, and hands back the new world and the step's events.
///
/// The machine works on the caller's world in place: `Machine.run` lends it for the
/// machine's lifetime, so a step neither moves the world in and out nor copies it.
/// Nothing keeps a machine past `run` (a scratch copy gets a world of its own).
struct Machine {
    let compiled: Compiled
    var program: Program {
        _read { yield compiled.program }
    }
    /// The world being changed; valid only inside `Machine.run`.
    private var worldPointer: UnsafeMutablePointer<World>
    var world: World {
        _read { yield worldPointer.pointee }
        nonmutating _modify { yield &worldPointer.pointee }
    }
    var thread: ThreadID
    /// Where this step's events go. A class, so that `emit` need not mutate the
    /// machine and can take its sentence lazily; a scratch copy gets its own.
    var log: EventLog
    var events: [Event] { log.events }
    /// Objects whose count reached zero during this instruction and have a deinit to run.
    var pendingDeinits: [ObjectID] = []
    /// Objects a freed object held, still to be released (a stack: the top is next).
    /// Releasing through it instead of recursing lets a 20,000-node list go without
    /// 20,000 nested calls; see `free`.
    var pendingReleases: [ObjectID] = []
    /// True while `free` is draining `pendingReleases`.
    var drainingReleases = false
    var range: SourceRange?
    let localBudget: Int
    /// Results of `expect` checks, when the machine evaluates them, each with how many
    /// accesses the log held when it was decided (what each check read).
    var checkResults: [(index: Int, passed: Bool, accessesEnd: Int)] = []
    /// A hop back to the caller's executor that the return after it tells, with its
    /// accesses (`restoreExecutor`, then `returnFromFrame`: one step).
    var returnHop: (text: String, accesses: [Access])?
    /// Whether it evaluates the checks (`expect`, `always`), which read everything.
    var checking = false
    /// Objects the running code holds without a count (a value being returned or
    /// thrown, what its stack holds) that a release meanwhile must not free, however
    /// deep (a task's handle freed releases its value).
    var protected: [ObjectID] = []

    /// The running thread's top frame. The machine holds it while it runs, so that
    /// the interpreter reaches it directly rather than through the world's nested
    /// arrays (and copies its slots at most once); the world keeps a placeholder in
    /// its place until the machine is done.
    var current = Frame.placeholder

    private init(program: Compiled, world: UnsafeMutablePointer<World>, thread: ThreadID, localBudget: Int, log: EventLog) {
        compiled = program
        worldPointer = world
        self.thread = thread
        self.localBudget = localBudget
        self.log = log
        swapTop()
    }

    /// Runs `body` with a machine for `thread` on `world`, which it changes in place.
    static func run<Result>(
        _ program: Compiled, world: inout World, thread: ThreadID, localBudget: Int,
        log: EventLog = EventLog(narrate: true), _ body: (inout Machine) -> Result
    ) -> Result {
        withUnsafeMutablePointer(to: &world) { pointer in
            var machine = Machine(program: program, world: pointer, thread: thread, localBudget: localBudget, log: log)
            let result = body(&machine)
            machine.swapTop()
            return result
        }
    }

    /// Runs `body` with a machine for another thread of the same world (a thread this
    /// one starts), sharing its log.
    func runThread(_ id: ThreadID, _ body: (inout Machine) -> Void) {
        var machine = Machine(program: compiled, world: worldPointer, thread: id, localBudget: localBudget, log: log)
        body(&machine)
        machine.swapTop()
    }

    private mutating func swapTop() {
        guard let last = world.threads[thread].frames.indices.last else { return }
        swap(&current, &world.threads[thread].frames[last])
    }

    /// Calls into `frame`: it becomes the running thread's top frame.
    mutating func pushFrame(_ frame: Frame) {
        swapTop()
        world.threads[thread].frames.append(Frame.placeholder)
        current = frame
    }

    /// Leaves the top frame; the one below it (if any) becomes current.
    mutating func popFrame() {
        world.threads[thread].frames.removeLast()
        current = Frame.placeholder
        swapTop()
    }

    // MARK: - Frames and the operand stack

    // Borrowing accessors (`_read`): reading a field of the current frame or code
    // must not copy the frame or the code, which would retain each of their arrays.
    var state: ThreadState {
        _read { yield world.threads[thread] }
        _modify { yield &world.threads[thread] }
    }

    var frame: Frame {
        _read { yield current }
        _modify { yield &current }
    }

    var code: Code {
        _read { yield program.codes[current.code] }
    }

    var instruction: Instruction {
        program.codes[current.code].instructions[current.pc]
    }

    mutating func push(_ value: Value) { frame.slots.append(value) }

    mutating func pop() -> Value { frame.slots.removeLast() }

    func peek(_ depth: Int = 0) -> Value { frame.slots[frame.slots.count - 1 - depth] }

    mutating func advance() { frame.pc += 1 }

    var threadName: String { world.threadNames[thread] }

    // MARK: - Events and findings

    func emit(_ text: @autoclosure () -> String, _ accesses: [Access] = []) {
        if log.emitted == 0 { log.range = range }
        log.emitted += 1
        log.accesses += accesses
        if log.narrate { log.events.append(Event(step: world.stepCount, thread: thread, range: range, text: text(), accesses: accesses)) }
    }

    /// `emit` with one access, without building an array for it when not narrating.
    func emit(_ text: @autoclosure () -> String, _ access: Access) {
        if log.emitted == 0 { log.range = range }
        log.emitted += 1
        log.accesses.append(access)
        if log.narrate { log.events.append(Event(step: world.stepCount, thread: thread, range: range, text: text(), accesses: [access])) }
    }

    /// Records an access that no sentence of the trace mentions.
    func touch(_ target: Access.Target, _ kind: Access.Kind) {
        log.accesses.append(Access(target, kind))
    }

    mutating func report(_ kind: Finding.Kind, _ message: String) {
        world.findings.append(Finding(kind: kind, step: world.stepCount, thread: thread, range: range, message: message))
    }

    /// Whether a value of this weight may be built; if not, the step crashes with the
    /// memory-budget finding. The whole world is measured too, but only when a heavy
    /// value is built (rare), so the check costs nothing on ordinary steps.
    mutating func withinBudget(_ weight: Int) -> Bool {
        var total = weight
        if weight >= Self.heavyWeight { total = total &+ world.weight }
        guard weight > Value.maxWeight || total > Self.maxWorldWeight else { return true }
        let world = total > Self.maxWorldWeight ? "the world would hold \(total)" : "a value of \(weight)"
        crash(
            "memory budget: \(world) (elements and characters, nested ones too); a value may hold \(Value.maxWeight), a world \(Self.maxWorldWeight): does a value double every step?"
        )
        return false
    }

    /// A value at least this heavy makes `withinBudget` weigh the whole world.
    static let heavyWeight = 4_096
    /// The most the values of one world (globals, fields, locals) may weigh together.
    static let maxWorldWeight = 20_000_000

    /// A crash ends the program, as it would on a device.
    mutating func crash(_ message: String) {
        emit("crashes: \(message)")
        report(.crash, message)
        world.halted = true
    }

    mutating func fail(_ failure: Operators.Failure) {
        switch failure {
        case .crash(let message):
            crash(message)
        case .type(let message):
            emit("stops with a runtime error: \(message)")
            report(.runtimeError, message)
            world.halted = true
        }
    }

    // MARK: - Stepping

    /// Runs one step: the thread's next shared instruction (or the start of a
    /// main-queue block), then its local instructions up to the next shared one.
    mutating func step() {
        world.stepCount += 1
        if state.frames.isEmpty {
            startNextMainBlock()
        } else if mustEnterExecutor {
            resumeOnExecutor()
        } else if mustTakePoolThread {
            takePoolThread()
        } else {
            executeCurrent()
            // Until something shows, within the same budget as the local instructions
            // after it: an instruction that shows nothing (`work(0)`) in a loop must
            // not run forever.
            var budget = localBudget
            while !world.halted && !state.frames.isEmpty && log.emitted == 0 && state.waiting == nil {
                executeCurrent()
                budget -= 1
                if budget == 0 { stopRunaway() }
            }
        }
        normalize()
    }

    /// Stops a thread that ran `localBudget` instructions without a visible step.
    mutating func stopRunaway() {
        range = code.ranges[frame.pc]
        let line = range.map { " (line \($0.start.line))" } ?? ""
        emit("runs \(localBudget) instructions without touching shared state and is stopped")
        report(.runaway, "\(threadName) looped \(localBudget) instructions without a visible step\(line); is a loop missing its exit?")
        world.halted = true
    }

    mutating func executeCurrent() {
        executeCurrent(instruction)
    }

    /// Runs `instruction`, the thread's current one (already fetched).
    mutating func executeCurrent(_ instruction: Instruction) {
        range = code.ranges[frame.pc]
        execute(instruction)
        runPendingDeinits()
    }

    /// Runs local instructions until the thread stands before a shared one, so the
    /// next step (and whether the thread can take it) is known.
    mutating func normalize() {
        var budget = localBudget
        while !world.halted && !state.isFinished && !state.frames.isEmpty && state.waiting == nil {
            guard let next = localNext() else { break }
            executeCurrent(next)
            budget -= 1
            if budget == 0 { stopRunaway() }
        }
    }

    /// The thread's next instruction if it is local (fetched once, for running it).
    func localNext() -> Instruction? {
        let code = current.code, pc = current.pc
        let instruction = program.codes[code].instructions[pc]
        return program.codes[code].alwaysLocal[pc] || isLocal(instruction) ? instruction : nil
    }

    /// Whether an instruction can be folded into the thread's next step: it touches
    /// only the thread's own values and cannot fail.
    func isLocal(_ instruction: Instruction) -> Bool {
        switch instruction {
        case .constant, .duplicate, .storeTemp, .makeArray, .jump, .makeClosure, .catchThrown, .markHeight, .truncate, .isError:
            return true
        case .builtin(.setQualityOfService, _, _):
            // The thread's own setting; a scheduler reads it only between steps.
            if case .int(let qos) = peek() { return (0...4).contains(qos) }
            return false
        case .requirement, .requirementMet, .due, .progress, .round:
            // Only the checks (and whether the run ends idle) read what it records,
            // and records only add: no other thread can tell when it ran.
            return true
        case .pop:
            if case .object(let id) = peek() { return world.headers[id].retainCount > 0 || !world.headers[id].isAlive }
            return true
        case .storeLocal(let slot):
            return !frame.slots[slot].hasReferences
        case .load(.local(let slot)), .loadLocal(let slot):
            if case .weak = frame.slots[slot] { return false }
            return true
        case .load(.global(let g)):
            return program.globals[g].isLet
        case .isolate(let isolation, _):
            // No hop: the code runs where its caller does.
            switch isolation {
            case .generic: return state.executor == nil
            case .mainActor: return state.executor == world.mainActor && holdsExecutor
            case .inherited: return true
            case .slot(let slot):
                guard case .object(let id) = frame.slots[slot] else { return false }
                // A `@MainActor` class's instance: its state is the main actor's.
                if isMainActorObject(id) { return state.executor == world.mainActor && holdsExecutor }
                return (state.executor == id || !isActor(id)) && holdsExecutor
            }
        case .restoreExecutor(let slot):
            guard case .int(let saved) = frame.slots[slot] else { return false }
            return (saved < 0 ? nil : Int(saved)) == state.executor && holdsExecutor
        case .method(let name, let argc, _):
            // Calling a method of the script's own is a call (a hop, if any, is its
            // first instruction).
            guard case .object(let id) = peek(argc), let classIndex = world.heap[id].classIndex, program.classes[classIndex].isActor,
                let method = program.classes[classIndex].methods[program.names[name]]
            else { return false }
            return program.codes[method].parameterCount == argc + 1 && state.frames.count < 200
        case .load(.field), .store(.field), .readElement(.field), .arrayProperty(.field, _), .writeElement(.field), .arrayMutation(.field, _),
            .contains(.field), .iterate(.field, _, _, _, _):
            // An actor's state, in a job on it: nobody else can see it meanwhile.
            guard let id = isolatedFieldObject(instruction), world.headers[id].owner == thread else { return false }
            return wouldSucceed(instruction, telling: true)
        case .readElement(let place), .arrayProperty(let place, _):
            if case .global(let g) = place { return program.globals[g].isLet && wouldSucceed(instruction) }
            return !place.isShared && wouldSucceed(instruction)
        case .arrayMutation(let place, _), .writeElement(let place), .iterate(let place, _, _, _, _):
            return !place.isShared && wouldSucceed(instruction)
        case .unary(let op):
            if case .success = Operators.unary(op, peek()) { return true }
            return false
        case .binary(let op):
            if case .success = Operators.binary(op, peek(1), peek()) { return true }
            return false
        case .unwrap:
            return peek() != .none
        case .jumpIfFalse:
            if case .bool = peek() { return true }
            return false
        case .call:
            return state.frames.count < 200
        case .ret:
            // Returning from a call, or a thread finishing (nothing can wait for a
            // plain thread), is local unless it releases a reference.
            var threadEnd = false
            if state.frames.count == 1 {
                switch frame.kind {
                case .body: threadEnd = true
                case .completion: threadEnd = !state.isMain
                default: break
                }
            }
            guard frame.kind == .call || threadEnd else { return false }
            // Main's code ending leaves the main actor: a step others see.
            if threadEnd && state.isMain && state.executor != nil { return false }
            return zip(frame.slots, code.localIsTemp).allSatisfy { $1 || !$0.hasReferences }
        case .builtin(.assert, _, _):
            return peek(1) == .bool(true)
        case .task(.endChild):
            // An `async let` whose value this thread has got: leaving its scope does
            // nothing (that the child has finished is this thread's own knowledge).
            if case .object(let id) = peek(), let task = taskState(id) { return task.isFinished && task.isAwaited }
            return false
        case .builtin(.isMainThread, _, _), .builtin(.sum, _, _):
            return wouldSucceed(instruction)
        default:
            return false
        }
    }

    /// Tries an instruction on a scratch copy (of the machine and the world); true when
    /// it raised no finding.
    ///
    /// - Parameter telling: whether it may say what it did (an actor's isolated state,
    ///   read or written in a job on it, is told, yet folded into the step).
    func wouldSucceed(_ instruction: Instruction, telling: Bool = false) -> Bool {
        var copy = world
        let findings = world.findings.count
        return withUnsafeMutablePointer(to: &copy) { pointer in
            var scratch = self
            scratch.worldPointer = pointer
            scratch.log = EventLog(narrate: false)
            scratch.execute(instruction)
            return !pointer.pointee.halted && (telling ? pointer.pointee.findings.count == findings : scratch.log.emitted == 0)
        }
    }
}
