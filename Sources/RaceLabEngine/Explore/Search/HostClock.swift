/// The host's monotonic clock, read only by `Deadline` and a command's live progress
/// line: natively Swift's
/// `ContinuousClock`; in the browser build (Embedded Swift, which has no clock) the
/// page supplies `racelab.host_milliseconds` (JavaScript's `performance.now()`). It
/// never reaches scheduling or output: a search it stops says only that it was cut,
/// and the progress line is drawn on a terminal and cleared.
package enum HostClock {
    #if hasFeature(Embedded)
        /// Nanoseconds since some fixed moment in the page's life.
        package static func nanoseconds() -> Int64 {
            Int64(hostMilliseconds() * 1_000_000)
        }
    #else
        private static let origin = ContinuousClock.now

        /// Nanoseconds since the clock was first read in this process.
        package static func nanoseconds() -> Int64 {
            let elapsed = origin.duration(to: .now).components
            return elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000
        }
    #endif
}

#if hasFeature(Embedded)
    /// Supplied by the page that loads the module: its import `racelab.host_milliseconds`.
    @_extern(wasm, module: "racelab", name: "host_milliseconds")
    @_extern(c)
    func hostMilliseconds() -> Double
#endif
