import Foundation
import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

/// Programs nobody on the team wrote, checked against the textbook's verdicts: the
/// classics of Downey's *Little Book of Semaphores* (a broken version and its
/// fixes) and the levels of The Deadlock Empire, each won by RaceLab's search. The
/// files are the tests: each starts with a `source` line naming the book or the
/// game, and each version says what it must give in a comment of its own,
///
///     // verdict: proven
///     // verdict: fails deadlock in 4 steps
///     // verdict: fails livelock in 7 + 24 steps
///
/// (the kinds of finding as `Finding.Kind` names them, and the counterexample's
/// length, or the livelock's way in and cycle): the base version's outside every
/// fix, each fix's inside it. A version whose search takes more than a few seconds
/// in a debug build says so beside it (`// test: release builds only`), and only a
/// release build runs it: `swift test -c release -Xswiftc -enable-testing --filter
/// TextbookTests` runs every version.
struct TextbookTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("Textbook")

    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".race") }.map { String($0.dropLast(5)) }.sorted()

    /// What a version must give: proven, or fails with these kinds of finding and a
    /// counterexample of this many steps (a livelock's way in, then its cycle).
    struct Expected: Equatable {
        var kinds: [Finding.Kind]
        var steps: [Int]
    }

    /// The comment lines of the version that `fix` names (nil: the base version):
    /// the lines the fix spans, or, for the base, the lines outside every fix.
    static func comments(_ text: String, _ scenario: Scenario, fix: Scenario.Fix?) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let spans = { (fix: Scenario.Fix, line: Int) in fix.range.start.line <= line && line <= fix.range.end.line }
        return lines.indices.filter { index in
            guard let fix else { return !scenario.fixes.contains { spans($0, index + 1) } }
            return spans(fix, index + 1)
        }.map { lines[$0].trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("//") }
    }

    /// What the version's `// verdict:` line says.
    static func expected(_ comments: [String], _ label: String) throws -> Expected {
        let verdicts = comments.filter { $0.hasPrefix("// verdict: ") }
        let line = try #require(verdicts.first, "\(label) has no '// verdict:' line")
        #expect(verdicts.count == 1, "\(label) has one verdict line")
        let words = line.dropFirst("// verdict: ".count).split(separator: " ").map(String.init)
        if words == ["proven"] { return Expected(kinds: [], steps: []) }
        #expect(words.first == "fails", "\(line)")
        let kindNames = Dictionary(uniqueKeysWithValues: Finding.Kind.allCases.map { (String(describing: $0), $0) })
        let split = try #require(words.firstIndex(of: "in"), "\(line): say the counterexample's length")
        let kinds = try words[1..<split].map { try #require(kindNames[$0], "\(line): no kind of finding '\($0)'") }
        let steps = words[(split + 1)...].compactMap { Int($0) }
        #expect(words.last == "steps" && !steps.isEmpty, "\(line)")
        return Expected(kinds: kinds, steps: steps)
    }

    /// The line that keeps a version's search out of debug builds.
    static let releaseOnly = "// test: release builds only"

    static func load(_ name: String) throws -> (text: String, scenario: Scenario) {
        let text = try String(contentsOf: folder.appendingPathComponent(name + ".race"), encoding: .utf8)
        return (text, try Scenario.load(name: name, file: SourceFile(name: name + ".race", text: text)))
    }

    @Test func theCorpusHoldsBothSources() {
        #expect(Self.names.filter { $0.hasPrefix("downey-") }.count == 8)
        // The game's nineteen levels and its three-way Peterson.
        #expect(Self.names.filter { $0.hasPrefix("empire-") }.count == 20)
    }

    @Test(.exhaustive, arguments: names)
    func everyVersionGetsTheTextbookVerdict(name: String) throws {
        let (text, scenario) = try Self.load(name)
        #expect(text.hasPrefix("source \"") && !scenario.source.isEmpty, "\(name) starts by naming its source")
        for version in scenario.versions {
            let fix = version.fix.flatMap(scenario.fix(named:))
            let label = "\(name) \(fix?.name ?? "broken")"
            let comments = Self.comments(text, scenario, fix: fix)
            let expected = try Self.expected(comments, label)
            #if DEBUG
                if comments.contains(where: { $0.hasPrefix(Self.releaseOnly) }) { continue }
            #endif
            let program = version.program
            var config = ExploreConfig.automatic
            config.timeLimit = nil
            let explorer = Explorer(program: program, config: config)
            let result = explorer.explore()
            let role = version.role
            #expect(result.findingKinds == expected.kinds, "\(label): \(String(describing: result.searchReason))")
            if expected.kinds.isEmpty {
                #expect(role == .fix, "\(label): a version meant to fail cannot be proven")
                #expect(result.verdict(as: role) == .proven, "\(label): \(result.cut.map(String.init(describing:)) ?? "")")
                // Every fix hands its data over through its semaphores and locks.
                #expect(result.dataRaces.isEmpty, "\(label): \(result.dataRaces.map(\.target))")
                continue
            }
            #expect(role.shouldFail, "\(label): a fix meant to fail says so (variant or fails)")
            #expect(result.verdict(as: role) == .failsAsExpected, "\(label)")
            if let livelock = result.livelock, expected.kinds == [.livelock] {
                // The cycle comes back to where it began.
                #expect([livelock.prefix.count, livelock.cycle.count] == expected.steps, "\(label)")
                #expect(
                    ScenarioFileTests.position(program, after: livelock.prefix)
                        == ScenarioFileTests.position(program, after: livelock.prefix + livelock.cycle), "\(label)")
                continue
            }
            let example = try #require(explorer.counterexample(for: result), "\(label)")
            #expect([example.schedule.count] == expected.steps, "\(label): \(example.schedule.joined(separator: " "))")
            try Self.expectReplayFails(program, example.schedule.joined(separator: " "), kinds: expected.kinds, label)
        }
        // The game's own solution, where the shortest win takes a way the game has
        // not (a spurious wakeup, a condition read in two steps), wins too.
        for (schedule, steps) in scenario.schedules(fix: nil) where schedule == "win" {
            let kinds = try Self.expected(Self.comments(text, scenario, fix: nil), name).kinds
            try Self.expectReplayFails(scenario.versions[0].program, steps, kinds: kinds, "\(name) win")
        }
    }

    /// Runs `schedule` to its end and expects a failure of one of `kinds` there.
    static func expectReplayFails(_ program: Program, _ schedule: String, kinds: [Finding.Kind], _ label: String) throws {
        var scheduler = try FixedScheduler(schedule, limit: 10_000)
        let replay = try Runner(program: program).run(&scheduler)
        #expect(replay.failed, "\(label): the schedule replays to a failure")
        #expect(scheduler.isExhausted, "\(label): the schedule is followed to its end")
        #expect(replay.findings.allSatisfy { kinds.contains($0.kind) }, "\(label): \(replay.findings.map(\.message))")
    }
}
