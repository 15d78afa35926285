/// One version of a scenario, compiled once by `Scenario.load`: the broken version,
/// or one of its fixes (a fix, a fix meant to fail, a broken variant). Every command,
/// the lesson page, the grader, the fuzzer and the tests take a scenario's versions
/// from `Scenario.versions` (`Words.version` names them).
public struct Version: Sendable {
    /// The fix's name; nil for the broken version.
    public let fix: String?
    public let role: VersionRole
    public let program: Program
}

/// What a version of a scenario is for, which decides what its exploration should show.
public enum VersionRole: String, Hashable, Sendable {
    /// The scenario's broken version: it should fail.
    case broken
    /// A broken variant of the scenario (another way to break it): it should fail.
    case variant
    /// A fix: it should be proven.
    case fix
    /// A fix marked as one that cannot work (`fails "why"`): it should fail.
    case expectedToFail = "expected to fail"

    /// True for the roles whose version should fail.
    public var shouldFail: Bool { self != .fix }
}
