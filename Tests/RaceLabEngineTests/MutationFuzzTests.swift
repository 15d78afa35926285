import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

/// Nothing a script contains may crash RaceLab. Each shipped scenario is mutated
/// many ways (a span deleted, duplicated, or replaced by a token of the language);
/// every mutant must load or be rejected with diagnostics, and every one that loads
/// must run to an end under a bounded step budget. A Swift trap here kills the test
/// process, so the test cannot pass by accident.
struct MutationFuzzTests {
    static let vocabulary = [
        "{", "}", "(", ")", "[", "]", ",", ".", "!", "=", "+=", "==", "&&", "..<", "0", "-1",
        "nil", "\"s\"", "\"\"\"", "let", "var", "func", "class", "thread", "main", "spawn",
        "synchronized", "while", "for", "in", "return", "break", "self", "deinit", "fix x {",
        "remove thread", "schedule", "expect", "@mainThreadOnly", "x", "op", "lock", "\n",
        "main.sync", "main.async", "work(3)", "Lock()", "OperationQueue()", "cancel()",
        "waitUntilFinished()", "removeLast()", "copy()", "[]", "count", "99999999999",
    ]

    @Test(arguments: Shipped.canonical)
    func mutantsNeverCrash(name: String) throws {
        let original = try Shipped.scenario(name).file.text
        let characters = Array(original)
        var random = SplitMix64(seed: 2109)
        var loaded = 0, rejected = 0
        for _ in 0..<200 {
            var text = characters
            let start = random.below(text.count)
            let length = min(text.count - start, 1 + random.below(12))
            switch random.below(3) {
            case 0: text.removeSubrange(start..<start + length)
            case 1: text.insert(contentsOf: text[start..<start + length], at: start)
            default: text.replaceSubrange(start..<start + length, with: Self.vocabulary[random.below(Self.vocabulary.count)])
            }
            let scenario: Scenario
            do throws(ScriptError) {
                scenario = try Scenario.load(name: name, file: SourceFile(name: name + ".race", text: String(text)))
            } catch {
                #expect(!error.diagnostics.isEmpty)
                #expect(!error.rendered.isEmpty)
                rejected += 1
                continue
            }
            loaded += 1
            for version in scenario.versions {
                let runner = Runner(program: version.program, maxSteps: 300, localBudget: 3_000)
                var scheduler = RandomScheduler(seed: UInt64(loaded))
                let run = try runner.run(&scheduler)
                #expect(run.schedule.count <= 300)
            }
        }
        // Both paths must be exercised, or the test proves little.
        #expect(loaded > 10)
        #expect(rejected > 10)
    }
}
