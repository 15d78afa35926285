import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Dictionaries and sets (issue 20, part 6): literals, subscripts, removeValue, keys, values,
/// count, `for (key, value) in`, and the crash of one mutated while enumerated.
struct DictionaryTests {
    @Test func subscriptsKeysAndRemoval() throws {
        let source = """
            var ages = ["bob": 30, "ada": 36]
            var seen: [Int] = []
            thread A {
                ages["cy"] = 7
                ages["bob"] = nil
                let old = ages.removeValue(forKey: "ada")
                seen.append(old!)
                if ages["zed"] == nil { seen.append(ages.count) }
                seen.append(ages.keys.count)
            }
            expect ages == ["cy": 7], "one key is left"
            """
        let run = try RaceLabEngineTests.run(source)
        #expect(
            lines(run) == [
                "A writes ages[\"cy\"] = 7", "A writes ages[\"bob\"] = nil", "A calls ages.removeValue(forKey: \"ada\"): now [\"cy\": 7]",
                "A calls seen.append(36): now [36]", "A reads ages[\"zed\"]: nil", "A reads ages.count: 1", "A calls seen.append(1): now [36, 1]",
                "A reads ages.keys: [\"cy\"]", "A calls seen.append(1): now [36, 1, 1]", "A finishes",
            ])
        #expect(run.world.describe(run.world.globals[0]) == "[\"cy\": 7]")
        #expect(run.findings.isEmpty)
    }

    static let enumerated = """
        var scores: [String: Int] = [:]
        var total = 0
        thread A {
            scores["ada"] = 1
            scores["bob"] = 2
        }
        thread B {
            for (name, score) in scores {
                total += score
            }
        }
        """

    @Test func mutatedWhileEnumeratedCrashes() throws {
        let run = try RaceLabEngineTests.run(Self.enumerated, schedule: "A B A B B B")
        #expect(lines(run)[1] == "B enumerates scores[\"ada\"]: 1")
        #expect(run.findings.map(\.message) == ["collection was mutated while being enumerated: scores changed during B's for-in loop"])
        var counts: [String] = []
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            var config = ExploreConfig()
            config.reduction = reduction
            let result = Explorer(program: try compile(Self.enumerated), config: config).explore()
            counts.append(result.outcomes.map { "\($0.outcome.state) \($0.interleavings)" }.sorted().joined(separator: "; "))
        }
        #expect(counts[0] == counts[1])
        #expect(counts[0].contains("total = 1 3"))
    }

    @Test func misuseIsAFindingOrADiagnostic() throws {
        for (body, message) in [
            ("var d = [\"a\": 1]\nthread A { d[3] = 1 }", "d has String keys, not Int"),
            ("var d = [\"a\": 1, \"a\": 2]", "a dictionary literal has the key string(\"a\") twice"),
            ("var d = [\"a\": 1]\nthread A { d.append(2) }", "d is a dictionary: append belongs to arrays; write d[key] = value or removeValue(forKey:)"),
            ("var d = [\"a\": 1]\nthread A { for x in d { } }", "d is a dictionary: write for (key, value) in d"),
            ("var d = [1, 2]\nthread A { let k = d.keys }", "d is an array: keys belongs to dictionaries"),
            ("var d = [[1]: 2]", "a dictionary key is an Int or a String, not Array"),
        ] {
            let run = try RaceLabEngineTests.run(body)
            #expect(run.findings.map(\.message) == [message], "\(body)")
        }
        let error = #expect(throws: ScriptError.self) { try compile("var d = [\"a\": 1, 2]") }
        #expect(error?.diagnostics.first?.message == "expected ':' and a value after the key")
    }

    static let sets = """
        var seen: Set<Int> = [3, 1, 3]
        var found = false
        var n = 0
        thread A {
            seen.insert(2)
            seen.remove(3)
            found = seen.contains(1)
            for x in seen { n += x }
        }
        thread B { seen.insert(5) }
        expect seen == Set([1, 2, 5]), "three members"
        """

    @Test func setsKeepEachMemberOnceInOrder() throws {
        let run = try RaceLabEngineTests.run(Self.sets, schedule: "A B A A A A")
        #expect(
            Array(lines(run).prefix(7)) == [
                "A calls seen.insert(2): now Set([1, 2, 3])", "B calls seen.insert(5): now Set([1, 2, 3, 5])", "B finishes",
                "A calls seen.remove(3): now Set([1, 2, 5])", "A reads seen.contains(1): true", "A writes found = true",
                "A enumerates a member of seen: 1",
            ])
        var counts: [String] = []
        for reduction in [ExploreConfig.Reduction.dpor, .none] {
            var config = ExploreConfig()
            config.reduction = reduction
            let result = Explorer(program: try compile(Self.sets), config: config).explore()
            counts.append(result.outcomes.map { "\($0.outcome.state) \($0.interleavings)" }.sorted().joined(separator: "; "))
        }
        #expect(counts[0] == counts[1])
        // B's insert during A's loop is the mutation-while-enumerating crash.
        #expect(counts[0].contains("n = 1 3"))
        for (body, message) in [
            ("var s = Set([1])\nthread A { s.insert(\"a\") }", "s holds Ints, not String"),
            ("var s = Set([1])\nthread A { let x = s[0] }", "s is a set: it has no subscript; ask s.contains(x)"),
            ("var s = [1]\nthread A { s.insert(2) }", "s is an array: write insert(x, at: index) (insert(_:) belongs to sets)"),
            ("var s = Set([1])\nthread A { s.append(2) }", "s is a set: it has insert(_:), remove(_:), removeAll() and contains(_:), not append"),
        ] {
            let run = try RaceLabEngineTests.run(body)
            #expect(run.findings.map(\.message) == [message], "\(body)")
        }
    }
}
