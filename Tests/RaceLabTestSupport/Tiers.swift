import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// Marks an exhaustive proof or sweep: the tests that take most of the suite's
    /// time. `swift test` runs them; the fast tier, `RACELAB_FAST=1 swift test`,
    /// skips them (docs/TESTING.md).
    public static var exhaustive: Self {
        .enabled(if: ProcessInfo.processInfo.environment["RACELAB_FAST"] != "1", "exhaustive: the fast tier (RACELAB_FAST=1) skips it")
    }
}
