import RaceLabEngine

/// A run as a Mermaid sequence diagram, for Markdown notes: the threads are the
/// first participants, then the shared variables, objects and locks the steps touch,
/// in the order first touched. A step that touches one of them is a message from its
/// thread to it; any other step is a note over its thread.
public struct MermaidSequence {
    public let run: Run
    public let title: String

    public init(run: Run, title: String) {
        self.run = run
        self.title = title
    }

    public func render() -> String {
        let names = run.world.threadNames
        // What the steps touch, by name (an operation is the same participant whether a
        // step touches it as an object or as an operation), in the order first touched.
        var targets: [(kind: String, name: String)] = []
        var lines: [String] = []
        for event in run.events {
            let step = "\(event.step). \(Self.clean(event.text))"
            let thread = "t\(event.thread)"
            guard let target = event.accesses.first(where: Self.shown)?.target else {
                lines.append("    Note over \(thread): \(step)")
                continue
            }
            let touched = (Self.kind(target, in: run.world), run.program.name(of: target, in: run.world))
            var index = targets.firstIndex { $0.name == touched.1 }
            if index == nil {
                targets.append(touched)
                index = targets.count - 1
            } else if targets[index!].kind == "object" {
                // An object used as an operation, a queue or a lock is named as that.
                targets[index!].kind = touched.0
            }
            lines.append("    \(thread)->>s\(index!): \(step)")
        }
        var out = "sequenceDiagram\n    title \(Self.clean(title))\n"
        for (index, name) in names.enumerated() { out += "    participant t\(index) as \(Self.clean(name))\n" }
        for (index, target) in targets.enumerated() {
            // A name a thread also has (an operation runs on a thread of its name) says
            // what it is.
            let clash = names.contains(target.name)
            out += "    participant s\(index) as \(Self.clean(clash ? "\(target.name) (\(target.kind))" : target.name))\n"
        }
        for line in lines { out += line + "\n" }
        for finding in run.findings { out += "    Note over t\(finding.thread ?? 0): \(Self.clean(finding.kind.rawValue + ": " + finding.message))\n" }
        return out
    }

    /// Shared variables and fields, locks, objects and queues: what a reader follows.
    static func shown(_ access: Access) -> Bool {
        switch access.target {
        case .global, .field, .lock, .object, .operation, .queue, .mainQueue: return true
        case .allocator, .output, .count, .observer, .section, .pool, .clock: return false
        }
    }

    /// What a participant is, when its name alone could be another's.
    static func kind(_ target: Access.Target, in world: World) -> String {
        switch target {
        case .operation(let id) where id < world.heap.count && world.heap[id].kind.isTask: return "task"
        case .queue(let id) where id < world.heap.count && world.heap[id].isActor: return "actor"
        case .global: return "variable"
        case .field: return "field"
        case .object: return "object"
        case .lock: return "lock"
        case .operation: return "operation"
        case .queue: return "queue"
        case .mainQueue: return "main queue"
        default: return "state"
        }
    }

    /// Text Mermaid takes as it is: no line breaks, and its special characters (`;`,
    /// `#`, `:`, and `<` and `>`, so no arrow can appear) written as entity codes.
    static func clean(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": out += " "
            case ";": out += "#59;"
            case "#": out += "#35;"
            case ":": out += "#58;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case _ where scalar.value < 0x20: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
