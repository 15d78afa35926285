import RaceLabEngine

/// A run as a Graphviz (DOT) graph: a deadlock's wait-for graph, or the lock order of
/// a run that took two locks in opposite orders.
public struct DOTGraph {
    public let replay: ReplayedRun
    public let title: String

    public init(replay: ReplayedRun, title: String) {
        self.replay = replay
        self.title = title
    }

    var run: Run { replay.run }

    /// A deadlock's wait-for graph: threads are boxes, the locks they hold and wait for
    /// are ellipses; "waits for" and "held by" edges, and a thread's other waits (an
    /// operation, a queue, a semaphore) as an edge to the thread it waits on, labelled
    /// with why. The edges of the wait-for cycle, if there is one, are red. Nil when
    /// the run did not end in a deadlock: there is nothing to draw.
    public func waitFor() -> String? {
        guard run.end == .deadlocked else { return nil }
        let world = run.world
        let names = world.threadNames
        var edges: [(from: String, to: String, label: String, thread: ThreadID, next: ThreadID?)] = []
        var locks: [ObjectID] = []
        var blocked: [ThreadID] = []
        for wait in replay.waits where wait.waits {
            let (thread, text, on) = (wait.thread, wait.text, wait.waitsOn)
            blocked.append(thread)
            if let lock = wait.lock {
                if !locks.contains(lock) { locks.append(lock) }
                edges.append(("t\(thread)", "l\(lock)", "waits for", thread, on.first))
                if let owner = world.headers[lock].owner { edges.append(("l\(lock)", "t\(owner)", "held by", owner, nil)) }
            } else if let other = on.first {
                edges.append(("t\(thread)", "t\(other)", text, thread, other))
            } else {
                edges.append(("t\(thread)", "t\(thread)", text, thread, nil))
            }
        }
        // The cycle: from each blocked thread, follow what it waits on.
        var cycle: [ThreadID] = []
        for start in blocked where cycle.isEmpty {
            var path: [ThreadID] = []
            var current = start
            while !path.contains(current), let next = replay.waits.first(where: { $0.thread == current })?.waitsOn.first {
                path.append(current)
                current = next
            }
            if let at = path.firstIndex(of: current) { cycle = Array(path[at...]) }
        }
        var out = "digraph waitfor {\n  label=\(Self.quoted(title));\n  labelloc=t;\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n"
        for thread in blocked { out += "  t\(thread) [shape=box, label=\(Self.quoted(names[thread]))];\n" }
        for lock in locks { out += "  l\(lock) [shape=ellipse, label=\(Self.quoted(world.heap[lock].name))];\n" }
        for edge in edges {
            // An edge on the cycle: a thread's wait toward the next thread of the cycle,
            // or a held-by edge into a thread of it.
            let onCycle =
                cycle.contains(edge.thread)
                && (edge.label == "held by" || edge.next.map { cycle.contains($0) } ?? false)
            out += "  \(edge.from) -> \(edge.to) [label=\(Self.quoted(edge.label))\(onCycle ? ", color=red, fontcolor=red, penwidth=2" : "")];\n"
        }
        return out + "}\n"
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: " ") + "\""
    }
}

extension DOTGraph {
    /// A lock-order inversion: the locks the run took are ellipses, an edge from a
    /// lock to one a thread took while holding it, labelled with the thread and the
    /// line; the edges of the inversion (lock1 before lock2 here, lock2 before lock1
    /// there) are red. The run need not deadlock: the order alone can. Nil when the
    /// run took no two locks in opposite orders.
    public func lockOrder() -> String? {
        let edges = run.lockOrder
        guard let inversion = LockInversion.cycles(of: edges).first else { return nil }
        var locks: [String] = []
        for edge in edges {
            for lock in [edge.held, edge.taken] where !locks.contains(lock) { locks.append(lock) }
        }
        var out = "digraph lockorder {\n  label=\(Self.quoted(title));\n  labelloc=t;\n  node [fontname=\"Helvetica\", shape=ellipse];\n"
        for (index, lock) in locks.enumerated() { out += "  l\(index) [label=\(Self.quoted(lock))];\n" }
        for edge in edges {
            let line = edge.line.map { ", line \($0)" } ?? ""
            let label = "\(edge.thread) holds \(edge.held), takes \(edge.taken)\(line)"
            let onCycle = inversion.edges.contains(edge)
            out += "  l\(locks.firstIndex(of: edge.held)!) -> l\(locks.firstIndex(of: edge.taken)!) [label=\(Self.quoted(label))"
            out += (onCycle ? ", color=red, fontcolor=red, penwidth=2" : "") + "];\n"
        }
        return out + "}\n"
    }
}
