/// Statements that hand work to other threads: dispatch queues (serial, concurrent,
/// global, main; sync, async, barriers), dispatch groups, operation queues and their
/// operations (dependencies, completion blocks, observers, asynchronous operations,
/// block operations, cancellation, suspension).
extension ProgramGenerator {
    /// A block sent to `q`, perhaps with a barrier or a group.
    mutating func queueStatement() {
        var starts = ["q.async {", "q.sync {", "DispatchQueue.global().async {"]
        if toolkit.queue != "serial" || choices.chance(20) { starts += ["q.async(flags: .barrier) {", "q.sync(flags: .barrier) {"] }
        if toolkit.group { starts += ["q.async(group: g) {", "q.async(group: g, flags: .barrier) {"] }
        block(choices.pick(starts), count: 1 + choices.below(2), closure: true)
    }

    /// A block for the main thread, by each of its spellings.
    mutating func mainQueueStatement() {
        let start = choices.pick([
            "main.async {", "main.sync {", "DispatchQueue.main.async {", "DispatchQueue.main.sync {", "OperationQueue.main.addOperation {",
        ])
        block(start, count: 1, closure: true)
    }

    /// Entering and leaving by hand (around code here or in a block sent elsewhere),
    /// waiting, with or without a timeout, and notification.
    mutating func groupStatement() {
        switch choices.below(canNest ? 7 : 3) {
        case 0: emit("g.wait()")
        case 1:
            emit("g.enter()")
            emit("g.leave()")
        case 2: emit(choices.chance(20) ? "g.leave()" : "g.wait(timeout: .distantFuture)")
        case 3:
            emit("g.enter()")
            let start = toolkit.queue != nil && choices.chance(50) ? "q.async {" : "spawn \(fresh("w")) {"
            block(start, count: 1, closure: true, after: ["g.leave()"])
        case 4: block("if g.wait(timeout: .now()) == \(choices.pick([".success", ".timedOut"])) {", count: 1)
        case 5 where toolkit.queue != nil: block("g.notify(queue: q) {", count: 1, closure: true)
        default: block("g.notify(queue: DispatchQueue.main) {", count: 1, closure: true)
        }
    }

    /// An operation made, set up and run: added to `oq` (or started here), perhaps
    /// with a dependency on an earlier one, a completion block, an observer, a
    /// priority; perhaps asynchronous (finished by a block it sends), or a block
    /// operation with a second block, or a `Job` (an Operation subclass); then perhaps
    /// waited for or cancelled.
    mutating func operation() {
        var earlier = locals(.operation).filter { $0.name != "op" }.map(\.name)
        var prerequisite: String?
        if earlier.isEmpty && choices.chance(40) {
            let first = fresh("o")
            emit("let \(first) = Operation(name: \"\(first)\") { op in y += 1 }")
            declare(first, .operation)
            earlier = [first]
            prerequisite = first
        }
        let name = fresh("o")
        let parameter = Local(name: "op", kind: .operation, mutable: false, level: level)
        switch choices.below(5) {
        case 4:
            emit("let \(name) = Job(amount: \(1 + choices.below(3)))")
        case 0, 1:
            let check = choices.chance(30) ? ["if op.isCancelled { y = 1 }"] : []
            block(
                "let \(name) = Operation(name: \"\(name)\") { op in", count: 1 + choices.below(2), closure: true, locals: [parameter],
                before: check)
        case 2:
            let finish = choices.pick(["op.finish()", "op.isFinished = true"])
            emit("let \(name) = Operation(name: \"\(name)\", isAsynchronous: true) { op in")
            indent += 1
            if choices.chance(70) {
                block("DispatchQueue.global().async {", count: 1, closure: true, locals: [parameter], after: [finish])
            } else if choices.chance(50) {
                emit(finish)
            } else {
                emit("x += 1")
            }
            indent -= 1
            emit("}")
        default:
            block("let \(name) = BlockOperation {", count: 1, closure: true)
            block("\(name).addExecutionBlock {", count: 1, closure: true)
        }
        declare(name, .operation)
        if let other = earlier.last, choices.chance(50) {
            emit("\(name).addDependency(\(other))")
            if choices.chance(25) { emit("\(name).removeDependency(\(other))") }
        }
        switch choices.below(8) {
        case 0: block("\(name).completionBlock = {", count: 1, closure: true)
        case 1: block("\(name).addObserver(forKeyPath: \"isFinished\") {", count: 1, closure: true)
        case 2: emit("\(name).queuePriority = \(choices.pick([".high", ".veryLow", ".low", ".normal", ".veryHigh"]))")
        case 3: emit("\(name).qualityOfService = \(choices.pick([".utility", ".userInitiated", ".background"]))")
        case 4: emit("\(name).name = \"renamed\"")
        default: break
        }
        emit(choices.chance(85) ? "oq.addOperation(\(name))" : "\(name).start()")
        if let prerequisite { emit("oq.addOperation(\(prerequisite))") }
        switch choices.below(7) {
        case 0: emit("\(name).waitUntilFinished()")
        case 1: emit("\(name).cancel()")
        case 2: emit("if \(name).isCancelled || \(name).isFinished { y += 1 }")
        case 3: emit("if \(name).isReady && !\(name).isAsynchronous { y = 2 }")
        default: break
        }
    }

    /// What a thread asks of the operation queue as a whole.
    mutating func operationQueueStatement() {
        switch choices.below(canNest ? 5 : 3) {
        case 0: emit("oq.waitUntilAllOperationsAreFinished()")
        case 1: emit("oq.cancelAllOperations()")
        case 2:
            emit("oq.isSuspended = true")
            emit("oq.isSuspended = false")
        case 3:
            emit("oq.isSuspended = true")
            depth += 1
            body(1)
            depth -= 1
            emit("oq.isSuspended = false")
        default: block("oq.addOperation {", count: 1, closure: true)
        }
    }
}
