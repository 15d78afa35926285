/// Reference counting: every strong reference held by a global, a field, an array
/// element, a local or a closure's capture counts. When the count reaches zero the
/// object is deallocated on the thread that released it, and its deinit runs there.
extension Machine {
    mutating func retain(_ value: Value) {
        for id in value.references {
            world.heap[id].retainCount += 1
            touch(.count(id), .write)
        }
    }

    /// Releases the references a value holds. Objects in `keepAlive` may reach zero
    /// without being deallocated: they are being handed to the caller.
    mutating func release(_ value: Value, keepAlive: [ObjectID] = []) {
        for id in value.references {
            touch(.count(id), .write)
            let before = world.heap[id].retainCount
            world.heap[id].retainCount -= 1
            if before == 1 && world.heap[id].isAlive && !keepAlive.contains(id) {
                deallocate(id, reason: "releases the last reference to \(world.heap[id].name), which is deallocated")
            }
        }
    }

    mutating func deallocate(_ id: ObjectID, reason: String) {
        let object = world.heap[id]
        let classInfo = object.classIndex.map { program.classes[$0] }
        var text = reason
        if classInfo?.deinitCode != nil { text += "; its deinit runs on \(threadName)" }
        if classInfo?.mainThreadOnly == true && !state.isMain {
            text += classInfo?.deinitCode == nil ? " on \(threadName), not on main" : ", not on main"
            let message = "deinit \(object.name) runs on \(threadName), not main: \(classInfo!.name) is main-thread-only, but \(threadName) released the last reference"
            emit(text, [Access(.object(id), .write)])
            report(.mainThread, message)
        } else {
            emit(text, [Access(.object(id), .write)])
        }
        if classInfo?.deinitCode != nil {
            pendingDeinits.append(id)
        } else {
            free(id)
        }
    }

    /// Marks an object dead and releases everything it holds.
    mutating func free(_ id: ObjectID) {
        touch(.allocator, .write)
        world.heap[id].isAlive = false
        let fields = world.heap[id].fields
        world.heap[id].fields = fields.map { _ in .none }
        switch world.heap[id].kind {
        case .operation(let op):
            if let c = op.closure { release(.closure(c)) }
            if let c = op.completion { release(.closure(c)) }
        default:
            break
        }
        for field in fields { release(field) }
    }

    /// Pushes a deinit frame for each object that reached zero during the last instruction.
    mutating func runPendingDeinits() {
        while let id = pendingDeinits.popLast() {
            guard let code = world.heap[id].classIndex.flatMap({ program.classes[$0].deinitCode }) else { continue }
            var deinitFrame = Frame(code: code, localCount: program.codes[code].localCount, kind: .deinitializer(id))
            deinitFrame.slots[0] = .object(id)
            state.frames.append(deinitFrame)
        }
    }

    mutating func newObject(_ kind: HeapObject.Kind, classIndex: Int?, typeName: String, name: String? = nil) -> ObjectID {
        let sameType = world.heap.filter { object in
            if let classIndex { return object.classIndex == classIndex }
            return object.classIndex == nil && object.name.hasPrefix(typeName + "#")
        }.count
        var object = HeapObject(kind: kind, classIndex: classIndex, name: name ?? "\(typeName)#\(sameType + 1)")
        if let classIndex {
            object.fields = program.classes[classIndex].fieldDefaults
            object.fieldVersions = object.fields.map { _ in 0 }
            world.created[classIndex] += 1
        }
        world.heap.append(object)
        touch(.allocator, .write)
        return world.heap.count - 1
    }

    mutating func allocateInstance(_ classIndex: Int, fields: [Int]) {
        let values = Array(frame.slots.suffix(fields.count))
        frame.slots.removeLast(fields.count)
        let id = newObject(.instance, classIndex: classIndex, typeName: program.classes[classIndex].name)
        for (field, value) in zip(fields, values) {
            retain(value)
            world.heap[id].fields[field] = value
        }
        push(.object(id))
        advance()
        emit("creates \(world.heap[id].name)", [Access(.object(id), .write)])
    }

    /// A main-thread-only object written to (or changed) off the main thread.
    mutating func checkMainThreadOnly(_ id: ObjectID, _ what: String) {
        guard let classIndex = world.heap[id].classIndex, program.classes[classIndex].mainThreadOnly, !state.isMain else { return }
        report(.mainThread, "\(threadName) \(what) off the main thread: \(program.classes[classIndex].name) is main-thread-only")
    }
}
