/// Manual reference counting (`memory "manual"`, `Program.manualMemory`), as
/// Objective-C before ARC: an object is born with a retain count of 1 (alloc), and
/// stores, locals and captures count for nothing (`retain(_:)` and `release(_:)` of a
/// value do nothing). Only `retain()`, `release()` and `autorelease()` change a count;
/// a release to zero deallocates at once, and a later use of the object is a crash
/// that says who freed it (`object(_:_:)`). An `autoreleasepool { }` block pushes a
/// pool on its thread, and its end drains it; an object autoreleased with no pool in
/// place is leaked, as the old runtime warned.
extension Machine {
    /// `x.retain()`, `x.release()`, `x.autorelease()` on a live object (the compiler
    /// allows them only under manual memory); false for any other method.
    mutating func executeMemoryMethod(_ name: String, on id: ObjectID, argc: Int) -> Bool {
        guard program.manualMemory, argc == 0 else { return false }
        let objectName = world.heap[id].name
        switch name {
        case "retain":
            world.headers[id].retainCount += 1
            frame.slots.removeLast()
            push(.object(id))
            advance()
            emit("retains \(objectName) (retain count \(world.headers[id].retainCount))", Access(.count(id), .write))
        case "release":
            frame.slots.removeLast()
            push(.none)
            advance()
            world.headers[id].retainCount -= 1
            let count = world.headers[id].retainCount
            if count == 0 {
                touch(.count(id), .write)
                deallocate(id) { "releases \($0) (retain count 0), which is deallocated" }
            } else {
                emit("releases \(objectName) (retain count \(count))", Access(.count(id), .write))
            }
        case "autorelease":
            frame.slots.removeLast()
            push(.object(id))
            advance()
            guard !state.pools.isEmpty else {
                emit("autoreleases \(objectName) with no autorelease pool in place", Access(.count(id), .write))
                report(
                    .leak,
                    "\(threadName) autoreleased \(objectName) with no pool in place: no pool will release it, so it leaks "
                        + "(the old runtime said 'just leaking'; wrap the thread's work in autoreleasepool { })")
                return true
            }
            state.pools[state.pools.count - 1].append(id)
            emit("autoreleases \(objectName): the innermost pool releases it when it is drained", Access(.count(id), .write))
        default:
            return false
        }
        return true
    }

    /// `autoreleasepool { … }` begins: a pool on this thread, taking no step.
    mutating func pushPool() {
        state.pools.append([])
        push(.none)
        advance()
    }

    /// `autoreleasepool { … }` ends: its pool is drained, each object autoreleased
    /// into it released once, in the order they went in.
    mutating func drainPool() {
        let pool = state.pools.removeLast()
        push(.none)
        advance()
        let names = pool.map { world.heap[$0].name }
        emit(
            names.isEmpty ? "drains its autorelease pool, which holds nothing" : "drains its autorelease pool, releasing \(names.joined(separator: ", "))",
            pool.map { Access(.count($0), .write) })
        // One release each, in order: an object released to zero here and found again
        // in the pool is used after it was freed, as the real drain would crash.
        for id in pool {
            guard world.headers[id].isAlive else {
                crash(useAfterFree(id, "released by its autorelease pool"))
                return
            }
            world.headers[id].retainCount -= 1
            if world.headers[id].retainCount == 0 { deallocate(id) { "deallocates \($0): its retain count is 0" } }
        }
    }

    /// What a use of a deallocated object says: who used it, how, and who freed it.
    func useAfterFree(_ id: ObjectID, _ purpose: String) -> String {
        let name = world.heap[id].name
        guard program.manualMemory, let freer = world.headers[id].deallocatedOn else {
            return "use of deallocated object \(name) (\(purpose))"
        }
        let place = world.headers[id].deallocatedIn.map { " in \(program.codes[$0].name)" } ?? ""
        let who = freer == thread ? "itself" : world.threadNames[freer]
        return "\(threadName) used \(name) (\(purpose)) after \(who) had deallocated it, releasing it\(place)"
    }
}
