import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// How code outside an actor (or off the main actor) reaches its state: what it may
/// read in place, and what it reads with a hop.
struct ActorAccessTests {
    /// Nobody changes a `let` field after its init: code anywhere reads an actor's or
    /// a `@MainActor` class's without a hop, as Swift lets code in the same module.
    @Test func anyoneReadsALetField() throws {
        let source = """
            actor Box {
                let id = 7
            }
            @MainActor class Model {
                let name = 3
            }
            let box = Box()
            let model = Model()
            var seen = 0
            task A {
                let k = box.id + model.name
            }
            thread T {
                let k = box.id + model.name
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A A A T T")
        #expect(
            lines(run) == [
                "A reads box.id: 7", "A reads model.name: 3", "A finishes", "T reads box.id: 7", "T reads model.name: 3", "T finishes",
            ])
    }

    /// `await w?.total`: nil when `w` is, else a hop to the actor for its state.
    @Test func anOptionalReadOfAnActorsStateHops() throws {
        let source = """
            actor Counter {
                var total = 3
            }
            var w: Counter? = nil
            nonisolated(unsafe) var seen: [Int?] = []
            task A {
                seen.append(await w?.total)
                w = Counter()
                seen.append(await w?.total)
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A A A A A A A A A")
        #expect(
            lines(run) == [
                "A reads w: nil",
                "A calls seen.append(nil): now [nil]",
                "A creates Counter#1",
                "A writes w = Counter#1",
                "A reads w: Counter#1",
                "A hops to Counter#1 to read its state: runs on Counter#1",
                "A reads Counter#1.total: 3",
                "A hops back: leaves Counter#1; runs on the global concurrent executor",
                "A calls seen.append(3): now [nil, 3]",
                "A finishes",
            ])
    }
}
