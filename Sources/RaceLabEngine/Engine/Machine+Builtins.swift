extension Machine {
    mutating func executeBuiltin(_ builtin: Builtin, argc: Int, className: Int?) {
        switch builtin {
        case .poolPush: pushPool()
        case .poolDrain: drainPool()
        case .stream: makeStream()
        case .cancellationError:
            push(newCancellationError())
            advance()
            emit("makes a CancellationError", Access(.allocator, .write))
        case .work:
            guard case .int(let n) = peek() else {
                fail(.type("work needs an Int, not \(peek().typeName)"))
                return
            }
            _ = pop()
            if n > 1 {
                push(.int(n - 1))
                emit("works (\(n - 1) more step\(n == 2 ? "" : "s") of work to go)")
            } else {
                push(.none)
                advance()
                if n == 1 { emit("works") }
            }
        case .print:
            let value = pop()
            let text: String
            if case .string(let s) = value { text = s } else { text = describe(value) }
            world.output.append("\(threadName): \(text)")
            touch(.output, .write)
            push(.none)
            advance()
            emit("prints \"\(text)\"")
        case .assert:
            let message = pop()
            let condition = pop()
            guard case .string(let text) = message else { return }
            if condition == .bool(true) {
                push(.none)
                advance()
            } else if case .bool = condition {
                emit("fails an assertion: \(text)")
                report(.assertion, text)
                world.halted = true
            } else {
                fail(.type("assert needs a Bool, not \(condition.typeName)"))
            }
        case .created, .alive:
            let index = className!
            let count = builtin == .created ? world.created[index] : world.alive(classIndex: index)
            touch(.allocator, .read)
            push(.int(count))
            advance()
            emit("counts \(builtin == .created ? "created" : "live") \(program.classes[index].name) objects: \(count)")
        case .sum:
            guard case .success(let items) = Operators.array(pop(), "sum's argument") else {
                fail(.type("sum needs an array of Int"))
                return
            }
            var total: Int64 = 0
            for item in items {
                guard case .int(let n) = item else {
                    fail(.type("sum needs an array of Int, not one holding \(item.typeName)"))
                    return
                }
                let (next, overflow) = total.addingReportingOverflow(n)
                guard !overflow else {
                    fail(Operators.overflowFailure("sum of \(total) and \(n)"))
                    return
                }
                total = next
            }
            push(.int(total))
            advance()
        case .isMainThread:
            push(.bool(onMainThread))
            advance()
        case .setQualityOfService:
            guard case .int(let qos) = pop(), (0...4).contains(qos) else {
                fail(.type("a quality of service is .background, .utility, .default, .userInitiated or .userInteractive"))
                return
            }
            state.priority = Int(qos)
            push(.none)
            advance()
        case .lock, .recursiveLock, .unfairLock:
            let id = newObject(.lock(recursive: builtin == .recursiveLock, inheritsPriority: builtin == .unfairLock), classIndex: nil, typeName: "Lock")
            push(.object(id))
            advance()
            emit("creates \(world.heap[id].name)", Access(.object(id), .write))
        case .dispatchQueue:
            guard case .int(let max) = pop(), case .string(let label) = pop() else {
                fail(.type("DispatchQueue(label:) needs a string label"))
                return
            }
            // -2: `DispatchQueue.global()`, a concurrent queue that ignores barriers.
            var state = QueueState(maxConcurrent: max == -2 ? -1 : Int(max))
            state.isGlobal = max == -2
            let id = newObject(.queue(state), classIndex: nil, typeName: "OperationQueue", name: label)
            world.queues.append(id)
            push(.object(id))
            advance()
            emit("creates \(max == 1 ? "serial" : "concurrent") dispatch queue \(label)", Access(.object(id), .write))
        case .atomic:
            guard case .int(let value) = pop() else {
                fail(.type("Atomic(_:) holds an Int: write Atomic(0)"))
                return
            }
            let id = newObject(.atomic, classIndex: nil, typeName: "Atomic")
            world.heap[id].fields = [.int(value)]
            world.heap[id].fieldVersions = [0]
            push(.object(id))
            advance()
            emit("creates atomic integer \(world.heap[id].name) (\(value))", Access(.object(id), .write))
        case .makeSet:
            var items = ArrayValue([])
            if argc == 1 {
                guard case .array(let array) = pop() else {
                    fail(.type("Set(_:) makes a set of an array's elements: Set([1, 2])"))
                    return
                }
                items = array
            }
            switch Sets.make(items) {
            case .failure(let failure): fail(failure)
            case .success(let members):
                push(.set(members))
                advance()
            }
        case .group:
            let id = newObject(.group(GroupState()), classIndex: nil, typeName: "Group")
            push(.object(id))
            advance()
            emit("creates dispatch group \(world.heap[id].name)", Access(.object(id), .write))
        case .condition:
            let id = newObject(.condition(waiters: []), classIndex: nil, typeName: "Condition")
            push(.object(id))
            advance()
            emit("creates condition \(world.heap[id].name)", Access(.object(id), .write))
        case .semaphore:
            guard case .int(let value) = pop(), let count = Value.bounded(value), count >= 0 else {
                crash("DispatchSemaphore(value:) needs a count from 0 to 2147483647")
                return
            }
            let id = newObject(.semaphore(count: count), classIndex: nil, typeName: "Semaphore")
            push(.object(id))
            advance()
            emit("creates semaphore \(world.heap[id].name) (count \(count))", Access(.object(id), .write))
        case .queue:
            guard case .int(let value) = pop(), let max = Value.bounded(value), max == -1 || max >= 1 else {
                fail(.type("maxConcurrentOperationCount must be from 1 to 2147483647"))
                return
            }
            let id = newObject(.queue(QueueState(maxConcurrent: max)), classIndex: nil, typeName: "OperationQueue")
            world.queues.append(id)
            push(.object(id))
            advance()
            emit("creates \(world.heap[id].name)", Access(.object(id), .write))
        case .operation:
            guard case .closure(let closure) = pop(), case .bool(let isAsynchronous) = pop() else {
                fail(.type("isAsynchronous is true or false"))
                return
            }
            let nameValue = pop()
            var name: String?
            if case .string(let s) = nameValue { name = s }
            var state = OperationState(closure: closure)
            state.isAsynchronous = isAsynchronous
            let id = newObject(.operation(state), classIndex: nil, typeName: "op", name: name)
            push(.object(id))
            advance()
            emit("creates operation \(world.heap[id].name)", Access(.object(id), .write))
        }
    }
}
