/// Which search runs, decided once, from what the caller asks (`ExploreConfig.search`,
/// `reduction`, `sleepSets`) and what the program does. Every command, the grader, the
/// lesson page and step mode explore through `Explorer.explore`, which asks this and
/// nothing else, so the same question gets the same search everywhere; the result
/// says which ran and why (`Exploration.searchReason`), in the words below.
///
/// What a program can force:
/// - a `progress` statement says it is meant to run forever: the stateful search;
/// - a condition wait may wake spuriously only while another thread can run, and a
///   strict-priority scheduler lets a thread run only when no higher one can: whether
///   a thread can run then depends on the others, which DPOR's reduction and sleep sets
///   assume it does not. Asked to choose, the stateful search; asked for DPOR, every
///   interleaving; asked for sleep sets, none.
public struct SearchPlan: Sendable, Equatable {
    /// The configuration to run: `search` is never `.automatic` unless the choice is
    /// left to `Explorer.exploreChoosing`.
    public var config: ExploreConfig
    /// Why the search differs from what was asked, or why the choice fell as it did
    /// before any search ran; nil when it runs as asked.
    public var reason: String?

    /// The plan for `program` under `asked`.
    public static func resolve(_ asked: ExploreConfig, for program: Program) -> SearchPlan {
        var config = asked
        let dependent: String? =
            program.usesConditions && program.spuriousWakeups
            ? "the program waits on conditions, whose spurious wakeups DPOR's reduction cannot follow"
            : program.strictPriority
                ? "a strict-priority scheduler picks who runs by the threads' priorities, which DPOR's reduction cannot follow" : nil
        switch asked.search {
        case .automatic:
            if program.marksProgress {
                config.search = .stateful
                return SearchPlan(config: config, reason: "stateful search: the program marks progress, so it is meant to run forever")
            }
            if let dependent {
                config.search = .stateful
                return SearchPlan(config: config, reason: "stateful search: " + dependent)
            }
            return SearchPlan(config: config, reason: nil)
        case .stateless:
            guard asked.reduction == .dpor, let dependent else { return SearchPlan(config: config, reason: nil) }
            config.reduction = .none
            return SearchPlan(config: config, reason: "no reduction: " + dependent)
        case .stateful:
            guard asked.sleepSets, let dependent else { return SearchPlan(config: config, reason: nil) }
            config.sleepSets = false
            return SearchPlan(config: config, reason: "stateful search without sleep sets: " + dependent)
        }
    }
}
