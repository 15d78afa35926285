import RaceLabEngine
import RaceLabLanguage

/// The machine-readable form of a run. Keys come in a fixed order.
public struct JSONRenderer: Sendable {
    public var scenario: String
    public var fix: String?

    public init(scenario: String, fix: String?) {
        self.scenario = scenario
        self.fix = fix
    }

    public func render(_ run: Run) -> String {
        let formatter = ValueFormatter(world: run.world)
        let names = run.world.threadNames
        let steps: [JSON] = run.events.map { event in
            .object([
                ("step", .int(event.step)),
                ("thread", .string(names[event.thread])),
                ("line", event.range.map { .int($0.start.line) } ?? .null),
                ("text", .string("\(names[event.thread]) \(event.text)")),
                (
                    "accesses",
                    .array(
                        event.accesses.map { access in
                            .object([("target", .string(target(access.target, run))), ("kind", .string(access.kind.rawValue))])
                        })
                ),
            ])
        }
        let globals: [(String, JSON)] = run.program.globals.enumerated().map { index, global in
            (global.name, .string(formatter.describe(run.world.globals[index])))
        }
        let json = JSON.object([
            ("scenario", .string(scenario)),
            ("fix", fix.map { .string($0) } ?? .null),
            ("end", .string(run.end.rawValue)),
            ("schedule", .string(run.schedule.text)),
            ("events", .array(steps)),
            ("globals", .object(globals)),
            (
                "checks",
                .array(
                    run.expectations.map { check in
                        .object([("message", .string(check.message)), ("passed", check.passed.map { .bool($0) } ?? .null)])
                    })
            ),
            (
                "findings",
                .array(
                    run.findings.map { finding in
                        .object([
                            ("kind", .string(finding.kind.rawValue)),
                            ("step", .int(finding.step)),
                            ("thread", finding.thread.map { .string(names[$0]) } ?? .null),
                            ("line", finding.range.map { .int($0.start.line) } ?? .null),
                            ("message", .string(finding.message)),
                        ])
                    })
            ),
        ])
        return json.serialized() + "\n"
    }

    func target(_ target: Access.Target, _ run: Run) -> String {
        let heap = run.world.heap
        switch target {
        case .global(let g): return run.program.globals[g].name
        case .field(let id, _) where heap[id].kind == .atomic: return heap[id].name
        case .field(let id, let field): return "\(heap[id].name).\(run.program.fieldName(field, classIndex: heap[id].classIndex))"
        case .object(let id): return heap[id].name
        case .lock(let id):
            if case .semaphore = heap[id].kind { return "semaphore \(heap[id].name)" }
            if case .group = heap[id].kind { return "group \(heap[id].name)" }
            return "lock \(heap[id].name)"
        case .operation(let id): return "operation \(heap[id].name)"
        case .queue(let id): return "queue \(heap[id].name)"
        case .mainQueue: return "main queue"
        case .allocator: return "allocator"
        case .output: return "output"
        case .count(let id): return "retain count of \(heap[id].name)"
        case .observer: return "observer"
        case .section(let index): return "critical section \(run.program.criticalSections[index])"
        case .pool: return "the cooperative pool"
        case .clock: return "the clock"
        }
    }
}
