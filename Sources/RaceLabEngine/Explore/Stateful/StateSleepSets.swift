/// Sleep sets for the stateful search (`explore --reduction sleep-sets`): a step
/// that another order of the same steps already covers is not taken again, so a
/// state's independent steps are not each tried in every order. Sleep sets alone
/// still visit every state (Godefroid, *Partial-Order Methods for the Verification of
/// Concurrent Systems*, 1996, ch. 6); what is saved is steps, the expensive part.
///
/// Sleep sets and a store of seen states need care together: a state first reached
/// with some steps asleep, and later with fewer, must run those it skipped (their
/// futures were covered only from the first path). So each state keeps the steps
/// asleep at every arrival so far (the intersection); an arrival with fewer asleep
/// runs the difference, and keeps the smaller set.
///
/// With them, one more reduction: a step that would only block on a lock another
/// thread holds (`Engine.onlyBlocksOnLock`) is taken together with the step that
/// left it pending (`Engine.takePendingBlocks`). It changes nothing but the thread's
/// wait, which only holds the thread back until the lock is free, when it takes the
/// lock as it would have tried to; so whatever the others do first, they can do
/// after it as well, and the states where the thread has yet to block are left out
/// (dining philosophers, 8, in order: 1,822,967 states, 289,395 with it). Not taken
/// alone, as a persistent set would be: the holder's release depends on the block,
/// so that would break sleep sets' argument. Folded into the step before, the block
/// is part of that step, and its lock read part of the step's footprint, for which
/// independence is judged as for any other step.
///
/// What the reduced graph keeps: every final state and outcome, every broken
/// invariant and deadlock. It loses states where a thread is about to block on a
/// held lock, and steps, so path counts are not interleavings (the counts are final
/// states), and a breadth-first path in it may be longer than the shortest run. A
/// cycle stays a cycle: every finite run of the program is, up to the order of
/// independent steps and with its blocks on held locks taken early, a path of the
/// reduced graph (the covering argument), so a program with a cycle has arbitrarily
/// long paths there too; an acyclic reduced graph means no run goes on forever.
/// Livelock needs the steps themselves (fairness is about who runs), so a reduced
/// graph with a cycle that makes no progress is searched again without sleep sets.
/// One whose every cycle makes progress has no livelock to look for: a prefix of a
/// run without progress, longer than the graph has states, is (reordered) a path
/// that repeats a state, and the steps between are some of that run's, none of
/// them progress. `StatefulGraphTests` and the fuzzer check these claims against
/// the full graph.
struct StateSleepSets {
    /// Per state: the threads whose next step sleeps there at every arrival so far.
    private var asleep: [UInt64] = []

    /// Counts, not capacities, as `StateStore.bytes`.
    var bytes: Int { asleep.count * 8 }

    /// The threads of these sleeping steps, as a bit set.
    static func threads(_ steps: [StatefulSearch.Sleeper]) -> UInt64 {
        steps.reduce(0) { $0 | 1 << UInt64($1.step.thread) }
    }

    /// A new state, first reached with `threads` asleep.
    mutating func addState(asleep threads: UInt64) {
        asleep.append(threads)
    }

    /// A step reaches `state`, seen before, with `threads` asleep: the threads the
    /// state must now run (asleep before, awake now), or nil when none.
    mutating func revisit(_ state: Int, asleep threads: UInt64) -> UInt64? {
        let wake = asleep[state] & ~threads
        guard wake != 0 else { return nil }
        asleep[state] &= threads
        return wake
    }
}
