import RaceLabLanguage

extension Compiler {
    static let methods =
        [
            "lock", "unlock", "try", "wait", "signal", "broadcast", "async", "sync", "cancel", "addDependency", "waitUntilFinished", "addOperation",
            "waitUntilAllOperationsAreFinished", "cancelAllOperations", "copy", "enter", "leave", "notify",
            "load", "store", "wrappingAdd", "wrappingSubtract", "compareExchange",
            "start", "finish", "addExecutionBlock", "removeDependency", "addObserver", "contains", "resume", "yield",
            "append", "removeLast", "removeFirst", "removeAll", "remove", "insert",
        ] + memoryMethods
    /// What `x.name(…)` means whatever `x` holds: an array's, a set's or a dictionary's
    /// method, or a copy. A script's method may not take these names.
    static let collectionMethodNames = Set(ArrayMutation.allCases.map({ $0.methodName }) + ["contains", "copy"])
    /// Manual reference counting's methods, on any object (`memory "manual"`).
    static let memoryMethods = ["retain", "release", "autorelease"]

    mutating func compileCall(_ callee: Expression, _ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure) {
        if try compileTaskCall(callee, arguments, trailing, range: range) { return }
        switch callee.kind {
        case .name(let name) where resolveLocal(name, level: builders.count - 1) == nil && visibleGlobal(name) == nil:
            try compileFreeCall(name, arguments, trailing, calleeRange: callee.range, range: range)
        case .member(let base, "global") where base.kind == .name("DispatchQueue") && globalIndex["DispatchQueue"] == nil:
            // One concurrent queue per call: blocks on it are ordered by nothing.
            try expectArguments(arguments, 0...0, "DispatchQueue.global", range: range)
            emit(constant: .string("global"))
            emit(constant: .int(-2))
            builder.currentRange = range
            emit(.builtin(.dispatchQueue, argc: 2, className: nil))
        case .member(let base, let method):
            if case .member(let inner, "main") = base.kind, inner.kind == .name("OperationQueue"), globalIndex["OperationQueue"] == nil {
                // The main operation queue runs its operations on the main thread, in turn.
                guard method == "addOperation" else {
                    throw error("OperationQueue.main takes blocks: OperationQueue.main.addOperation { … }", at: callee.range)
                }
                let closure = try onlyClosure(arguments, trailing, range: range, what: "OperationQueue.main.addOperation")
                try compileClosure(closure, name: "main.addOperation", allowedParameters: 0, context: .mainActor)
                builder.currentRange = range
                emit(.dispatchMain(sync: false))
                return
            }
            if case .member(let inner, "main") = base.kind, inner.kind == .name("DispatchQueue"), method == "async" || method == "sync" {
                let closure = try onlyClosure(arguments, trailing, range: range, what: "DispatchQueue.main.\(method)")
                try compileClosure(closure, name: "main.\(method)", allowedParameters: 0, context: .mainActor)
                builder.currentRange = range
                emit(.dispatchMain(sync: method == "sync"))
                return
            }
            if case .name("main") = base.kind, resolveLocal("main", level: builders.count - 1) == nil, globalIndex["main"] == nil {
                guard method == "async" || method == "sync" else {
                    throw error(
                        "the main queue has 'async' and 'sync', not '\(method)'", at: callee.range,
                        note: Suggestion.note(for: method, in: ["async", "sync"]))
                }
                let closure = try onlyClosure(arguments, trailing, range: range, what: "main.\(method)")
                try compileClosure(closure, name: "main.\(method)", allowedParameters: 0, context: .mainActor)
                builder.currentRange = range
                emit(.dispatchMain(sync: method == "sync"))
                return
            }
            try compileMethodCall(base, method, arguments, trailing, range: range)
        case .implicitMember("now"):
            // A timeout of now: `wait(timeout: .now())` waits not at all.
            try expectArguments(arguments, 0...0, "now", range: range)
            emit(constant: .string("now"))
        default:
            throw error("this expression cannot be called", at: callee.range)
        }
    }

    mutating func onlyClosure(_ arguments: [Argument], _ trailing: Closure?, range: SourceRange, what: String) throws(Failure) -> Closure {
        if let trailing, arguments.isEmpty { return trailing }
        if trailing == nil, arguments.count == 1, case .closure(let c) = arguments[0].value.kind { return c }
        throw error("\(what) takes one closure: \(what) { … }", at: range)
    }

    /// A toolkit type's initializer: as many arguments as `count` allows, each with
    /// `label` (nil: none; else `usage` says how to write it), then the builtin that
    /// makes the object from them.
    mutating func compileInitializer(
        _ builtin: Builtin, _ arguments: [Argument], _ count: ClosedRange<Int>, label: String?, usage: String, _ name: String, range: SourceRange
    ) throws(Failure) {
        try expectArguments(arguments, count, name, range: range)
        for argument in arguments {
            guard argument.label == label else { throw error(usage, at: argument.value.range) }
            try compileExpression(argument.value)
        }
        builder.currentRange = range
        emit(.builtin(builtin, argc: arguments.count, className: nil))
    }

    mutating func expectArguments(_ arguments: [Argument], _ count: ClosedRange<Int>, _ name: String, range: SourceRange) throws(Failure) {
        guard count.contains(arguments.count) else {
            let wanted = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            throw error("'\(name)' takes \(wanted) argument\(count.upperBound == 1 ? "" : "s"), not \(arguments.count)", at: range)
        }
    }

    mutating func compileFreeCall(_ name: String, _ arguments: [Argument], _ trailing: Closure?, calleeRange: SourceRange, range: SourceRange) throws(Failure) {
        if name == "autoreleasepool" {
            try compileAutoreleasePool(arguments, trailing, range: range)
            return
        }
        if trailing != nil && name != "Operation" && name != "BlockOperation" {
            throw error("'\(name)' does not take a closure", at: range)
        }
        if let function = functionIndex[name] {
            try expectArguments(arguments, function.parameters.count...function.parameters.count, name, range: range)
            if asyncFunctions.contains(name) {
                try requireAwait("a call to async function '\(name)'", at: range)
            } else if mainActorFunctions.contains(name) {
                try requireMainActor("function '\(name)'", at: range)
            }
            for (argument, parameter) in zip(arguments, function.parameters) {
                if let label = argument.label, label != parameter {
                    throw error("argument label '\(label)' does not match parameter '\(parameter)'", at: argument.value.range)
                }
                try compileExpression(argument.value)
            }
            builder.currentRange = range
            emit(.call(function: function.code, argc: arguments.count))
            if throwingFunctions.contains(name) { try emitThrowCheck("a call to '\(name)'", at: range) }
            return
        }
        if try compileClassCall(name, arguments, trailing, calleeRange: calleeRange, range: range) { return }
        for argument in arguments
        where argument.label != nil && !["name", "maxConcurrentOperationCount", "value", "label", "attributes", "isAsynchronous"].contains(argument.label!) {
            throw error("unexpected argument label '\(argument.label!)'", at: argument.value.range)
        }
        switch name {
        case "work":
            try expectArguments(arguments, 0...1, name, range: range)
            if let argument = arguments.first { try compileExpression(argument.value) } else { emit(constant: .int(1)) }
            builder.currentRange = range
            emit(.builtin(.work, argc: 1, className: nil))
        case "print", "sum":
            try expectArguments(arguments, 1...1, name, range: range)
            try compileExpression(arguments[0].value)
            builder.currentRange = range
            emit(.builtin(name == "print" ? .print : .sum, argc: 1, className: nil))
        case "assert":
            try expectArguments(arguments, 1...2, name, range: range)
            try compileExpression(arguments[0].value)
            if arguments.count == 2 {
                guard case .string = arguments[1].value.kind else {
                    throw error("an assertion's message must be a string literal", at: arguments[1].value.range)
                }
                try compileExpression(arguments[1].value)
            } else {
                emit(constant: .string("assertion failed"))
            }
            builder.currentRange = range
            emit(.builtin(.assert, argc: 2, className: nil))
        case "created", "alive":
            try expectArguments(arguments, 1...1, name, range: range)
            guard case .name(let className) = arguments[0].value.kind, let index = program.classIndex(named: className) else {
                throw error(
                    "'\(name)' takes a class name, like \(name)(MySingle)", at: arguments[0].value.range,
                    note: Suggestion.note(for: "\(arguments[0].value.kind)", in: program.classes.map({ $0.name })))
            }
            emit(.builtin(name == "created" ? .created : .alive, argc: 0, className: index))
        case "isMainThread":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.isMainThread, argc: 0, className: nil))
        case "CancellationError":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.cancellationError, argc: 0, className: nil))
        case "Lock", "NSLock":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.lock, argc: 0, className: nil))
        case "NSRecursiveLock":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.recursiveLock, argc: 0, className: nil))
        case "OSAllocatedUnfairLock":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.unfairLock, argc: 0, className: nil))
        case "DispatchQueue":
            guard let first = arguments.first, first.label == "label", arguments.count <= 2 else {
                throw error("write DispatchQueue(label: \"name\") or DispatchQueue(label: \"name\", attributes: .concurrent)", at: range)
            }
            try compileExpression(first.value)
            if arguments.count == 2 {
                guard arguments[1].label == "attributes", case .implicitMember("concurrent") = arguments[1].value.kind else {
                    throw error("a dispatch queue's attributes can be .concurrent", at: arguments[1].value.range)
                }
                emit(constant: .int(-1))
            } else {
                emit(constant: .int(1))
            }
            builder.currentRange = range
            emit(.builtin(.dispatchQueue, argc: 2, className: nil))
        case "NSCondition":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.condition, argc: 0, className: nil))
        case "Atomic":
            try compileInitializer(.atomic, arguments, 1...1, label: nil, usage: "write Atomic(0): the initial value has no label", name, range: range)
        case "Set":
            // Set() or Set([…]): an array's elements, each once.
            try compileInitializer(.makeSet, arguments, 0...1, label: nil, usage: "write Set([1, 2])", name, range: range)
        case "DispatchGroup":
            try expectArguments(arguments, 0...0, name, range: range)
            emit(.builtin(.group, argc: 0, className: nil))
        case "DispatchSemaphore":
            try compileInitializer(.semaphore, arguments, 1...1, label: "value", usage: "write DispatchSemaphore(value: n)", name, range: range)
        case "OperationQueue":
            try expectArguments(arguments, 0...1, name, range: range)
            if let argument = arguments.first {
                guard argument.label == "maxConcurrentOperationCount" else {
                    throw error("write OperationQueue(maxConcurrentOperationCount: n)", at: argument.value.range)
                }
                try compileExpression(argument.value)
            } else {
                emit(constant: .int(-1))
            }
            emit(.builtin(.queue, argc: 1, className: nil))
        case "Operation", "BlockOperation":
            var rest = arguments
            var closure = trailing
            if closure == nil, let last = rest.last, case .closure(let c) = last.value.kind {
                closure = c
                rest.removeLast()
            }
            let spelling = name == "Operation" ? "Operation(name: \"A\") { op in … }" : "BlockOperation { … }"
            guard let closure else { throw error("an operation needs its work as a closure: \(spelling)", at: range) }
            let labels = rest.map { $0.label ?? "_" }
            guard name == "Operation" ? ["name", "isAsynchronous"].starts(with: labels) || labels == ["isAsynchronous"] : labels.isEmpty else {
                throw error(
                    "write \(spelling)" + (name == "Operation" ? " or Operation(name: \"A\", isAsynchronous: true) { op in … }" : ""),
                    at: rest.first { !["name", "isAsynchronous"].contains($0.label ?? "_") }?.value.range ?? range)
            }
            if let argument = rest.first(where: { $0.label == "name" }) {
                try compileExpression(argument.value)
            } else {
                emit(constant: .none)
            }
            if let argument = rest.first(where: { $0.label == "isAsynchronous" }) {
                try compileExpression(argument.value)
            } else {
                emit(constant: .bool(false))
            }
            try compileClosure(closure, name: "operation", allowedParameters: name == "Operation" ? 1 : 0)
            builder.currentRange = range
            emit(.builtin(.operation, argc: 3, className: nil))
        default:
            throw unknownName(name, at: calleeRange)
        }
    }

    mutating func compileMethodCall(_ base: Expression, _ method: String, _ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure) {
        if method == "contains" {
            try expectArguments(arguments, 1...1, method, range: range)
            try compileArrayRead(base, index: arguments[0].value) { .contains($0) }
            return
        }
        // A set's insert(x) and remove(x) have no labels; an array's have `at:`.
        let memberCall = arguments.count == 1 && arguments[0].label == nil && (method == "insert" || method == "remove")
        if let mutation = ArrayMutation.allCases.first(where: {
            $0.methodName == method && ($0 == .insertMember || $0 == .removeMember) == memberCall
        }) {
            guard let place = try placeForMutation(base) else {
                throw error("'\(method)' needs a variable or a field to change", at: base.range)
            }
            switch mutation {
            case .append:
                try expectArguments(arguments, 1...1, method, range: range)
                try compileExpression(arguments[0].value)
            case .removeAt:
                try expectArguments(arguments, 1...1, method, range: range)
                guard arguments[0].label == "at" else { throw error("write remove(at: index)", at: arguments[0].value.range) }
                try compileExpression(arguments[0].value)
            case .insertMember, .removeMember:
                try compileExpression(arguments[0].value)
            case .removeValue:
                try expectArguments(arguments, 1...1, method, range: range)
                guard arguments[0].label == "forKey" else { throw error("write removeValue(forKey: key)", at: arguments[0].value.range) }
                try compileExpression(arguments[0].value)
            case .insert:
                try expectArguments(arguments, 2...2, method, range: range)
                guard arguments[1].label == "at" else { throw error("write insert(value, at: index)", at: range) }
                try compileExpression(arguments[0].value)
                try compileExpression(arguments[1].value)
            default:
                try expectArguments(arguments, 0...0, method, range: range)
            }
            builder.currentRange = range
            emit(.arrayMutation(place, mutation))
            return
        }
        if method == "copy" {
            try expectArguments(arguments, 0...0, method, range: range)
            try compileExpression(base)
            return
        }
        if actorMethodNames.contains(method) || mainActorMethods[method] != nil || nonisolatedMethods[method] != nil {
            try checkScriptMethodCall(base, method, at: range)
            try compileExpression(base)
            for argument in arguments { try compileExpression(argument.value) }
            if trailing != nil { throw error("a method of the script's takes no closure", at: range) }
            builder.currentRange = range
            emit(.method(name: program.name(method), argc: arguments.count, orderings: 0))
            if throwingMethods.contains(method) { try emitThrowCheck("a call to '\(method)'", at: range) }
            return
        }
        guard Compiler.methods.contains(method) else {
            throw error("unknown method '\(method)'", at: range, note: Suggestion.note(for: method, in: Compiler.methods))
        }
        if Compiler.memoryMethods.contains(method) && !program.manualMemory {
            throw error(
                "\(method)() is manual reference counting: write 'memory \"manual\"' at the top (under ARC, Swift retains and releases for you)",
                at: range)
        }
        // An atomic operation's memory orderings go to its instruction, not its arguments.
        var arguments = arguments
        let orderings = try takeOrderings(method, &arguments, range: range)
        // A method's argument labels are part of its name, as in Swift: `async(group:)`.
        let labels = arguments.compactMap({ $0.label })
        let spelled = labels.isEmpty ? method : method + "(" + labels.map { $0 + ":" }.joined() + ")"
        let unlabelled = arguments.contains { argument in
            if case .closure = argument.value.kind { return false }
            return argument.label == nil
        }
        if let forms = Compiler.labelledMethods[method],
            unlabelled || (!forms.spellings.contains(spelled) && (!labels.isEmpty || ["notify", "compareExchange"].contains(method)))
        {
            throw error("write " + forms.hint, at: range)
        } else if Compiler.labelledMethods[method] == nil, let label = labels.first {
            throw error("'\(method)' takes no argument labelled '\(label)'", at: range)
        }
        try compileExpression(base)
        for argument in arguments {
            switch (argument.label, argument.value.kind) {
            case (_, .closure(let closure)):
                try compileClosure(closure, name: "operation", allowedParameters: 0)
            case ("flags", .implicitMember("barrier")):
                emit(constant: .string("barrier"))
            case ("flags", _):
                throw error("a dispatch block's flags can be .barrier", at: argument.value.range)
            case ("queue", .member(let inner, "main")) where inner.kind == .name("DispatchQueue") && globalIndex["DispatchQueue"] == nil:
                emit(constant: .string("main"))
            default:
                try compileExpression(argument.value)
            }
        }
        if let trailing { try compileClosure(trailing, name: "operation", allowedParameters: 0) }
        builder.currentRange = range
        let name = program.name(spelled)
        emit(.method(name: name, argc: arguments.count + (trailing == nil ? 0 : 1), orderings: orderings))
    }

    /// `autoreleasepool { … }`: a pool pushed on the thread, the block's statements in
    /// place, then the pool drained (each object autoreleased into it released once).
    /// The expression's value is the drain's.
    mutating func compileAutoreleasePool(_ arguments: [Argument], _ trailing: Closure?, range: SourceRange) throws(Failure) {
        let closure = try onlyClosure(arguments, trailing, range: range, what: "autoreleasepool")
        guard closure.parameters.isEmpty else { throw error("autoreleasepool's block takes no parameters", at: range) }
        builder.currentRange = range
        emit(.builtin(.poolPush, argc: 0, className: nil))
        emit(.pop)
        builder.pools += 1
        compileStatements(closure.body)
        builder.pools -= 1
        builder.currentRange = SourceRange(range.end, range.end)
        emit(.builtin(.poolDrain, argc: 0, className: nil))
    }

    /// The methods that take labelled arguments, with every spelling they accept.
    static let labelledMethods: [String: (spellings: [String], hint: String)] = [
        "wait": (["wait(timeout:)"], "wait() or wait(timeout: .now())"),
        "async": (["async(group:)", "async(flags:)", "async(group:flags:)"], "async { … }, async(group: g) { … } or async(flags: .barrier) { … }"),
        "sync": (["sync(flags:)"], "sync { … } or sync(flags: .barrier) { … }"),
        "notify": (["notify(queue:)"], "group.notify(queue: q) { … }"),
        "compareExchange": (["compareExchange(expected:desired:)"], "compareExchange(expected: e, desired: d)"),
        "addObserver": (["addObserver(forKeyPath:)"], "op.addObserver(forKeyPath: \"isFinished\") { … }"),
        "resume": (
            ["resume(returning:)", "resume(throwing:)"], "continuation.resume(), continuation.resume(returning: value) or continuation.resume(throwing: error)"
        ),
    ]
}

extension ArrayMutation: CaseIterable {
    public static let allCases: [ArrayMutation] = [
        .append, .removeLast, .removeFirst, .removeAll, .removeAt, .insert, .removeValue, .insertMember, .removeMember,
    ]

    /// The method name as written in a script.
    var methodName: String {
        switch self {
        case .removeAt, .removeMember: return "remove"
        case .insert, .insertMember: return "insert"
        case .removeValue: return "removeValue"
        default: return rawValue
        }
    }
}
