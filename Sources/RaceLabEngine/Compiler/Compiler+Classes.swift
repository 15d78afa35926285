import RaceLabLanguage

/// Classes' init and methods (an Operation subclass's `main()` and `start()`): their
/// rules and codes, what a bare name or call means inside them, and how a class's
/// instance is made (with its init, or field by field).
extension Compiler {
    /// The class whose method (or a closure inside one) is being compiled, if any.
    var enclosingClass: Int? {
        builders.last { $0.selfClass != nil }?.selfClass
    }

    /// The names an actor's or a `@MainActor` class's fields and methods give, by which
    /// a call or a read elsewhere is awaited or refused (`compileMethodCall`).
    mutating func declareIsolatedNames(_ c: ClassDeclaration) {
        if c.isMainActor {
            for field in c.fields where !field.isLet { mainActorFieldNames.insert(field.name) }
            for method in c.methods where method.function.isolation != .nonisolated {
                mainActorMethods[method.function.name, default: false] = mainActorMethods[method.function.name] == true || method.function.isAsync
            }
            for method in c.methods where method.function.isolation == .nonisolated {
                nonisolatedMethods[method.function.name, default: false] = nonisolatedMethods[method.function.name] == true || method.function.isAsync
            }
        }
        if c.isActor || c.isMainActor {
            for method in c.methods where method.function.isThrowing { throwingMethods.insert(method.function.name) }
        }
        if c.isActor {
            for field in c.fields where field.isLet { actorLetFieldNames.insert(field.name) }
            for field in c.fields where !field.isLet { actorFieldNames.insert(field.name) }
            for method in c.methods where method.function.name != "init" { actorMethodNames.insert(method.function.name) }
        }
    }

    /// A class's init and methods, each given a code to be compiled later, after the
    /// rules: only an Operation subclass has methods, and they are the overrides a
    /// queue calls (`main()`, or `start()` for one that starts its own work).
    mutating func declareMethods(_ c: ClassDeclaration, into info: inout Program.ClassInfo) {
        if let superclass = c.superclass, superclass.value != "Operation" {
            _ = error("a class may inherit only from Operation (to subclass it), not '\(superclass.value)'", at: superclass.range)
        }
        let isOperation = c.superclass?.value == "Operation"
        for method in c.methods {
            let name = method.function.name
            checkAsyncOnlyMark(method.function, at: method.range)
            if name == "init" {
                guard info.initializer == nil else {
                    _ = error("a class has at most one init", at: method.range)
                    continue
                }
                info.initializer = (add(Code(name: "\(c.name).init")), method.function.parameters)
                continue
            }
            if c.isActor || c.isMainActor {
                // An actor's methods run on it, a `@MainActor` class's on the main actor
                // (`Compiler.isolation(of:in:nonsendingByDefault:)`).
                guard !method.isOverride else {
                    _ = error("\(c.isActor ? "an actor" : "a @MainActor class") inherits nothing: '\(name)' overrides nothing", at: method.range)
                    continue
                }
                guard info.methods[name] == nil else {
                    _ = error("'\(name)' is declared twice in \(c.name)", at: method.range)
                    continue
                }
                guard !Compiler.collectionMethodNames.contains(name) else {
                    // `x.append(v)` is read as an array's, whatever `x` holds.
                    let why = "is an array's, a set's or a dictionary's method and cannot name a method of \(c.name)"
                    _ = error("'\(name)' \(why): call it, say, '\(name)Item'", at: method.range)
                    continue
                }
                info.methods[name] = add(Code(name: "\(c.name).\(name)"))
                methodParameterCounts["\(c.name).\(name)"] = method.function.parameters.count
                if method.function.isAsync { asyncMethodCodes.insert("\(c.name).\(name)") }
                // Whether it runs on the main actor does not depend on the upcoming switch.
                if Compiler.isolation(of: method.function, in: c, nonsendingByDefault: false) == .mainActor {
                    mainActorMethodCodes.insert("\(c.name).\(name)")
                }
                continue
            }
            guard isOperation, name == "main" || name == "start" else {
                _ = error(
                    isOperation
                        ? "an Operation subclass overrides main() or start(), not '\(name)': write other work as a function"
                        : "a class's methods are its init and deinit; 'func \(name)' belongs outside it (or subclass Operation to override main())",
                    at: method.range)
                continue
            }
            guard method.isOverride else {
                _ = error("'\(name)()' overrides Operation's: write 'override func \(name)()'", at: method.range)
                continue
            }
            guard method.function.parameters.isEmpty else {
                _ = error("'\(name)()' takes no parameters", at: method.range)
                continue
            }
            guard info.methods[name] == nil else {
                _ = error("'\(name)()' is overridden twice", at: method.range)
                continue
            }
            info.methods[name] = add(Code(name: "\(c.name).\(name)"))
        }
        if let asynchronous = c.isAsynchronous, !isOperation {
            _ = error("only an Operation subclass has isAsynchronous", at: asynchronous.range)
        }
        guard isOperation else { return }
        guard let code = info.methods["start"] ?? info.methods["main"] else {
            // A method written wrongly was reported where it is written.
            if c.methods.contains(where: { $0.function.name != "init" }) { return }
            _ = error(
                "an Operation subclass overrides main() (or start(), for one that starts its own work): 'override func main() { … }'", at: c.superclass!.range)
            return
        }
        info.operation = Program.OperationClass(code: code, isAsynchronous: c.isAsynchronous?.value ?? false)
    }

    /// A class's init and methods, into the codes `declareMethods` gave them: `self`
    /// first, then the parameters.
    mutating func compileMethods(_ c: ClassDeclaration, _ index: Int) {
        let info = program.classes[index]
        for method in c.methods {
            let name = method.function.name
            guard let slot = name == "init" ? info.initializer?.code : info.methods[name] else { continue }
            // Only the first of two inits has a code; the second was reported.
            guard program.codes[slot].instructions.isEmpty else { continue }
            var builder = CodeBuilder(name: "\(c.name).\(name)")
            builder.selfClass = index
            builder.code.isInitializer = name == "init"
            builder.isAsync = method.function.isAsync
            builder.canThrow = method.function.isThrowing
            // An init runs before anyone else can reach its object: nowhere special (a
            // `@MainActor` class's as Swift's `nonisolated init`).
            let isolated = (c.isActor || c.isMainActor) && name != "init"
            let isolation = isolated ? Compiler.isolation(of: method.function, in: c, nonsendingByDefault: program.nonsendingByDefault) : nil
            if c.isActor { builder.context = .actor(c.name) }
            if c.isMainActor { builder.context = isolation == .mainActor ? .mainActor : .function("\(c.name).\(name)") }
            _ = builder.declare("self", isLet: true)
            for parameter in method.function.parameters { _ = builder.declare(parameter, isLet: true) }
            builder.code.parameterCount = 1 + method.function.parameters.count
            // An actor's method borrows self, as Swift's methods do (+0): its call and
            // return count nothing, so a call inside a job is no step of its own.
            if (c.isActor || c.isMainActor) && name != "init" { builder.code.localIsTemp[0] = true }
            program.codes[slot] = compile(builder, body: method.function.body, range: method.range, isolation: isolation)
        }
    }

    /// In a method of a class (or a closure inside one), a bare name that is one of
    /// the class's fields, or one of an operation's properties in an Operation
    /// subclass, is `self.name`, as in Swift: after the locals, before the globals.
    func implicitMember(_ name: String, at range: SourceRange) -> Expression? {
        guard let classIndex = enclosingClass else { return nil }
        let info = program.classes[classIndex]
        guard info.fieldNames.contains(name) || (info.operation != nil && Compiler.operationProperties.contains(name)) else { return nil }
        return Expression(.member(Expression(.self, range), name), range)
    }

    /// A call to a method of an actor or a `@MainActor` class: from outside an actor,
    /// awaited (a hop); a `@MainActor` class's, awaited off the main actor; its
    /// `nonisolated` one, as a function; on self, as `checkOwnMethodCall` says. A
    /// built-in method's name too (`cancel`) may be the built-in's: the object decides
    /// (`Machine.executeMethod`).
    mutating func checkScriptMethodCall(_ base: Expression, _ method: String, at range: SourceRange) throws(Failure) {
        let isolated = mainActorMethods[method]
        if base.kind != .self && !Compiler.methods.contains(method) {
            if actorMethodNames.contains(method) || isolated == true || (isolated == nil && nonisolatedMethods[method] == true) {
                try requireAwait("a call to \(actorMethodNames.contains(method) ? "an actor's" : "an async") method '\(method)'", at: range)
            } else if isolated == false {
                try requireMainActor("method '\(method)'", at: range)
            }
        } else if base.kind == .self, let classIndex = enclosingClass ?? builders.last(where: { $0.deinitClass != nil })?.deinitClass,
            let code = program.classes[classIndex].methods[method]
        {
            try checkOwnMethodCall(code, method, at: range)
        }
    }

    /// A method's call to its own class's method (`add()`, `self.add()`): awaited as a
    /// call on another object is, an async one always, a main-actor one where the
    /// caller is not on the main actor (a nonisolated method, an init, a deinit).
    mutating func checkOwnMethodCall(_ code: Int, _ name: String, at range: SourceRange) throws(Failure) {
        if asyncMethodCodes.contains(program.codes[code].name) {
            try requireAwait("a call to async method '\(name)'", at: range)
        } else if mainActorMethodCodes.contains(program.codes[code].name) {
            try requireMainActor("method '\(name)'", at: range)
        }
    }

    /// A call by a bare name that a class answers: in a method, the class's own
    /// method (`main()` from `start()`) or the operation's (`finish()`, `cancel()`) on
    /// self; elsewhere, making an instance with its init, or field by field. False
    /// when the name is no class's.
    mutating func compileClassCall(
        _ name: String, _ arguments: [Argument], _ trailing: Closure?, calleeRange: SourceRange, range: SourceRange
    ) throws(Failure) -> Bool {
        if let classIndex = enclosingClass {
            // In a method: the class's own method (`main()` from `start()`), or the
            // operation's (`finish()`, `cancel()`), on self.
            let info = program.classes[classIndex]
            if let code = info.methods[name] {
                // The method may be compiled later: its declaration gives the count.
                let parameters = methodParameterCounts[program.codes[code].name] ?? 0
                try expectArguments(arguments, parameters...parameters, name, range: range)
                try checkOwnMethodCall(code, name, at: range)
                try compileExpression(Expression(.self, calleeRange))
                for argument in arguments { try compileExpression(argument.value) }
                builder.currentRange = range
                emit(.call(function: code, argc: 1 + arguments.count))
                return true
            }
            if info.operation != nil, Compiler.operationMethods.contains(name) {
                try compileMethodCall(Expression(.self, calleeRange), name, arguments, trailing, range: range)
                return true
            }
        }
        if let classIndex = program.classIndex(named: name), let initializer = program.classes[classIndex].initializer {
            // Made with its init: the object with its defaults, handed to the init,
            // which hands it back.
            try expectArguments(arguments, initializer.parameters.count...initializer.parameters.count, name, range: range)
            builder.currentRange = range
            emit(.allocate(classIndex: classIndex, fields: program.slotList([])))
            for (argument, parameter) in zip(arguments, initializer.parameters) {
                guard argument.label == parameter else {
                    throw error("\(name)'s init takes '\(parameter):' here, not \(argument.label.map { "'\($0):'" } ?? "no label")", at: argument.value.range)
                }
                try compileExpression(argument.value)
            }
            builder.currentRange = range
            emit(.call(function: initializer.code, argc: 1 + arguments.count))
            return true
        }
        if let classIndex = program.classIndex(named: name) {
            let info = program.classes[classIndex]
            var fields: [Int] = []
            for argument in arguments {
                guard let label = argument.label, let field = info.fieldNames.firstIndex(of: label) else {
                    let text = argument.label.map { "'\(name)' has no field '\($0)'" } ?? "write the field name: \(name)(field: value)"
                    throw error(text, at: argument.value.range, note: argument.label.flatMap { Suggestion.note(for: $0, in: info.fieldNames) })
                }
                if fields.contains(field) { throw error("field '\(label)' is given twice", at: argument.value.range) }
                try compileExpression(argument.value)
                fields.append(field)
            }
            builder.currentRange = range
            let list = program.slotList(fields)
            emit(.allocate(classIndex: classIndex, fields: list))
            return true
        }
        return false
    }
}
