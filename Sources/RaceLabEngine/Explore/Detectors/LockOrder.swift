import RaceLabLanguage

/// Lock-order checking, as Helgrind does it: every time a thread takes a lock while
/// holding others, each held lock is recorded as ordered before the new one. A cycle
/// in that order (lock1 before lock2 here, lock2 before lock1 there) can deadlock,
/// even if no explored run did (another lock may have kept the threads apart).
public struct LockOrderEdge: Hashable, Sendable {
    public var held: String
    public var taken: String
    public var thread: String
    public var line: Int?
}

/// A cycle of lock-order edges: each edge's `taken` is the next edge's `held`.
public struct LockInversion: Hashable, Sendable {
    public var edges: [LockOrderEdge]
}

extension LockOrderEdge {
    /// The lock-order edges of one step: the locks `thread` held before it (by the
    /// objects' headers then), each before a lock the step took (a re-entrant take is
    /// not an edge).
    static func edges(heldBefore headers: [ObjectHeader], after: World, thread: ThreadID, accesses: [Access], line: Int?) -> [LockOrderEdge] {
        var edges: [LockOrderEdge] = []
        for access in accesses where access.kind == .acquire {
            guard case .lock(let taken) = access.target, headers[taken].owner != thread else { continue }
            for held in headers.indices where headers[held].owner == thread && held != taken {
                edges.append(LockOrderEdge(held: after.heap[held].name, taken: after.heap[taken].name, thread: after.threadNames[thread], line: line))
            }
        }
        return edges
    }

    /// Adds an edge unless the same thread already took the same two locks in this order.
    static func add(_ new: [LockOrderEdge], to edges: inout [LockOrderEdge]) {
        for edge in new where !edges.contains(where: { $0.held == edge.held && $0.taken == edge.taken && $0.thread == edge.thread }) {
            edges.append(edge)
        }
    }
}

extension Explorer {
    /// Records the lock-order edges of one step.
    func recordLockOrder(
        heldBefore headers: [ObjectHeader], after: World, thread: ThreadID, accesses: [Access], line: Int?,
        into result: inout Exploration
    ) {
        LockOrderEdge.add(
            LockOrderEdge.edges(heldBefore: headers, after: after, thread: thread, accesses: accesses, line: line), to: &result.lockOrder)
    }
}

extension Run {
    /// The lock order this run took, replayed step by step: each edge once, in the
    /// order the run first took it.
    public var lockOrder: [LockOrderEdge] {
        let engine = Engine(program: program)
        var world = engine.initialWorld()
        var edges: [LockOrderEdge] = []
        for name in schedule {
            guard let thread = world.thread(named: name) else { break }
            let before = world.headers
            let events = engine.step(&world, thread: thread)
            for event in events {
                LockOrderEdge.add(
                    LockOrderEdge.edges(heldBefore: before, after: world, thread: thread, accesses: event.accesses, line: event.range?.start.line),
                    to: &edges)
            }
        }
        return edges
    }
}

extension Exploration {
    /// The cycles of the lock order, each once, shortest first; each is a potential deadlock.
    public var lockInversions: [LockInversion] { LockInversion.cycles(of: lockOrder) }
}

extension LockInversion {
    /// The cycles among lock-order edges, each once, shortest first.
    public static func cycles(of lockOrder: [LockOrderEdge]) -> [LockInversion] {
        var found: [LockInversion] = []
        var seen: Set<[String]> = []
        for start in lockOrder {
            // Breadth first from the edge's `taken` lock back to its `held` lock.
            var paths: [[LockOrderEdge]] = [[start]]
            var visited: Set<String> = [start.taken]
            while !paths.isEmpty {
                var next: [[LockOrderEdge]] = []
                for path in paths {
                    let end = path.last!.taken
                    if end == start.held {
                        let key = path.map({ $0.held }).sorted()
                        if seen.insert(key).inserted { found.append(LockInversion(edges: path)) }
                        next = []
                        break
                    }
                    for edge in lockOrder where edge.held == end && (edge.taken == start.held || !visited.contains(edge.taken)) {
                        visited.insert(edge.taken)
                        next.append(path + [edge])
                    }
                }
                paths = next
            }
        }
        return found.sorted { $0.edges.count < $1.edges.count }
    }
}
