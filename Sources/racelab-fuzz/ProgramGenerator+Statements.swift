/// The statement menu, and the statements of plain code: assignments, locals,
/// control flow, collections, objects, functions and the checks written in code.
extension ProgramGenerator {
    /// Each kind of statement the generator writes, plainest first (the choice when
    /// the bytes run out).
    enum Kind: CaseIterable {
        case assign, local, branch, forRange, whileLoop, array, forEach, dictionary, set, box, weakCapture, call, work, assert
        case critical, required, progress, exit, priority
        case lock, semaphore, condition, atomic, spin
        case queue, mainQueue, group, operation, operationQueue, spawn
        case actor, task
    }

    /// Whether blocks may still nest here.
    var canNest: Bool { depth < 3 }

    /// Whether `kind` can be written here: what it uses is declared, and it is allowed
    /// where the code is.
    func available(_ kind: Kind) -> Bool {
        switch kind {
        case .assign, .local, .work, .assert, .priority: return true
        case .branch, .forRange, .whileLoop, .spawn, .mainQueue, .required: return canNest
        case .array: return toolkit.array
        case .forEach: return canNest && (toolkit.array || toolkit.dictionary || toolkit.set)
        case .dictionary: return toolkit.dictionary
        case .set: return toolkit.set
        case .box: return toolkit.box
        case .weakCapture: return toolkit.box && canNest && !toolkit.manualMemory
        case .call: return toolkit.functions && !inFunction
        case .critical: return canNest && !inCritical
        case .progress: return loops > 0
        case .exit: return loops > 0
        case .lock: return toolkit.lock != nil
        case .semaphore: return toolkit.semaphore
        case .condition: return toolkit.condition
        case .atomic: return toolkit.atomic
        case .spin: return toolkit.atomic || toolkit.turn || toolkit.condition
        case .queue: return toolkit.queue != nil && canNest
        case .group: return toolkit.group
        case .operation: return canNest && toolkit.operations
        case .operationQueue: return toolkit.operations
        case .actor: return toolkit.actors && inAsync
        case .task: return toolkit.actors && inAsync && canNest
        }
    }

    /// One statement, of a kind available here.
    mutating func statement() {
        let kinds = Kind.allCases.filter(available)
        switch choices.pick(kinds) {
        case .assign: assign()
        case .local:
            let value = intExpression()
            let mutable = choices.chance(30)
            emit("\(mutable ? "var" : "let") \(newLocal(.int, mutable: mutable)) = \(value)")
        case .branch: branch()
        case .forRange:
            let index = fresh("i")
            block(
                "for \(index) in \(choices.pick(["0..<2", "1...2", "0..<1"])) {", count: 1 + choices.below(2), loop: true,
                locals: [Local(name: index, kind: .int, mutable: false, level: level)])
        case .whileLoop:
            let counter = fresh("i")
            emit("var \(counter) = 0")
            // The count goes up first, so `continue` cannot skip it.
            block("while \(counter) < 2 {", count: 1 + choices.below(2), loop: true, before: ["\(counter) += 1"])
        case .array: arrayStatement()
        case .forEach: forEach()
        case .dictionary:
            emit(oneOf: [
                "d[\"a\"] = \(intExpression())", "d[\"b\"] = nil", "d.removeValue(forKey: \"a\")", "d[\"b\"] = \(intExpression())",
                "let NEW = d[\"a\"] ?? 0",
            ])
        case .set: emit(choices.pick(["s.insert(\(intExpression()))", "s.remove(1)", "s.removeAll()", "s.insert(2)"]))
        case .box: boxStatement()
        case .weakCapture: weakCapture()
        case .call: emit(oneOf: ["bump()", "x = twice(\(intExpression()))", "let NEW = twice(x)"])
        case .work: emit(choices.pick(["work(1)", "print(x)", "work(2)"]))
        case .assert: emit("assert(\(boolExpression()), \"\(fresh("assertion "))\")")
        case .critical:
            inCritical = true
            block(choices.chance(50) ? "critical {" : "critical \"cs\" {", count: 1 + choices.below(2))
            inCritical = false
        case .required: required()
        case .progress: emit("progress")
        case .exit: emit("if \(boolExpression()) { \(choices.pick(["break", "continue"])) }")
        case .priority:
            let level = choices.pick([".userInteractive", ".background", ".utility", ".userInitiated", ".default"])
            emit("Thread.current.qualityOfService = \(level)")
        case .lock: lockStatement()
        case .semaphore: semaphoreStatement()
        case .condition: conditionStatement()
        case .atomic: atomicStatement()
        case .spin: spin()
        case .queue: queueStatement()
        case .mainQueue: mainQueueStatement()
        case .group: groupStatement()
        case .operation: operation()
        case .operationQueue: operationQueueStatement()
        case .spawn: block("spawn \(fresh("w")) {", count: 1 + choices.below(2), closure: true)
        case .actor: actorStatement()
        case .task: taskStatement()
        }
    }

    /// A new local of `kind`, declared in the current scope; its name.
    mutating func newLocal(_ kind: Local.Kind, mutable: Bool = false) -> String {
        let name = fresh(kind == .object ? "b" : "t")
        declare(name, kind, mutable: mutable)
        return name
    }

    private mutating func assign() {
        var targets = ["x", "y"]
        if toolkit.atomicVar { targets.append("n") }
        targets += locals(.int).filter { $0.mutable && $0.level == level }.map(\.name)
        emit("\(choices.pick(targets)) \(choices.pick(["+=", "=", "-=", "*="])) \(intExpression())")
    }

    private mutating func branch() {
        emit("if \(boolExpression()) {")
        nested(count: 1 + choices.below(2))
        if choices.chance(40) {
            emit("} else {")
            nested(count: 1)
        }
        emit("}")
    }

    private mutating func forEach() {
        var options: [String] = []
        if toolkit.array { options.append("xs") }
        if toolkit.dictionary { options.append("d") }
        if toolkit.set { options.append("s") }
        let sequence = choices.pick(options)
        let value = fresh("v")
        let local = Local(name: value, kind: .int, mutable: false, level: level)
        let header = sequence == "d" ? "for (\(fresh("key")), \(value)) in d {" : "for \(value) in \(sequence) {"
        block(header, count: 1 + choices.below(2), loop: true, locals: [local])
    }

    private mutating func arrayStatement() {
        let value = intExpression()
        switch choices.below(10) {
        case 0: emit("xs.append(\(value))")
        case 1: emit("if !xs.isEmpty { xs.removeLast() }")
        case 2: emit("xs.insert(\(value), at: 0)")
        case 3: emit("xs.removeLast()")
        case 4: emit("xs.removeFirst()")
        case 5: emit("xs.remove(at: 0)")
        case 6: emit("xs[0] = \(value)")
        case 7: emit("xs.removeAll()")
        case 8: emit("let \(newLocal(.int)) = xs.removeLast()")
        default:
            // A copy: the thread's own array, which no other thread sees change.
            let copy = fresh("a")
            emit("var \(copy) = xs")
            emit("\(copy).append(\(value))")
            emit("y = \(copy).count + (\(copy).first ?? 0)")
        }
    }

    private mutating func boxStatement() {
        var options = ["box = Box(v: \(intExpression()))", "box = nil", "if box != nil { box!.v = \(intExpression()) }", "box = Box()", "box!.v += 1"]
        options.append("let NEW = \(choices.chance(50) ? "box" : "Box(v: 1)")")
        if toolkit.weakGlobal { options += ["wbox = box", "y = wbox?.v ?? 0", "if wbox === box { x = 1 }"] }
        if toolkit.boxPeer { options += ["box!.peer = box", "y = box?.peer?.v ?? 0"] }
        if toolkit.boxHits { options.append("box!.hits += 1") }
        if toolkit.manualMemory {
            options += [
                "if box != nil { box!.retain() }", "if box != nil { box!.release() }", "box = Box(v: 3).autorelease()",
                "autoreleasepool { box = Box(v: 4).autorelease() }",
            ]
        }
        for object in locals(.object) {
            options += ["box = \(object.name)", "if \(object.name) != nil { \(object.name)!.v = 2 }"]
            if toolkit.weakGlobal { options.append("wbox = \(object.name)") }
        }
        emit(oneOf: options, new: .object)
    }

    /// A closure that captures an object weakly (`[weak b]`), run by a new thread, a
    /// queue or the main queue, and the uses Swift gives such a capture: compared with
    /// nil, read through, written through, kept.
    private mutating func weakCapture() {
        let object = locals(.object).last?.name ?? fresh("b")
        if locals(.object).last == nil { emit("let \(object) = \(choices.pick(["Box(v: 1)", "box", "Box()"]))") }
        var captures = "[weak \(object)"
        if let plain = locals(.int).last, choices.chance(30) { captures += ", \(plain.name)" }
        captures += "] in"
        var starts = ["spawn \(fresh("w")) { \(captures)", "main.async { \(captures)"]
        if toolkit.queue != nil { starts.append("q.async { \(captures)") }
        starts.append("DispatchQueue.global().async { \(captures)")
        var uses: [String] = []
        for _ in 0..<(1 + choices.below(2)) {
            uses.append(
                choices.pick([
                    "if \(object) != nil { x += 1 }", "y = \(object)?.v ?? 0", "\(object)!.v = 2", "let \(fresh("s")) = \(object)",
                    "if \(object) != nil && \(object)!.v == 1 { y = 2 }", "x = \(object)!.v",
                    "main.async { y = \(object)?.v ?? 0 }", "if \(object) == nil { y = 3 }",
                ]))
        }
        let weak = Local(name: object, kind: .weak, mutable: false, level: level)
        block(choices.pick(starts), count: choices.below(2), closure: true, locals: [weak], before: uses)
        if choices.chance(30) { emit("box = nil") }
    }

    /// Work every complete run must do (`required`), perhaps due only sometimes (`due`).
    private mutating func required() {
        let name = fresh("work ")
        if choices.chance(30) { emit("due \"\(name)\" when \(boolExpression())") }
        var header = "required \"\(name)\""
        if choices.chance(20) { header += " on main" }
        if toolkit.lock != nil, choices.chance(20) {
            emit("synchronized(m) {")
            indent += 1
            depth += 1
            block(header + " holding m {", count: 1)
            depth -= 1
            indent -= 1
            emit("}")
            return
        }
        block(header + " {", count: 1)
    }

    /// The `while true` loop of a thread that runs for ever: a server waiting for work
    /// each round, threads taking turns, or a loop that breaks out.
    mutating func writeForever() {
        var shapes = ["break"]
        if toolkit.semaphore { shapes.append("server") }
        if toolkit.turn { shapes.append("turn") }
        if toolkit.condition { shapes.append("condition") }
        let me = thread == "T1" ? 0 : 1
        switch choices.pick(shapes) {
        case "server":
            block("while true {", count: 1, loop: true, before: ["sem.wait()"], after: choices.chance(30) ? ["progress"] : [])
        case "turn":
            let inside = choices.chance(50) ? "critical { progress }" : "critical { x += 1 }"
            block("while true {", count: 0, loop: true, before: ["while turn != \(me) { }", inside], after: ["turn = \(1 - me)"])
        case "condition":
            let wait = ["c.lock()", "while !ready { c.wait() }", "ready = false", "c.unlock()"]
            block("while true {", count: 1, loop: true, before: (choices.chance(30) ? ["idle"] : []) + wait)
        default:
            block("while true {", count: 1, loop: true, before: ["if x > 1 { break }", "x += 1"])
        }
    }
}
