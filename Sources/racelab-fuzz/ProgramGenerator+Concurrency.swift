/// Swift concurrency's statements: an actor with a method that awaits in the middle
/// (its state re-read after the await: reentrancy), an async function, hops onto the
/// actor from tasks and main, tasks started in code, awaited and cancelled,
/// structured children (`async let`, task groups), errors and sleeps, a `@MainActor`
/// class and `MainActor.run`, a stream's `onTermination`.
extension ProgramGenerator {
    /// `actor Acc` (`let acc = Acc()`) and `fetch(n)`, an async function off any actor.
    mutating func writeActor() {
        emit("actor Acc {")
        emit("    var v = 0")
        emit("    func add(n) {")
        emit("        v += n")
        emit("    }")
        emit("    func slow(n) async -> Int {")
        emit("        let before = v")
        emit(choices.chance(50) ? "        await Task.yield()" : "        let f = await fetch(n)")
        emit("        v = before + n")
        emit("        return v")
        emit("    }")
        emit("}")
        emit("let acc = Acc()")
        emit("@MainActor class Model {")
        emit("    var m = 0")
        emit("    func bump(n) {")
        emit("        m += n")
        emit("    }")
        emit("}")
        emit("let model = Model()")
        emit(
            "let (st, sc) = AsyncStream.makeStream(of: Int.self"
                + choices.pick(["", ", bufferingPolicy: .bufferingNewest(1)", ", bufferingPolicy: .bufferingOldest(1)", ", bufferingPolicy: .unbounded"])
                + ")")
        emit("func fetch(n) async -> Int {")
        emit(choices.chance(50) ? "    await Task.yield()" : "    x += 1")
        emit("    return n")
        emit("}")
    }

    /// A hop onto the actor, a read of its state, an async call or a yield; a
    /// continuation resumed by a thread of its own; a stream fed, finished or drained.
    mutating func actorStatement() {
        switch choices.below(9) {
        case 5:
            // Errors and time: a sleep on the virtual clock, a cancellation check.
            if choices.chance(50) {
                emit("try? await Task.sleep(for: .milliseconds(\(1 + choices.below(3))))")
            } else {
                emit("do {")
                indent += 1
                emit("try Task.checkCancellation()")
                indent -= 1
                // A closure that may not throw (a group's child) needs every error caught.
                emit("} catch is CancellationError {")
                indent += 1
                emit("x += 1")
                indent -= 1
                emit("} catch {")
                indent += 1
                emit("y += 1")
                indent -= 1
                emit("}")
            }
            return
        case 3:
            // `async let`: awaited, or left to its scope's end (cancelled, awaited).
            let name = fresh("al")
            emit("async let \(name) = fetch(\(choices.below(3)))")
            if choices.chance(60) { emit("x += await \(name)") }
            return
        case 4 where canNest:
            // A task group: children, perhaps cancelled, their results taken or not.
            let group = fresh("group")
            emit("await withTaskGroup(of: Int.self) { \(group) in")
            indent += 1
            for _ in 0..<(1 + choices.below(2)) {
                block(
                    "\(group).addTask\(choices.pick(["", "(priority: .high)"])) {", count: 1, closure: true, async: true,
                    after: ["return \(1 + choices.below(2))"])
            }
            if choices.chance(30) { emit("\(group).cancelAll()") }
            emit(
                choices.pick([
                    "for await r in \(group) { x += r }", "x += await \(group).next() ?? 0", "await \(group).waitForAll()", "x += 1",
                ]))
            indent -= 1
            emit("}")
            return
        case 0:
            let name = newLocal(.int)
            emit("let \(name) = await withCheckedContinuation { continuation in")
            emit("    spawn \(fresh("cb")) {")
            emit(choices.chance(80) ? "        continuation.resume(returning: \(choices.below(3)))" : "        x += 1")
            emit("    }")
            emit("}")
            return
        case 1:
            emit(
                choices.pick([
                    "sc.yield(\(1 + choices.below(3)))", "sc.finish()", "if sc.yield(1) == \"dropped\" { x += 1 }", "sc.onTermination = { t in x += 1 }",
                ]))
            return
        case 2 where canNest:
            block("for await v\(serial + 1) in st {", count: 1, locals: [Local(name: "v\(serial + 1)", kind: .int, mutable: false, level: level)])
            serial += 1
            return
        default: break
        }
        emit(oneOf: [
            "await acc.add(\(choices.below(3)))", "let NEW = await acc.v", "let NEW = await acc.slow(\(1 + choices.below(2)))",
            "let NEW = await fetch(\(choices.below(3)))", "await Task.yield()", "x = await acc.slow(1)",
            "let NEW = await Task.detached { return 2 }.value", "await model.bump(\(choices.below(3)))", "let NEW = await model.m",
            "let NEW = await MainActor.run { return x }",
        ])
    }

    /// A task started in code: implicitly isolated, on the main actor, or detached,
    /// perhaps with a priority; perhaps awaited (an escalation), perhaps cancelled.
    mutating func taskStatement() {
        let name = fresh("task")
        let priority = choices.pick(["", "", "(priority: .high)", "(priority: .low)", "(priority: .background)"])
        let header = choices.pick([
            "let \(name) = Task\(priority) {", "let \(name) = Task\(priority) { @MainActor in", "let \(name) = Task.detached\(priority) {",
        ])
        block(header, count: 1 + choices.below(2), closure: true, async: true)
        switch choices.below(4) {
        case 0: emit("let \(newLocal(.int)) = await \(name).value")
        case 1: emit("\(name).cancel()")
        default: break
        }
    }
}
