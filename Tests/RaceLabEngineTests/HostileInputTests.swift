import RaceLabEngine
import RaceLabLanguage
import Testing

/// Inputs written to break the tool: each is a clear diagnostic or a clear runtime
/// finding, never a Swift trap.
struct HostileInputTests {
    /// The findings of a run, as text.
    func findings(_ source: String) throws -> [String] {
        try run(source).findings.map(\.message)
    }

    @Test(arguments: [
        ("var m = -9223372036854775807 - 1\nthread A { let n = -m }", "-(-9223372036854775808)"),
        ("var x = [9223372036854775807, 1]\nthread A { let n = sum(x) }", "sum of 9223372036854775807 and 1"),
        ("var x = 9223372036854775807\nthread A { x = x + 1 }", "9223372036854775807 + 1"),
        ("var x = -9223372036854775807\nthread A { x = x - 2 }", "-9223372036854775807 - 2"),
        ("var x = 4611686018427387904\nthread A { x = x * 2 }", "4611686018427387904 * 2"),
        ("var m = -9223372036854775807 - 1\nthread A { let n = m / -1 }", "-9223372036854775808 / -1"),
        ("var m = -9223372036854775807 - 1\nthread A { let n = m % -1 }", "-9223372036854775808 % -1"),
    ])
    func everyArithmeticOverflowIsTheSameFinding(source: String, expression: String) throws {
        let found = try findings(source)
        #expect(found == ["arithmetic overflow: \(expression) does not fit in an Int"], "\(found)")
    }

    @Test func aClosedRangeEndingAtIntMaxStopsAfterItsLastIteration() throws {
        let result = try run("var last = 0\nthread A { for i in 9223372036854775806...9223372036854775807 { last = i } }")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.end == .completed)
        #expect(lines(result).filter { $0.hasPrefix("A writes last") } == ["A writes last = 9223372036854775806", "A writes last = 9223372036854775807"])
        // An empty closed range and a half-open one still behave.
        #expect(lines(try run("var n = 0\nthread A { for i in 3...2 { n = i } }")).filter { $0.contains("writes n") }.isEmpty)
        #expect(lines(try run("var n = 0\nthread A { for i in 2..<4 { n = i } }")).filter { $0.contains("writes n") } == ["A writes n = 2", "A writes n = 3"])
    }

    @Test func aNameDeclaredTwiceAcrossKindsIsADiagnostic() {
        let error = #expect(throws: ScriptError.self) { try compile("var a = 1\nclass a { deinit { } }\nthread A { a = 2 }") }
        if let error {
            #expect(error.rendered.contains("test.race:2:7: error: 'a' is already declared as a"), "\(error.rendered)")
        }
    }
}

/// Deep nesting is a diagnostic at the construct that passes `Parser.maxNesting`;
/// just under the limit, a script still compiles and runs.
struct NestingLimitTests {
    static let limit = Parser.maxNesting

    /// The diagnostics of a script that must not compile.
    func diagnostics(_ source: String) -> [Diagnostic] {
        do {
            _ = try compile(source)
            return []
        } catch let error as ScriptError {
            return error.diagnostics
        } catch {
            return []
        }
    }

    static func flat(_ terms: Int) -> String { "var x = " + Array(repeating: "1", count: terms).joined(separator: " + ") + "\nthread A { x = x + 1 }" }
    static func parens(_ depth: Int) -> String {
        "var x = " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth) + "\nthread A { x = 2 }"
    }
    static func whiles(_ depth: Int) -> String {
        "var x = 0\nthread A {\n" + String(repeating: "while x < 1 {\n", count: depth) + "x = 1\n" + String(repeating: "}\n", count: depth) + "}"
    }
    static func closures(_ depth: Int) -> String {
        "thread A {\n let f = " + String(repeating: "{ ", count: depth) + String(repeating: "}", count: depth) + "\n}"
    }
    static func elseIfs(_ count: Int) -> String {
        "var x = 0\nthread A {\n if x == 0 { x = 1 }" + String(repeating: " else if x == 1 { x = 2 }", count: count) + "\n}"
    }
    static func members(_ count: Int) -> String {
        "var x = [1]\nthread A { let n = x" + String(repeating: ".count", count: 1) + String(repeating: "!", count: count) + " }"
    }
    static func negations(_ count: Int) -> String { "var b = true\nthread A { b = " + String(repeating: "!", count: count) + "b }" }
    static func coalescing(_ count: Int) -> String { "var x: Int? = nil\nthread A { let n = x" + String(repeating: " ?? x", count: count) + " ?? 1 }" }

    @Test(arguments: [
        ("flat 3,000-term sum", flat(3_000), 1, 1_031),
        ("1,900 parentheses", parens(1_900), 1, 265),
        ("950 nested whiles", whiles(950), 258, 7),
        ("1,000 nested closures", closures(1_000), 2, 264),
        ("1,100 else-ifs", elseIfs(1_100), 3, 6_364),
        ("10,000 force unwraps", members(10_000), 2, 281),
        ("10,000 negations", negations(10_000), 2, 271),
        ("3,000 ?? operators", coalescing(3_000), 2, 1_295),
    ])
    func tooDeepIsADiagnosticAtTheConstructThatPassesTheLimit(name: String, source: String, line: Int, column: Int) {
        let found = diagnostics(source)
        #expect(!found.isEmpty, "\(name) must not compile")
        #expect(found.first?.message.hasPrefix("this nests more than 256 levels deep") == true, "\(name): \(found.first?.message ?? "none")")
        #expect(found.first?.range.start == SourceLocation(line: line, column: column), "\(name)")
    }

    @Test func justUnderTheLimitCompilesAndRuns() throws {
        // Closures may only be handed to spawn and queues, so 120 nested ones parse (each
        // counts two levels: the closure and the expression statement inside it).
        _ = try Parser.parse(SourceFile(name: "t.race", text: Self.closures(120)))
        for source in [Self.flat(200), Self.parens(200), Self.whiles(200), Self.elseIfs(200), Self.negations(200), Self.coalescing(200)] {
            let result = try run(source)
            #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        }
        #expect(lines(try run(Self.flat(200))).contains("A writes x = 201"))
    }
}

/// Costs that must stay linear: a long chain of objects, many threads, many objects.
struct LinearCostTests {
    @Test func droppingA20000NodeListDeallocatesIterativelyInOrder() throws {
        let source = """
            class Node { var next: Node? = nil }
            var head: Node? = nil
            thread A {
                for i in 0..<20000 { let n = Node(); n.next = head; head = n }
                head = nil
            }
            expect alive(Node) == 0, "every node is freed"
            """
        let program = try compile(source)
        var scheduler = RoundRobinScheduler()
        let result = try Runner(program: program, maxSteps: 200_000).run(&scheduler)
        #expect(result.end == .completed)
        #expect(result.findings.isEmpty)
        let freed = result.events.filter { $0.text.contains("deallocated") }.map(\.text)
        #expect(freed.count == 20_000)
        #expect(freed.first == "releases the last reference to Node#20000, which is deallocated")
        #expect(freed.last == "releases the last reference to Node#1, which is deallocated")
    }

    @Test func spawnedThreadsAreNamedInOrder() throws {
        let result = try run("var n = 0\nthread W { }\nthread A { for i in 0..<300 { spawn W { n += 1 } } }")
        #expect(result.world.threadNames.count == 303)
        #expect(Array(result.world.threadNames.prefix(5)) == ["main", "W", "A", "W#2", "W#3"])
        #expect(result.world.threadNames.last == "W#301")
    }
}

/// Long and nested values are shortened where they are shown, and strings escape
/// their control characters, so a trace's size stays linear in its steps.
struct ValueElisionTests {
    let world = World()

    @Test func longArraysShowTheirEndsAndHowManyAreLeftOut() {
        let items = (1...1000).map(Value.int)
        #expect(world.describe(.array(ArrayValue(items))) == "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, … 986 more …, 999, 1000]")
        #expect(world.describe(.array(ArrayValue(Array(items.prefix(16))))) == "[" + (1...16).map(String.init).joined(separator: ", ") + "]")
        #expect(world.describe(.array([])) == "[]")
    }

    @Test func deeplyNestedArraysStopAtTheDepthLimit() {
        var value = Value.int(1)
        for _ in 0..<10_000 { value = .array(ArrayValue([value])) }
        #expect(world.describe(value) == "[[[[[[[[[…]]]]]]]]]")
    }

    @Test func stringsEscapeControlCharactersAndShortenTheMiddle() {
        #expect(world.describe(.string("a\u{1B}[2Jb\n\t\"\\\r\u{07}")) == #""a\u{1B}[2Jb\n\t\"\\\r\u{7}""#)
        let long = String(repeating: "ab", count: 100)
        #expect(world.describe(.string(long)) == "\"" + String(long.prefix(60)) + "…" + String(long.suffix(10)) + "\" (200 characters)")
    }

    @Test func aLoopThatAppendsToASharedArrayPrintsShortSteps() throws {
        let result = try run("var a = [0]\nthread A { while true { a.append(1) } }")
        #expect(result.end == .stepLimit)
        #expect(result.events.count == 10_000)
        #expect(result.events.allSatisfy { $0.text.count < 120 })
        #expect(result.events.last?.text == "calls a.append(1): now [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, … 9987 more …, 1, 1]")
    }

    /// Found by the fuzzer: `work(0)` shows nothing, and a step ran until it showed something.
    @Test func aLoopOfInvisibleWorkIsStoppedAsARunawayLoop() throws {
        let result = try run("thread A {\n while true { work(0) }\n}")
        #expect(result.findings.map(\.message) == ["A looped 100000 instructions without a visible step (line 2); is a loop missing its exit?"])
    }

    @Test func aLoopThatAppendsToALocalArrayIsStoppedAsARunawayLoop() throws {
        let result = try run("thread A {\n var a = [0]\n while true { a.append(1) }\n}")
        #expect(result.findings.map(\.message) == ["A looped 100000 instructions without a visible step (line 3); is a loop missing its exit?"])
    }
}

/// Values that double every step are stopped by the memory budget, at the step that
/// builds a value past it, with one clear finding.
struct MemoryBudgetTests {
    @Test(arguments: [
        ("var s = \"ab\"\nthread A { while true { s = s + s } }", "a value of 1048577"),
        ("var a = [1]\nthread A { while true { a = a + a } }", "a value of 1048577"),
        ("var a = [1]\nthread A { while true { a = [a, a] } }", "a value of 1572863"),
        ("var a = [1]\nthread A { while true { a.append(a) } }", "a value of 1048576"),
        ("var s = \"x\"\nthread A { while true { s = s + s + s } }", "a value of 1062883"),
    ])
    func doublingStopsAtTheBudget(source: String, size: String) throws {
        let result = try run(source)
        #expect(result.end == .crashed)
        #expect(
            result.findings.map(\.message) == [
                "memory budget: \(size) (elements and characters, nested ones too); a value may hold 1000000, a world 20000000: does a value double every step?"
            ])
    }

    @Test func manyHeavyValuesStopAtTheWorldBudget() throws {
        let source = """
            class Box { var s = "" }
            var keep: [Box] = []
            var big = "x"
            thread A {
                for i in 0..<19 { big = big + big }
                while true { let b = Box(); b.s = big + "y"; keep.append(b) }
            }
            """
        let result = try run(source)
        #expect(result.findings.first?.message.hasPrefix("memory budget: the world would hold ") == true, "\(result.findings.map(\.message))")
    }

    @Test func weightsAreKeptAsArraysChange() {
        var items: ArrayValue = [.int(1), .string("abc")]
        #expect(items.weight == 6)
        items.append(.array([.int(1), .int(2)]))
        #expect(items.weight == 9)
        items.replace(at: 0, with: .string("xy"))
        #expect(items.weight == 11)
        items.removeFirst()
        #expect(items.weight == 8)
        #expect((items + items).weight == 15)
        #expect(ArrayValue(items.items).weight == items.weight)
        items.removeAll()
        #expect(items.weight == 1)
    }
}
