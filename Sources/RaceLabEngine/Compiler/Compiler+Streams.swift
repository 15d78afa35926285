import RaceLabLanguage

/// `AsyncStream`'s words: making a stream, and `for await` over one (or over a task
/// group). What a stream does is `Machine+Streams`.
extension Compiler {
    /// `AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))`:
    /// the element type is Swift's business; the policy is the stream's.
    mutating func compileMakeStream(_ arguments: [Argument], range: SourceRange) throws(Failure) {
        let usage = "write AsyncStream.makeStream(of: Int.self), with bufferingPolicy: .unbounded, .bufferingOldest(n) or .bufferingNewest(n) if you like"
        var code = 0
        var limit: Expression?
        for argument in arguments {
            switch argument.label {
            case "of": continue
            case "bufferingPolicy":
                switch argument.value.kind {
                case .implicitMember("unbounded"): code = 0
                case .call(let callee, let values, nil) where values.count == 1 && values[0].label == nil:
                    switch callee.kind {
                    case .implicitMember("bufferingOldest"): code = 1
                    case .implicitMember("bufferingNewest"): code = 2
                    default: throw error(usage, at: argument.value.range)
                    }
                    limit = values[0].value
                default: throw error(usage, at: argument.value.range)
                }
            default: throw error(usage, at: argument.value.range)
            }
        }
        emit(constant: .int(code))
        if let limit { try compileExpression(limit) } else { emit(constant: .int(0)) }
        builder.currentRange = range
        emit(.builtin(.stream, argc: 2, className: nil))
    }

    /// `for await x in stream { … }`: each element, until the stream finishes.
    mutating func compileForAwait(variable: String, sequence: Expression, body: [Statement], range: SourceRange) throws(Failure) {
        guard builder.isAsync else {
            throw error(cannotSuspend("'for await'"), at: range)
        }
        builder.scopes.append([:])
        defer { builder.scopes.removeLast() }
        try compileExpression(sequence)
        let stream = builder.newSlot("stream", temp: true)
        emit(.storeTemp(stream))
        let element = builder.declare(variable, isLet: true)
        let top = builder.here
        builder.currentRange = range
        emit(.loadLocal(stream))
        emit(.task(.streamNext))
        let exit = emit(.jumpIfFalse(-1))
        emit(.storeLocal(element))
        compileLoopBody(body, continueTarget: top)
        emit(.jump(top))
        patch(exit)
        emit(.pop)
        finishLoop()
    }
}
