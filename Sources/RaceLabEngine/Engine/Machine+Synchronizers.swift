/// Locks, semaphores, conditions, dispatch groups and atomics (`NSLock`,
/// `NSRecursiveLock`, `DispatchSemaphore`, `NSCondition`, `DispatchGroup`, `Atomic`):
/// their methods, and the waits that take several steps of one instruction. The lock
/// mechanics they share (`acquire`, `unlock`) are in Machine+Threads.
extension Machine {
    /// Methods of locks, semaphores, conditions, groups and atomics: taking, letting
    /// go, waiting, signalling, loading and changing. Returns false for any other
    /// object or method.
    mutating func executeSynchronizerMethod(_ name: String, on id: ObjectID, _ arguments: [Value], orderings: AtomicOrderings) -> Bool {
        if case .atomic = world.heap[id].kind { return executeAtomicMethod(name, on: id, arguments, orderings: orderings) }
        let objectName = world.heap[id].name
        switch (world.heap[id].kind, name, arguments.count) {
        case (.lock(let recursive, _), "lock", 0):
            acquire(id, reentrant: recursive) { "locks \($0)" }
            if state.waiting == nil { push(.none) }
        case (.lock(let recursive, _), "try", 0):
            let owner = world.headers[id].owner
            frame.slots.removeLast()
            if world.headers[id].canBeTaken(by: thread, reentrant: recursive) {
                world.headers[id].owner = thread
                world.headers[id].depth += 1
                push(.bool(true))
                advance()
                emit("tries \(objectName) and takes it", Access(.lock(id), .acquire))
            } else {
                push(.bool(false))
                advance()
                var holder: String { owner == thread ? "itself" : world.threadNames[owner!] }
                emit("tries \(objectName), held by \(holder): false", Access(.lock(id), .read))
            }
        case (.condition, "lock", 0):
            acquire(id, reentrant: false) { "locks \($0)" }
            if state.waiting == nil { push(.none) }
        case (.condition(let waiters), "wait", 0):
            waitOnCondition(id, waiters: waiters)
        case (.condition(let waiters), "signal", 0), (.condition(let waiters), "broadcast", 0):
            let woken = name == "signal" ? Array(waiters.prefix(1)) : waiters
            for waiter in woken { world.threads[waiter].waiting = .conditionWoken(id) }
            world.heap[id].kind = .condition(waiters: Array(waiters.dropFirst(woken.count)))
            var text: String {
                let verb = name == "signal" ? "signals" : "broadcasts on"
                guard !woken.isEmpty else { return "\(verb) \(objectName), but no thread waits: the signal is lost" }
                let who = woken.map { world.threadNames[$0] }.joined(separator: ", ")
                return "\(verb) \(objectName): \(who) \(woken.count == 1 ? "wakes" : "wake") and must take it again"
            }
            returnFromMethod(argc: arguments.count, text, [Access(.object(id), .write)])
        case (.semaphore(let count), "wait", 0):
            waitOnSemaphore(id, count: count, argc: 0)
        case (.semaphore(let count), "wait(timeout:)", 1):
            switch arguments[0] {
            case .string("distantFuture"):
                waitOnSemaphore(id, count: count, argc: 1)
            case .string("now"):
                frame.slots.removeLast(2)
                if count > 0 {
                    world.heap[id].kind = .semaphore(count: count - 1)
                    push(.string("success"))
                    advance()
                    emit("tries \(objectName) (a wait that times out at once) and takes one (count now \(count - 1)): .success", Access(.lock(id), .acquire))
                } else {
                    push(.string("timedOut"))
                    advance()
                    emit("tries \(objectName) (a wait that times out at once): the count is 0, so .timedOut", Access(.lock(id), .read))
                }
            default:
                fail(.type("wait(timeout:) takes .now() or .distantFuture"))
            }
        case (.semaphore(let count), "signal", 0):
            guard count < Int.max else {
                fail(.crash("\(objectName).signal(): the count would pass Int.max"))
                return true
            }
            world.heap[id].kind = .semaphore(count: count + 1)
            let waiter = world.threads.indices.contains { world.threads[$0].waiting == .semaphore(id) }
            frame.slots.removeLast()
            push(.int(waiter ? 1 : 0))
            advance()
            emit(
                "signals \(objectName) (count now \(count + 1))" + (waiter ? ": a waiting thread can go on" : ""),
                Access(.lock(id), .release))
        case (.group(var group), "enter", 0):
            guard group.entered < Int.max else {
                fail(.crash("\(objectName).enter(): entered too many times"))
                return true
            }
            group.entered += 1
            world.heap[id].kind = .group(group)
            returnFromMethod(argc: 0, "enters \(objectName) (\(group.entered) in it now)", [Access(.lock(id), .write)])
        case (.group, "leave", 0):
            frame.slots.removeLast()
            push(.none)
            advance()
            leaveGroup(id, byCall: true)
        case (.group(let group), "wait", 0):
            waitOnGroup(id, group, argc: 0)
        case (.group(let group), "wait(timeout:)", 1):
            switch arguments[0] {
            case .string("distantFuture"):
                waitOnGroup(id, group, argc: 1)
            case .string("now"):
                frame.slots.removeLast(2)
                let done = group.entered == 0
                push(.string(done ? "success" : "timedOut"))
                advance()
                emit(
                    "checks \(objectName) (a wait that times out at once): "
                        + (done ? "nothing is left in it, so .success" : "work is still in it, so .timedOut"),
                    Access(.lock(id), .read))
            default:
                fail(.type("wait(timeout:) takes .now() or .distantFuture"))
            }
        case (.group(var group), "notify(queue:)", 2):
            var queue: ObjectID?
            switch (arguments[0], arguments[1]) {
            case (.string("main"), .closure):
                queue = nil
            case (.object(let q), .closure) where self.queue(q) != nil:
                queue = q
            default:
                fail(.type("notify(queue:) needs a dispatch queue and a closure: group.notify(queue: q) { … }"))
                return true
            }
            guard case .closure(let closure) = arguments[1] else { return true }
            let target = queue.map { world.heap[$0].name } ?? "the main queue"
            if group.entered == 0 {
                frame.slots.removeLast(3)
                push(.none)
                advance()
                emit("asks \(objectName) to notify \(target), and it is empty already", Access(.lock(id), .read))
                sendNotification(GroupNotification(closure: closure, queue: queue))
            } else {
                group.notifications.append(GroupNotification(closure: closure, queue: queue))
                world.heap[id].kind = .group(group)
                returnFromMethod(argc: 2, "asks \(objectName) to send a block to \(target) once it is empty", [Access(.lock(id), .write)])
            }
        case (.lock, "unlock", 0), (.condition, "unlock", 0):
            frame.slots.removeLast()
            push(.none)
            advance()
            unlock(id) { "unlocks \($0)" }
        default:
            return false
        }
        return true
    }

    /// `semaphore.wait()` (or with a timeout that never comes): takes one, or blocks
    /// at 0 and retries the same instruction (its `argc` arguments still on the stack)
    /// once a signal makes the count positive.
    mutating func waitOnSemaphore(_ id: ObjectID, count: Int, argc: Int) {
        var name: String { world.heap[id].name }
        guard count > 0 else {
            state.waiting = .semaphore(id)
            emit("waits on \(name) (count 0): it blocks", Access(.lock(id), .read))
            checkForwardProgress("\(name).wait()")
            return
        }
        let woken = state.waiting != nil
        state.waiting = nil
        world.heap[id].kind = .semaphore(count: count - 1)
        frame.slots.removeLast(argc + 1)
        push(.none)
        advance()
        emit(
            (woken ? "is woken and takes one from \(name)" : "waits on \(name) and takes one at once") + " (count now \(count - 1))",
            Access(.lock(id), .acquire))
    }

    /// `condition.wait()`, in steps of the same instruction told apart by what the
    /// thread waits for: first it lets go of the condition's lock and joins its
    /// waiters; a signal (or a spurious wakeup, its own step) wakes it; then it
    /// takes the lock again and returns, or blocks on the lock until it is free. A
    /// woken thread can always run: no other thread's step disables it, which is what
    /// the explorer's reduction expects of every step but taking a lock.
    mutating func waitOnCondition(_ id: ObjectID, waiters: [ThreadID]) {
        var name: String { world.heap[id].name }
        switch state.waiting {
        case .condition(id):
            // Scheduled while still waiting: no signal came.
            state.waiting = .conditionWoken(id)
            world.heap[id].kind = .condition(waiters: waiters.filter { $0 != thread })
            emit("wakes up with no signal (a spurious wakeup)", Access(.object(id), .write))
        case .conditionWoken(id) where world.headers[id].owner != nil:
            let holder = world.headers[id].owner!
            state.waiting = .lock(id, reentrant: false)
            emit("must take \(name) again, but \(world.threadNames[holder]) holds it: it blocks", [Access(.lock(id), .read), Access(.object(id), .read)])
        case .conditionWoken(id), .lock(id, _):
            state.waiting = nil
            world.headers[id].owner = thread
            world.headers[id].depth = 1
            frame.slots.removeLast()
            push(.none)
            advance()
            // It reads the waiters too: the signal that woke it is ordered before it.
            emit("takes \(name) again and returns from wait()", [Access(.lock(id), .acquire), Access(.object(id), .read)])
        default:
            guard world.headers[id].owner == thread else {
                fail(.type("\(threadName) calls \(name).wait() without holding \(name): lock it first"))
                return
            }
            world.headers[id].owner = nil
            world.headers[id].depth = 0
            world.heap[id].kind = .condition(waiters: waiters + [thread])
            state.waiting = .condition(id)
            var text: String {
                let blocked = world.threads.indices.filter { world.threads[$0].waiting == .lock(id, reentrant: false) }
                let wakes = blocked.isEmpty ? "" : "; this wakes \(blocked.map { world.threadNames[$0] }.joined(separator: ", "))"
                return "waits on \(name) for a signal, letting go of it\(wakes)"
            }
            emit(text, [Access(.lock(id), .release), Access(.object(id), .write)])
        }
    }

    /// `group.wait()` (or with a timeout that never comes): goes on at once if nothing
    /// is in the group, or blocks and retries once the last unit of work leaves.
    mutating func waitOnGroup(_ id: ObjectID, _ group: GroupState, argc: Int) {
        var name: String { world.heap[id].name }
        guard group.entered == 0 else {
            state.waiting = .group(id)
            emit("waits on \(name) (\(group.entered) still in it): it blocks", Access(.lock(id), .read))
            checkForwardProgress("\(world.heap[id].name).wait()")
            return
        }
        let woken = state.waiting != nil
        state.waiting = nil
        frame.slots.removeLast(argc + 1)
        push(.none)
        advance()
        emit(woken ? "is woken: everything in \(name) has left" : "waits on \(name), which is empty already", Access(.lock(id), .read))
    }

    /// One unit of work leaves a group (`leave()`, or a block sent with
    /// `async(group:)` finishing): the last one out sends the group's notifications.
    /// Leaving a group more times than it was entered crashes, as in GCD.
    mutating func leaveGroup(_ id: ObjectID, byCall: Bool) {
        guard case .group(var group) = world.heap[id].kind else { return }
        let name = world.heap[id].name
        guard group.entered > 0 else {
            fail(.crash("\(name).leave() without a matching enter(): an unbalanced leave crashes the program"))
            return
        }
        group.entered -= 1
        let notifications = group.entered == 0 ? group.notifications : []
        if group.entered == 0 { group.notifications = [] }
        world.heap[id].kind = .group(group)
        let waiters = world.threads.indices.filter { world.threads[$0].waiting == .group(id) }.map { world.threadNames[$0] }
        var text: String {
            guard group.entered == 0 else { return "leaves \(name) (\(group.entered) still in it)" }
            let woken = waiters.isEmpty ? "" : ": \(waiters.joined(separator: ", ")) can go on"
            return "leaves \(name), the last one in it\(woken)"
        }
        if byCall {
            emit(text, Access(.lock(id), .write))
        } else {
            touch(.lock(id), .write)
            appendToLastEvent("it " + text)
        }
        for notification in notifications { sendNotification(notification) }
    }

    /// Sends a group's notification block to its queue (or to the main queue).
    mutating func sendNotification(_ notification: GroupNotification) {
        if let queue = notification.queue {
            let block = enqueueBlock(notification.closure, on: queue)
            appendToLastEvent("the notification block goes to \(world.heap[queue].name) as \(world.heap[block].name)")
            touch(.queue(queue), .write)
            startReadyOperations()
        } else {
            let block = world.nextBlockID
            world.nextBlockID += 1
            world.mainQueue.append(QueuedBlock(id: block, closure: notification.closure, sender: thread))
            appendToLastEvent("the notification block goes to the main queue")
            touch(.mainQueue, .write)
        }
    }
}
