/// The sleep sets of the stateless search (Godefroid): a step explored from a node
/// goes to sleep there once its subtree is done, and stays asleep in the nodes below
/// its later siblings until a step dependent on it runs. A sleeping step leads only
/// to executions already explored, so two explored executions are never one trace.
///
/// The steps themselves are kept once, here, in the order they went to sleep along
/// the current path; each node's sleep set (`StatelessSearch.Node.sleep`) names some of them
/// by position. A node's steps leave when the node does (`wake(downTo:)`).
struct SleepSets {
    private var steps: [WakeupStep] = []

    var count: Int { steps.count }

    /// The bytes its steps take, estimated.
    var estimatedBytes: Int { steps.count * (MemoryLayout<WakeupStep>.stride + 16) }

    subscript(position: Int) -> WakeupStep { steps[position] }

    func isAsleep(_ thread: ThreadID, in node: StatelessSearch.Node) -> Bool {
        node.sleep.contains { steps[$0].thread == thread }
    }

    /// `step`, explored from `node` and done, goes to sleep there.
    mutating func putToSleep(_ step: WakeupStep, in node: inout StatelessSearch.Node) {
        steps.append(step)
        node.sleep.insert(steps.count - 1)
    }

    /// The sleep set of the node `step` leads to from `parent`: the parent's sleeping
    /// steps that do not depend on it (they still lead only to explored executions).
    func inherited(from parent: StatelessSearch.Node, after step: WakeupStep) -> BitSet {
        var sleep = BitSet()
        for position in parent.sleep where !steps[position].isDependent(step) { sleep.insert(position) }
        assert(sleep.allSatisfy { $0 < steps.count }, "a sleep set names a step that is not asleep")
        return sleep
    }

    /// The steps that went to sleep at or below a node leaving the search: the node
    /// held `start` when it was made.
    mutating func wake(downTo start: Int) {
        steps.removeLast(steps.count - start)
    }
}
