import RaceLabEngine

/// An actor's lane in the pictures of a run: who holds the actor after each step, and
/// who waits in its mailbox. `standing(_:_:)` reads an actor in one world; every
/// renderer that shows an actor (the timeline's lanes and footer, step mode's shared
/// state, the lesson page's lanes) asks it, and none reads an actor's header or
/// mailbox itself.
///
///     let lanes = ActorLane.lanes(ReplayedRun(run))
///     lanes[0].holds  // [Hold(holder: 1, steps: 0...1), Hold(holder: 2, steps: 2...4)]
public struct ActorLane: Sendable, Equatable {
    /// An actor as one world has it.
    public struct Standing: Sendable, Equatable {
        /// The thread (a task, or main) that holds it: the one running a job on it, or
        /// the one it was handed to from the mailbox. Nil when the actor is free.
        public var holder: ThreadID?
        /// The tasks waiting in its mailbox, in the mailbox's order.
        public var mailbox: [ThreadID]
    }

    /// Steps in a row after each of which one thread holds the actor.
    public struct Hold: Sendable, Equatable {
        public var holder: ThreadID
        /// 0-based steps.
        public var steps: ClosedRange<Int>
    }

    /// The actor's object.
    public let actor: ObjectID
    /// Its name, as the trace says it ("images", "MainActor").
    public let name: String
    /// One per step of the run: the actor as the step left it, nil before the actor
    /// was made or after it was freed.
    public let rows: [Standing?]

    /// The actor in `world`: who holds it and who waits for it, or nil when `id` is no
    /// live actor there.
    ///
    /// - Complexity: O(*m*), for *m* tasks in the mailbox.
    public static func standing(_ world: World, _ id: ObjectID) -> Standing? {
        guard id < world.heap.count, world.headers[id].isAlive, case .actor(let mailbox) = world.heap[id].kind else { return nil }
        return Standing(holder: world.headers[id].owner, mailbox: mailbox)
    }

    /// Whether some world of `program` can have an actor: it declares one, or its code
    /// runs on the main actor.
    public static func mayHaveActors(_ program: Program) -> Bool {
        program.usesMainActor || program.classes.contains(where: { $0.isActor })
    }

    /// One lane for each actor the run made (the main actor among them, when the
    /// program uses it), in object order, each with a row per step.
    ///
    /// - Complexity: O(*a* × *s*), for *a* actors and *s* steps.
    public static func lanes(_ replay: ReplayedRun) -> [ActorLane] {
        // Objects are never removed, so the last world has every actor the run made.
        guard let end = replay.worlds.last else { return [] }
        return end.heap.indices.compactMap { id in
            guard case .actor = end.heap[id].kind else { return nil }
            return ActorLane(actor: id, name: end.heap[id].name, rows: replay.worlds.dropFirst().map { standing($0, id) })
        }
    }

    /// Who held the actor, and when: each stretch of steps after which one thread held
    /// it, in step order. A handover from one task to the next is two holds that touch.
    public var holds: [Hold] {
        var holds: [Hold] = []
        for (step, row) in rows.enumerated() {
            guard let holder = row?.holder else { continue }
            if let last = holds.last, last.holder == holder, last.steps.upperBound == step - 1 {
                holds[holds.count - 1].steps = last.steps.lowerBound...step
            } else {
                holds.append(Hold(holder: holder, steps: step...step))
            }
        }
        return holds
    }
}

extension ActorLane.Standing {
    /// "held by A; mailbox: B, C", or "free".
    func text(_ names: [String]) -> String {
        holderText(names) + (mailbox.isEmpty ? "" : "; " + mailboxText(names))
    }

    /// "held by A", or "free".
    func holderText(_ names: [String]) -> String {
        holder.map { "held by \(names[$0])" } ?? "free"
    }

    /// "mailbox: B, C".
    func mailboxText(_ names: [String]) -> String {
        "mailbox: " + mailbox.map { names[$0] }.joined(separator: ", ")
    }
}
