/// Which search runs, decided once, from what the caller asks (`ExploreConfig.search`,
/// `reduction`, `sleepSets`) and what the program does. Every command, the grader, the
/// lesson page and step mode explore through `Explorer.explore`, which asks this and
/// nothing else, so the same question gets the same search everywhere; the result
/// says which ran and why (`Exploration.searchReason`; `Words.searchReason` words it).
///
/// What a program can force:
/// - a `progress` statement says it is meant to run forever: the stateful search;
/// - a condition wait may wake spuriously only while another thread can run, and a
///   strict-priority scheduler lets a thread run only when no higher one can: whether
///   a thread can run then depends on the others, which DPOR's reduction and sleep sets
///   assume it does not. Asked to choose, the stateful search; asked for DPOR, every
///   interleaving; asked for sleep sets, none.
///
/// `memory "manual"` forces nothing: a retain, a release, a pool's drain and a use
/// after free are accesses to an object's count or the object, which every search
/// orders as it orders any other (ManualMemoryTests and the fuzzer's oracle check
/// that the three agree).
public struct SearchPlan: Sendable, Equatable {
    /// The configuration to run: `search` is never `.automatic` unless the choice is
    /// left to `Explorer.exploreChoosing`.
    public var config: ExploreConfig
    /// Why the search differs from what was asked, or why the choice fell as it did
    /// before any search ran; nil when it runs as asked.
    public var reason: SearchReason?

    /// The plan for `program` under `asked`.
    public static func resolve(_ asked: ExploreConfig, for program: Program) -> SearchPlan {
        var config = asked
        let dependent: SearchReason.Feature? =
            program.usesConditions && program.spuriousWakeups ? .spuriousWakeups : program.strictPriority ? .strictPriority : nil
        switch asked.search {
        case .automatic:
            if program.marksProgress {
                config.search = .stateful
                return SearchPlan(config: config, reason: .forced(.stateful, by: .progress))
            }
            if let dependent {
                config.search = .stateful
                return SearchPlan(config: config, reason: .forced(.stateful, by: dependent))
            }
            return SearchPlan(config: config, reason: nil)
        case .stateless:
            guard asked.reduction == .dpor, let dependent else { return SearchPlan(config: config, reason: nil) }
            config.reduction = .none
            return SearchPlan(config: config, reason: .forced(.everyInterleaving, by: dependent))
        case .stateful:
            guard asked.sleepSets, let dependent else { return SearchPlan(config: config, reason: nil) }
            config.sleepSets = false
            return SearchPlan(config: config, reason: .forced(.noSleepSets, by: dependent))
        }
    }
}

/// Why a search ran (`Exploration.searchReason`): what the program forced before any
/// search ran, or how the race between the two searches (`Explorer.exploreChoosing`)
/// fell. `Words.searchReason` says it in a sentence.
public enum SearchReason: Sendable, Equatable {
    /// What a program does that decides the search.
    public enum Feature: Sendable, Equatable {
        /// It marks progress: it is meant to run forever.
        case progress
        /// It waits on conditions that may wake spuriously.
        case spuriousWakeups
        /// A strict-priority scheduler picks who runs.
        case strictPriority
    }

    /// What a feature forces.
    public enum Forced: Sendable, Equatable {
        /// The stateful search, where the choice was left to RaceLab.
        case stateful
        /// Every interleaving, where DPOR was asked for.
        case everyInterleaving
        /// The stateful search without the sleep sets asked for.
        case noSleepSets
    }

    case forced(Forced, by: Feature)
    /// A DPOR execution reached the step bound (this many steps): the program may
    /// never end, and the stateful search ran alone.
    case stepBound(Int)
    /// DPOR's execution bound cut it (`cut`); the stateful search then finished with
    /// this many states, or found a failure.
    case statelessCut(Cut, statefulStates: Int)
    /// The stateless search (`reduction` DPOR or none) won: it finished with this
    /// many executions, or a bound of its own cut it; `statefulCut` when the stateful
    /// search ran out of room first.
    case statelessWon(ExploreConfig.Reduction, executions: Int, cut: Cut?, statefulCut: Cut?)
    /// The stateful search won: it finished with this many states, or a bound of its
    /// own cut it, while DPOR had run this many executions.
    case statefulWon(states: Int, cut: Cut?, statelessExecutions: Int)
}
