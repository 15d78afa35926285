/// A world's canonical form, as bytes: two worlds with the same bytes behave the same
/// from here on (the same steps, accesses, outcomes and findings), so the stateful
/// search visits each once. Left out or reduced, because nothing that decides what
/// happens next reads it:
///
/// - the step count and the output (what `print` wrote is shown by traces, not
///   outcomes; a server that prints forever would otherwise never repeat a state);
/// - each finding's text and step: only the kinds found so far (the outcome's);
/// - versions: a variable's or field's version is bumped by every write, and only
///   compared with a version kept earlier (a `for` loop's, a spinning thread's), to
///   see whether a write came in between. So the current versions are left out,
///   and each kept one is one bit, "still current". Versions only grow, so a stale
///   one never becomes current again: the bit is all the future can tell.
///
/// - main-queue block numbers: only told apart, and looked up among the finished
///   ones, so they are renumbered in the order the encoding meets them, the next
///   number left out, and of the finished ones only those still named are written
///   (a thread that sends main a block in a loop would otherwise never repeat a state).
///
/// - what is fixed from the start: a thread or object in the initial world keeps
///   its name for good (names are given when made, or while the globals are set
///   up), so only later ones' names are written; a `let` global never changes; a
///   class instance's field count is its class's.
///
/// Everything else is written: threads (frames, waits, spin watches), globals, the
/// heap (objects by number, as numbers are observable in names), headers, the main
/// queue and the operation queues. Numbers are variable-length (LEB128, zigzag for
/// signed), so a small world takes a few dozen bytes.
struct StateEncoder {
    let program: Program
    /// The threads and objects every run starts with: only the names of later ones
    /// are written.
    let initialThreads: Int
    let initialObjects: Int
    /// The last world's bytes (valid until the next `encode`).
    let bytes = ByteBuffer()
    /// Whether the spin bookkeeping is part of the state: a thread's spin watch
    /// (`SpinWatch`) still current. Off only in tests that compare states up to it.
    /// (A stale watch and a released spin wait are never written: each behaves as none.)
    var keepsSpinWatches = true
    /// Main-queue block numbers met so far in this encoding, in the order met.
    var blocks: [Int] = []

    init(program: Program, initial: World) {
        self.program = program
        initialThreads = initial.threads.count
        initialObjects = initial.heap.count
    }

    /// Whether a thread's `completedRound` is set and can still make a difference: only
    /// while one of its frames stands in the top of a loop where a wait would rest
    /// (`Code.roundIdlePoints`). Anywhere else the thread passes the end of a round,
    /// which sets it, before it can come back there, so two worlds that differ only in
    /// it have the same futures and are one state.
    func completedRoundMatters(_ thread: ThreadState) -> Bool {
        guard thread.completedRound else { return false }
        return thread.frames.contains { frame in
            frame.code >= 0 && program.codes[frame.code].roundIdlePoints.contains { $0.contains(frame.pc) }
        }
    }

    /// Encodes `world` into `bytes`.
    mutating func encode(_ world: World) {
        bytes.reset()
        blocks.removeAll(keepingCapacity: true)
        put(world.halted ? 1 : 0)
        put(world.threads.count)
        // By index, not by element: an element loop copies each thread, frame and
        // object (a retain and a release of each of its arrays), which cost a third
        // of a search step.
        for id in world.threads.indices {
            if id >= initialThreads { put(world.threadNames[id]) }
            put(
                (world.threads[id].isFinished ? 1 : 0) | (world.threads[id].isMain ? 2 : 0)
                    | (completedRoundMatters(world.threads[id]) ? 4 : 0) | world.threads[id].priority << 3)
            put(optional: world.threads[id].operation)
            put(world.threads[id].frames.count)
            for f in world.threads[id].frames.indices { put(world.threads[id].frames[f], world) }
            encodeWait(world.threads[id].waiting, world)
            if program.usesConcurrency {
                put(optional: world.threads[id].task)
                put(optional: world.threads[id].executor)
                put(world.threads[id].onPool ? 1 : 0)
                if let thrown = world.threads[id].thrown {
                    put(1)
                    put(thrown)
                } else {
                    put(0)
                }
                // The clock's reading matters only against the deadlines (it only grows).
                // As `put(optional:)` writes it, in 64 bits on every platform.
                put(bits: world.threads[id].sleepsUntil.map { UInt64(bitPattern: $0 - world.clock + 1) } ?? 0)
            }
            // Pools exist only under manual memory: elsewhere they add no bytes.
            if program.manualMemory {
                put(world.threads[id].pools.count)
                for pool in world.threads[id].pools.indices {
                    put(world.threads[id].pools[pool].count)
                    for object in world.threads[id].pools[pool] { put(object) }
                }
            }
            // A stale watch is no watch (`Engine.watchSpin`).
            if keepsSpinWatches, let watch = world.threads[id].spin, !watch.isStale(in: world) {
                put(1 + watch.steps)
                put(watch.anchor.count)
                for f in watch.anchor.indices { put(watch.anchor[f], world) }
                put(watch.reads, world)
            } else {
                put(0)
            }
        }
        // A `let` global is set once, before the first step, and never changes.
        for g in world.globals.indices where !program.globals[g].isLet { put(world.globals[g]) }
        put(world.heap.count)
        // Through the buffer: `world.heap[id]` would copy the object (a retain and a
        // release of each of its arrays) to pass it.
        world.heap.withUnsafeBufferPointer { heap in
            for id in heap.indices {
                put(heap[id], named: id >= initialObjects, world)
                // One byte says which of the header's rarely set parts follow.
                let header = world.headers[id]
                let held = header.owner != nil || header.depth != 0
                put((header.isAlive ? 1 : 0) | (held ? 2 : 0) | (header.deallocatedOn != nil ? 4 : 0))
                put(header.retainCount)
                if held {
                    put(optional: header.owner)
                    put(header.depth)
                }
                if let thread = header.deallocatedOn { put(thread) }
                if program.manualMemory { put(optional: header.deallocatedIn) }
            }
        }
        for count in world.created { put(count) }
        for count in world.builtinsNamed { put(count) }
        put(world.mainQueue.count)
        for block in world.mainQueue {
            put(block: block.id)
            put(block.closure)
            put(block.sender)
        }
        for block in blocks { put(world.completedBlocks.contains(block) ? 1 : 0) }
        put(world.queues.count)
        for queue in world.queues { put(queue) }
        var kinds = 0
        for finding in world.findings { kinds |= 1 << Finding.Kind.allCases.firstIndex(of: finding.kind)! }
        put(kinds)
        put(world.requirements.count)
        for record in world.requirements {
            put(record.runs)
            put(record.dues)
            put(record.offThread ? 1 : 0)
            put(Int(truncatingIfNeeded: record.locksMissing))
        }
        put(world.criticalInside.count)
        for inside in world.criticalInside {
            put(inside.count)
            for thread in inside { put(thread) }
        }
    }

    // MARK: - Parts

    private mutating func put(_ frame: Frame, _ world: World) {
        put(frame.code)
        put(frame.pc)
        put(frame.localCount)
        switch frame.kind {
        case .body: put(0)
        case .call: put(1)
        case .deinitializer(let id): put(2); put(id)
        case .mainBlock(let id): put(3); put(block: id)
        case .operation(let id): put(4); put(id)
        case .completion(let id): put(5); put(id)
        case .started(let id): put(6); put(id)
        case .observer(let id): put(7); put(id)
        case .task(let id): put(8); put(id)
        case .cancellationHandler(let id): put(9); put(id)
        case .terminationHandler(let id): put(10); put(id)
        }
        put(frame.slots.count)
        if frame.code < 0 || program.codes[frame.code].enumerations.isEmpty {
            for slot in frame.slots.indices { put(frame.slots[slot]) }
            return
        }
        let enumerations = program.codes[frame.code].enumerations
        for (slot, value) in frame.slots.enumerated() {
            if let enumeration = enumerations.first(where: { $0.versionSlot == slot }), case .int(let kept) = value {
                put(6)
                let object = enumeration.objectSlot.flatMap { $0 < frame.slots.count ? frame.slots[$0] : nil }
                put(kept == world.version(of: enumeration.place, object: object, program: program) ? 1 : 0)
            } else {
                put(value)
            }
        }
    }

    private mutating func put(_ reads: [SpinRead], _ world: World) {
        put(reads.count)
        for read in reads {
            put(Int(truncatingIfNeeded: Access(read.target, .read).targetBits))
            put(read.version == world.version(of: read.target) ? 1 : 0)
        }
    }

    private mutating func encodeWait(_ wait: Wait?, _ world: World) {
        var wait = wait
        // A spin wait already released is no wait: the thread's next step clears it,
        // and a thread that blocked in a spin holds no watch.
        if case .spin(let reads) = wait, reads.contains(where: { $0.version != world.version(of: $0.target) }) { wait = nil }
        switch wait {
        case nil: put(0)
        case .lock(let id, let reentrant): put(reentrant ? 2 : 1); put(id)
        case .operation(let id): put(3); put(id)
        case .queue(let id): put(4); put(id)
        case .mainBlock(let id): put(5); put(block: id)
        case .spin(let reads): put(6); put(reads, world)
        case .semaphore(let id): put(7); put(id)
        case .condition(let id): put(8); put(id)
        case .conditionWoken(let id): put(9); put(id)
        case .group(let id): put(10); put(id)
        case .actor(let id): put(11); put(id)
        case .task(let id): put(12); put(id)
        case .continuation(let id): put(13); put(id)
        case .pool: put(14)
        case .stream(let id): put(15); put(id)
        case .taskGroup(let id, let all): put(all ? 17 : 16); put(id)
        case .sleep: put(18)
        }
    }

    private mutating func put(_ object: HeapObject, named: Bool, _ world: World) {
        if named { put(object.name) }
        put(optional: object.classIndex)
        if object.classIndex == nil { put(object.fields.count) }
        for field in object.fields.indices { put(object.fields[field]) }
        switch object.kind {
        case .instance: put(0)
        case .lock(let recursive, let inherits): put(recursive ? 5 : inherits ? 9 : 1)
        case .semaphore(let count):
            put(4)
            put(count)
        case .condition(let waiters):
            put(6)
            put(waiters.count)
            for thread in waiters { put(thread) }
        case .atomic: put(8)
        case .group(let state):
            put(7)
            put(state.entered)
            put(state.notifications.count)
            for notification in state.notifications {
                put(notification.closure)
                put(optional: notification.queue)
            }
        case .operation(let state):
            put(2)
            put(optional: state.closure)
            put(optional: state.completion)
            put(state.dependencies.count)
            for id in state.dependencies { put(id) }
            switch state.phase {
            case .created: put(state.isCancelled ? 1 : 0)
            case .pending: put(state.isCancelled ? 3 : 2)
            case .executing: put(state.isCancelled ? 5 : 4)
            case .finished: put(state.isCancelled ? 7 : 6)
            }
            put(optional: state.queue)
            put(optional: state.thread)
            put(state.isBarrier ? 1 : 0)
            put(optional: state.group)
            put(state.isAsynchronous ? 1 : 0)
            put(signed: Int64(state.priority))
            put(state.qualityOfService)
            put(state.running)
            put(state.moreBlocks.count)
            for block in state.moreBlocks { put(block) }
            put(state.observers.count)
            for block in state.observers { put(block) }
        case .actor(let mailbox):
            put(10)
            put(mailbox.count)
            for thread in mailbox { put(thread) }
        case .task(let state):
            put(11)
            put(state.thread)
            put((state.isCancelled ? 1 : 0) | (state.isFinished ? 2 : 0) | (state.isAwaited ? 4 : 0) | (state.didThrow ? 8 : 0))
            put(state.value)
            put(state.handlers.count)
            for handler in state.handlers { put(handler) }
            put(state.children.count)
            for child in state.children { put(child) }
            put(optional: state.group)
            put(Int(state.priority.rawValue))
        case .stream(let state):
            put(13)
            switch state.policy {
            case .unbounded: put(0)
            case .bufferingOldest(let n): put(1); put(n)
            case .bufferingNewest(let n): put(2); put(n)
            }
            put(state.buffer.count)
            for value in state.buffer { put(value) }
            put(state.isFinished ? 1 : 0)
            put(state.waiting.count)
            for thread in state.waiting { put(thread) }
            put(state.handed.count)
            for handoff in state.handed {
                put(handoff.consumer)
                put(handoff.value)
                put(handoff.isEnd ? 1 : 0)
            }
            put(optional: state.onTermination)
        case .taskGroup(let state):
            put(14)
            put((state.isCancelled ? 1 : 0) | (state.isOpen ? 2 : 0))
            put(state.owner)
            put(state.children.count)
            for child in state.children { put(child) }
            put(state.finished.count)
            for child in state.finished { put(child) }
        case .continuation(let state):
            put(12)
            put(state.task)
            put(state.function)
            put((state.isResumed ? 1 : 0) | (state.didThrow ? 2 : 0))
            put(state.value)
        case .queue(let state):
            put(3)
            put(state.maxConcurrent)
            put(state.isSuspended ? 1 : 0)
            put(state.operations.count)
            for id in state.operations { put(id) }
            put(state.blocks)
            put(state.isGlobal ? 1 : 0)
        }
    }
}
