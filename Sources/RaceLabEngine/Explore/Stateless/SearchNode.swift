extension StatelessSearch {
    /// A node of the stateless search: one level of the current execution, with what
    /// is left to explore from it.
    struct Node {
        var world: World
        /// The threads that can run here, as a bit set.
        var enabled: UInt64
        /// What is still to explore from here, leftmost first.
        var pending = WakeupTree()
        var explored = 0
        /// Steps known to lead only to explored traces from here (DPOR): positions in
        /// the search's `sleeping` steps.
        var sleep = BitSet()
        /// How many sleeping steps the search held when this node was made: the ones
        /// from there on went to sleep here, and go when the node does.
        var sleepingStart = 0
        /// The step being explored from here.
        var current: WakeupStep?
        var last: ThreadID?
        var preemptions = 0
        /// What the node holds of its own, estimated (`World.estimatedBytes`, and the
        /// collections the step that made it copied): counted against the memory budget.
        var bytes = 0

        func isEnabled(_ thread: ThreadID) -> Bool { enabled & (1 << UInt64(thread)) != 0 }

        /// Whether running `thread` here stops the thread that ran last while it could go on.
        func isPreemption(_ thread: ThreadID) -> Bool {
            guard let last, last != thread else { return false }
            return isEnabled(last)
        }

        /// Where the search from here starts: every enabled thread without reduction;
        /// under DPOR, one awake thread (the one that just ran, if it can: fewer
        /// preemptions), or nothing when every enabled thread is asleep.
        mutating func startPending(_ reduction: ExploreConfig.Reduction, sleeping: SleepSets) {
            switch reduction {
            case .none:
                pending = WakeupTree(threads: enabledThreads)
            case .dpor:
                if let last, isEnabled(last), !sleeping.isAsleep(last, in: self) {
                    pending = WakeupTree(thread: last)
                    return
                }
                var bits = enabled
                while bits != 0 {
                    let thread = bits.trailingZeroBitCount
                    if !sleeping.isAsleep(thread, in: self) {
                        pending = WakeupTree(thread: thread)
                        return
                    }
                    bits &= bits - 1
                }
                pending = WakeupTree()
            }
        }

        /// The enabled threads, in creation order.
        var enabledThreads: [ThreadID] {
            var result: [ThreadID] = []
            var bits = enabled
            while bits != 0 {
                result.append(bits.trailingZeroBitCount)
                bits &= bits - 1
            }
            return result
        }
    }

}
