import RaceLabEngine
import RaceLabLanguage
import Testing

struct ExplorerTests {
    func explore(_ source: String, _ reduction: ExploreConfig.Reduction) throws -> Exploration {
        var config = ExploreConfig()
        config.reduction = reduction
        return Explorer(program: try compile(source), config: config).explore()
    }

    @Test func twoAndThreeStepsOnOneVariableMakeTenInterleavings() throws {
        let source = "var x = 0\nthread A { x = 1\n x = 2 }\nthread B { x = 3\n x = 4\n x = 5 }"
        let none = try explore(source, .none)
        #expect(none.executions == 10)
        #expect(none.interleavings == 10)
        let dpor = try explore(source, .dpor)
        print(dpor.executions, dpor.interleavings, dpor.sleepBlocked, dpor.outcomes.map(\.outcome.state))
        print(none.outcomes.map(\.outcome.state))
    }
}
