import RaceLabLanguage

/// Loops: `while`, a server's outermost `while true`, and `for` over shared storage.
extension Compiler {
    /// `while condition { … }`. Its own function, as the loops below, so that
    /// `compileStatement`'s frame stays small for deep nesting.
    @inline(never)
    mutating func compileWhile(_ condition: Expression, _ body: [Statement]) throws(Failure) {
        if case .bool(true) = condition.kind, builders[builders.count - 1].loops.isEmpty { return compileOutermostLoop(body) }
        let top = builder.here
        try compileExpression(condition)
        let exit = emit(.jumpIfFalse(-1))
        compileLoopBody(body, continueTarget: top)
        emit(.jump(top))
        patch(exit)
        finishLoop()
    }

    /// `while true { … }` outside any other loop: a thread that serves for ever. Blocked
    /// at the body's first wait (anything up to the end of the first statement that
    /// calls a `wait` method, or the first statement if none does), a thread that has
    /// completed a round waits for its next piece of work (`Code.roundIdlePoints`); the
    /// end of a round, reached by the body's end or a `continue`, is `.round`.
    mutating func compileOutermostLoop(_ body: [Statement]) {
        let top = builder.here
        builder.loops.append(.init(depth: builder.depth))
        let ends = compileStatements(body)
        let waits = builder.code.instructions[top...].indices.filter { pc in
            if case .method(let name, _, _) = builder.code.instructions[pc] { return program.names[name].hasPrefix("wait") }
            return false
        }
        // Only where a thread can block: a call, a lock, main.sync, or a loop (a spin).
        if let end = waits.first.flatMap({ wait in ends.first { $0 > wait } }) ?? ends.first, end > top,
            builder.code.instructions[top..<end].indices.contains(where: { pc in
                switch builder.code.instructions[pc] {
                case .method, .monitorEnter, .dispatchMain, .call: return true
                case .jump(let target), .jumpIfFalse(let target): return target <= pc
                default: return false
                }
            })
        {
            builders[builders.count - 1].code.roundIdlePoints.append(top..<end)
        }
        let round = emit(.round)
        for index in builder.loops.last!.continues { builders[builders.count - 1].patch(index, to: round) }
        builders[builders.count - 1].loops[builder.loops.count - 1].continues = []
        emit(.jump(top))
        finishLoop()
    }

    mutating func compileLoopBody(_ body: [Statement], continueTarget: Int) {
        builder.loops.append(.init(depth: builder.depth))
        compileStatements(body)
        for index in builder.loops.last!.continues { builders[builders.count - 1].patch(index, to: continueTarget) }
        builder.loops[builder.loops.count - 1].continues = []
    }

    mutating func finishLoop() {
        let loop = builder.loops.removeLast()
        for index in loop.breaks { patch(index) }
    }

    /// `for x in array`, or (`value` given) `for (key, value) in dictionary`.
    mutating func compileForEach(variable: String, value: String? = nil, sequence: Expression, body: [Statement]) throws(Failure) {
        builder.scopes.append([:])
        defer { builder.scopes.removeLast() }
        var place: Place
        var objectTemp: Int?
        if let shared = try placeForMutation(sequence, changing: false), shared.isShared {
            // Shared storage is enumerated in place; a field's object is kept in a temporary.
            place = shared
            if case .field = shared {
                objectTemp = builder.newSlot("object", temp: true)
                emit(.storeTemp(objectTemp!))
            }
        } else {
            // Iterate a copy, as Swift does for a value it owns.
            try compileExpression(sequence)
            let copy = builder.newSlot("sequence", temp: true)
            emit(.storeTemp(copy))
            place = .local(copy)
        }
        let state = builder.newSlot("index", temp: true)
        let version = builder.newSlot("version", temp: true)
        if place.isShared { builder.code.enumerations.append(Enumeration(versionSlot: version, place: place, objectSlot: objectTemp)) }
        emit(constant: .int(0))
        emit(.storeTemp(state))
        let element = builder.declare(variable, isLet: true)
        if let value {
            // The value's slot follows the key's (`Instruction.iterate`).
            let second = builder.declare(value, isLet: true)
            guard second == element + 1, value != variable else { throw error("the key and the value need two different names", at: sequence.range) }
        }
        let top = builder.here
        if let objectTemp { emit(.loadLocal(objectTemp)) }
        let iterate = emit(.iterate(place, state: state, element: element, exit: -1, pair: value != nil))
        compileLoopBody(body, continueTarget: top)
        emit(.jump(top))
        patch(iterate)
        finishLoop()
    }
}
