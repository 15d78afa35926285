import RaceLabLanguage

/// What the Swift 6 compiler would reject (its data-race safety, SE-0412), told
/// beside what happens at run time, so a scenario can say "Swift 6 rejects this"
/// and "this breaks", or "Swift 6 accepts this, and it still breaks".
///
/// The mapping: a scenario's top-level variables are those of a script's top-level
/// code, which Swift 6 isolates to the main actor (SE-0343). So main's code, a
/// `@MainActor` function or task and a main-queue block may use them; code off the
/// main actor may not: a task (`task A`, `Task.detached`, a task started off the
/// main actor), an actor's method, a function that is not `@MainActor`, a thread or
/// a queue's block. A top-level `let` is fine there when its value is `Sendable` (a
/// number, a string, an actor, a lock, a semaphore, a stream), not when it holds an
/// instance of a class of the script's (not `Sendable`; an actor and a `@MainActor`
/// class are). A `nonisolated(unsafe)` variable is not checked. What it leaves out:
/// region-based isolation (SE-0414: a class instance a closure captures and sends),
/// `@unchecked Sendable`.
struct Swift6Check {
    /// Where code runs, as Swift 6 sees it.
    enum Context: Hashable {
        case mainActor
        case actor(String)
        case task(String)
        case function(String)
        case thread(String)
        /// A handler another thread runs (`onTermination`, `onCancel`): Swift's closure
        /// is `@Sendable` and nonisolated, whoever sets it.
        case handler(String)

        var words: String {
            switch self {
            case .mainActor: return "main-actor code"
            case .actor(let name): return "actor \(name)'s code"
            case .task(let name): return "task \(name) (off the main actor)"
            case .function(let name): return "function \(name) (not @MainActor)"
            case .thread(let name): return "\(name) (a thread of its own)"
            case .handler(let name): return "the \(name) handler (a @Sendable closure, off the main actor)"
            }
        }
    }

    /// The first use of each top-level variable from each context off the main actor.
    private var uses: [(global: Int, context: Context, line: Int?)] = []

    /// The top-level variable an instruction reads or changes, if any.
    static func global(touchedBy instruction: Instruction) -> Int? {
        switch instruction {
        case .load(.global(let g)), .store(.global(let g)), .readElement(.global(let g)), .writeElement(.global(let g)),
            .arrayProperty(.global(let g), _), .arrayMutation(.global(let g), _), .contains(.global(let g)), .iterate(.global(let g), _, _, _, _):
            return g
        default: return nil
        }
    }

    mutating func note(_ global: Int, _ context: Context, _ range: SourceRange?) {
        guard context != .mainActor, !uses.contains(where: { $0.global == global && $0.context == context }) else { return }
        uses.append((global, context, range?.start.line))
    }

    /// One sentence for each use Swift 6 rejects, in the order met.
    func rejections(_ program: Program) -> [String] {
        uses.compactMap { use in
            let global = program.globals[use.global]
            if global.isUnchecked { return nil }
            let at = use.line.map { " (line \($0))" } ?? ""
            if !global.isLet {
                return "var '\(global.name)' is the main actor's, and \(use.context.words) uses it\(at)"
            }
            guard let type = global.holdsInstanceOf else { return nil }
            return "let '\(global.name)' holds a \(type), which is not Sendable, and \(use.context.words) uses it\(at)"
        }
    }
}
