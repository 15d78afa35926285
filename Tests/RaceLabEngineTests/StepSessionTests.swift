import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

/// Step mode's model: a run taken one step at a time, with undo.
struct StepSessionTests {
    static let versions: [(String, String?)] = Shipped.canonical.flatMap { name in
        ((try? Shipped.scenario(name))?.versions ?? []).map { (name, $0.fix) }
    }

    /// The message of the refusal `body` throws, if it throws one.
    func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? StepSession.Refusal)?.message
        }
    }

    /// A session that took `schedule`, step by step, from the start.
    func replay(_ program: Program, _ schedule: [ThreadID]) throws -> StepSession {
        var session = StepSession(program: program)
        for thread in schedule { try session.step(thread) }
        return session
    }

    @Test(arguments: 0..<versions.count)
    func undoingNStepsGivesTheStateBeforeThem(version: Int) throws {
        let (name, fix) = Self.versions[version]
        let program = try #require(Shipped.scenario(name).version(fix)).program
        var random = SplitMix64(seed: UInt64(version) + 11)
        var session = StepSession(program: program)
        while !session.isOver && session.schedule.count < 40 {
            try session.step(session.runnable[random.below(session.runnable.count)])
        }
        let full = session.schedule
        #expect(full.count >= 4)
        for n in 1...full.count {
            session.undo()
            let fresh = try replay(program, Array(full.prefix(full.count - n)))
            #expect(session.world == fresh.world, "\(name) \(fix ?? "broken"): undo \(n) of \(full.count)")
            #expect(session.schedule == fresh.schedule)
            #expect(session.steps == fresh.steps)
        }
        let undid = session.undo()
        #expect(!undid)
        #expect(session.world == StepSession(program: program).world)
    }

    @Test func aFinishedRunReportsWhatRunWouldReport() throws {
        let scenario = try Shipped.scenario("singleton-race")
        let program = scenario.versions[0].program
        let story = try Schedule(parsing: scenario.schedules(fix: nil).first { $0.name == "story" }!.steps, limit: 10_000).steps
        var session = StepSession(program: program)
        #expect(session.outcome() == nil)
        for name in story { try session.step(session.world.thread(named: name)!) }
        let outcome = try #require(session.outcome())
        var scheduler = FixedScheduler(names: story)
        let run = try Runner(program: program).run(&scheduler)
        #expect(outcome.findings == run.findings)
        #expect(outcome.expectations == run.expectations)
        #expect(outcome.findings.map(\.kind) == [.expectation])
    }

    @Test func aThreadThatCannotRunSaysWhy() throws {
        let program = try Shipped.scenario("deadlock").versions[0].program
        var session = StepSession(program: program)
        let a = session.world.thread(named: "A")!, b = session.world.thread(named: "B")!
        #expect(refusal { try session.step(0) } == "main can't run now: it is idle: the main queue is empty")
        try session.step(a)
        try session.step(b)
        try session.step(b)
        #expect(refusal { try session.step(b) } == "B can't run now: it holds lock2 and waits for lock1, held by A")
        #expect(refusal { try session.step(7) } == "there is no thread 8")
        try session.step(a)
        #expect(session.isOver)
        #expect(session.outcome()?.end == .deadlocked)

        var finished = StepSession(program: try compile("var x = 0\nthread A { x = 1 }\nthread B { x = 2 }"))
        try finished.step(1)
        #expect(refusal { try finished.step(1) } == "A can't run now: it has finished")
        #expect(finished.defaultChoice == 2)
    }

    @Test func theDefaultChoiceKeepsTheLastThreadGoing() throws {
        let program = try compile("var x = 0\nthread A { x = 1\nx = 2 }\nthread B { x = 3\nx = 4 }")
        var session = StepSession(program: program)
        #expect(session.defaultChoice == 1)
        try session.step(2)
        #expect(session.defaultChoice == 2)
        try session.step(2)
        #expect(session.defaultChoice == 1)
        try session.step(1)
        #expect(session.defaultChoice == 1)
    }

    /// What the step screen shows of a thread comes from the session: the next step
    /// taken on a copy (the session's world does not move), or why it cannot run.
    @Test func aThreadsNextStepIsPreviewedWithoutTakingIt() throws {
        let program = try Shipped.scenario("deadlock").versions[0].program
        var session = StepSession(program: program)
        let a = session.world.thread(named: "A")!, b = session.world.thread(named: "B")!
        let next = try #require(session.preview(a))
        #expect(next.event?.text == "enters synchronized(lock1)" && next.event?.range?.start.line == 17 && next.priority == nil)
        #expect(session.schedule.isEmpty && session.world.stepCount == 0)
        #expect(session.preview(0) == nil)
        #expect(session.wait(0).map { "\($0.text) \($0.blocked)" } == "is idle: the main queue is empty false")
        #expect(session.wait(a) == nil && session.preview(7) == nil && session.wait(7) == nil)
        try session.step(a)
        try session.step(b)
        try session.step(b)
        #expect(session.preview(b) == nil)
        #expect(session.wait(b).map { "\($0.text) \($0.blocked)" } == "holds lock2 and waits for lock1, held by A true")
    }
}
