import RaceLabLanguage

/// The events and accesses of one step.
///
/// Its variables skip the run-time exclusivity check (`@exclusivity(unchecked)`): a
/// log belongs to one machine at a time, on one thread, and is only ever appended
/// to or read, never accessed while an access is under way; the check cost about 5%
/// of exploration time.
final class EventLog {
    /// False when exploring: events are counted and their accesses kept, but no
    /// sentence is built (the costliest part of a step).
    let narrate: Bool
    @exclusivity(unchecked) var events: [Event] = []
    @exclusivity(unchecked) var emitted = 0
    /// Every access of the step, including ones no sentence mentions (allocation, output).
    @exclusivity(unchecked) var accesses: [Access] = []
    /// The source range of the step's first event: where the step is in the script.
    @exclusivity(unchecked) var range: SourceRange?
    /// Whether the step ran a `progress` statement.
    @exclusivity(unchecked) var progressed = false
    /// The weight (`Value.weight`) of the collections the step changed in place. A
    /// search keeps the world before the step too, which shares them, so the change
    /// copies each: what a stateless search's stack holds beyond `World.estimatedBytes`.
    @exclusivity(unchecked) var copied = 0

    init(narrate: Bool) {
        self.narrate = narrate
    }

    /// Empties the log for the next step, keeping its storage.
    func reset() {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        // A step makes one or two accesses: removing them one by one is cheaper than
        // a general removal.
        while !accesses.isEmpty { accesses.removeLast() }
        emitted = 0
        range = nil
        progressed = false
        copied = 0
    }
}
