import Foundation
import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

@testable import RaceLabPresentation

/// The actor lanes: who holds each actor after each step and who waits in its mailbox,
/// read from the worlds of a run once (`ActorLane`), and drawn by the timeline, the
/// lesson page and step mode's shared state alike.
struct ActorLaneTests {
    /// actor-reentrancy's story: A takes the cache, leaves it for the server; B takes
    /// the cache, then waits in the server's mailbox; A's return hands the server to B.
    static func story() throws -> ReplayedRun {
        let program = try Shipped.scenario("actor-reentrancy").versions[0].program
        var scheduler = try FixedScheduler("A A B B A A A B B B B", limit: 100)
        return ReplayedRun(try Runner(program: program).run(&scheduler))
    }

    @Test func theLanesFollowTheHoldersAndTheMailbox() throws {
        let lanes = ActorLane.lanes(try Self.story())
        #expect(lanes.map(\.name) == ["server", "images"])
        let a: ThreadID = 1, b: ThreadID = 2
        // The server: A's from its second step to B's handover, then B's until it leaves.
        #expect(lanes[0].holds == [.init(holder: a, steps: 1...3), .init(holder: b, steps: 4...7)])
        // The cache: one step at a time, every job of each task a hold of its own.
        #expect(
            lanes[1].holds == [.init(holder: a, steps: 0...0), .init(holder: b, steps: 2...2), .init(holder: a, steps: 4...4), .init(holder: b, steps: 8...8)])
        // B waits in the server's mailbox after its fourth step, and only then.
        #expect(lanes[0].rows.map { $0?.mailbox ?? [] } == [[], [], [], [b], [], [], [], [], [], [], []])
        #expect(lanes[1].rows.allSatisfy { $0?.mailbox == [] })
    }

    @Test func theTimelineDrawsALanePerActor() throws {
        let svg = SVGTimeline(replay: try Self.story(), title: "t").render()
        // Three thread lanes of 250 pixels from x 44, then the actors' of 200 each.
        #expect(svg.contains("width=\"1210\""))
        #expect(svg.contains("top to bottom, then one lane per actor (who holds it after each step, who waits in its mailbox): the picture grows"))
        #expect(svg.contains("<text class=\"ink\" x=\"802\" y=\"62\" font-weight=\"bold\">actor server</text>\n"))
        #expect(svg.contains("<text class=\"ink\" x=\"1002\" y=\"62\" font-weight=\"bold\">actor images</text>\n"))
        // Each thread's swatch gives its holds' colour: A is h1, B h2.
        #expect(svg.contains("<rect class=\"h1\" x=\"302\" y=\"52\" width=\"10\" height=\"10\" rx=\"2\"/><text class=\"ink\" x=\"316\" y=\"62\""))
        // The server's holds: rows 2 to 4 (y 92 to 158), then 5 to 8 (y 158 to 246).
        #expect(
            svg.contains(
                "<rect class=\"h1\" x=\"800\" y=\"93\" width=\"8\" height=\"64\" rx=\"2\"><title>A holds server after steps 2–4</title></rect>\n"
                    + "<rect class=\"h2\" x=\"800\" y=\"159\" width=\"8\" height=\"86\" rx=\"2\"><title>B holds server after steps 5–8</title></rect>\n"))
        #expect(svg.contains("<rect class=\"h2\" x=\"1000\" y=\"247\" width=\"8\" height=\"20\" rx=\"2\"><title>B holds images after step 9</title></rect>\n"))
        // Each hold named on its first row; the mailbox shaded and named on row 4.
        #expect(svg.contains("<text class=\"ink\" x=\"814\" y=\"107\">A</text>\n"))
        #expect(
            svg.contains(
                "<rect class=\"mailbox\" x=\"810\" y=\"136\" width=\"183\" height=\"22\"><title>server: held by A; mailbox: B</title></rect>\n"
                    + "<text class=\"ink\" x=\"814\" y=\"151\">mailbox: B</text>\n"))
        #expect(svg.components(separatedBy: "class=\"mailbox\" x=").count - 1 == 1)
        // B's lane, blocked while A's step hands it the server, says what the task does.
        #expect(svg.contains("<title>task B: enqueued on server</title></rect>"))
    }

    /// A program without actors draws no actor lane and no swatch: as before.
    @Test func noActorsNoLanes() throws {
        let run = try PictureTests.run("var x = 0\nthread A { x = 1 }", "A")
        #expect(ActorLane.lanes(ReplayedRun(run)).isEmpty)
        let svg = SVGTimeline(replay: ReplayedRun(run), title: "t").render()
        #expect(!svg.contains("actor") && !svg.contains("class=\"h0\"") && !svg.contains(".mailbox"))
        #expect(svg.contains("<desc>One lane per thread, one row per step"))
    }

    /// Step mode's shared state and the timeline's footer say the same as the lanes.
    @Test func theSharedStateSaysWhoHoldsAndWhoWaits() throws {
        let replay = try Self.story()
        let lines = SharedState.concurrencyLines(replay.worlds[4], replay.run.program).map(\.text)
        #expect(lines.prefix(2) == ["actor server: held by A; mailbox: B", "actor images: free"])
        #expect(lines.contains("task B: enqueued on server"))
    }

    /// The lesson page holds each state's actors, for lanes beside the threads'; a page
    /// with no actors neither holds them nor draws them.
    @Test func theLessonPageHoldsEachStatesActors() throws {
        let scenario = try Shipped.scenario("actor-reentrancy")
        let page = LessonPage(lesson: Lesson.of(scenario, maxStates: LessonPage.defaultMaxStates, config: .automatic), selected: nil)
        let json = page.versions().compact()
        let versions = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let graph = try #require(versions[0]["graph"] as? [String: Any])
        let strings = try #require(graph["strings"] as? [String])
        let states = try #require(graph["states"] as? [[String: Any]])
        func actors(_ state: Int) throws -> [[String]] {
            try #require(states[state]["actors"] as? [[Int]]).map { $0.map { strings[$0] } }
        }
        #expect(try actors(0) == [["actor server", "free", ""], ["actor images", "free", ""]])
        let path = try LessonPageTests.follow([2, 2, 3, 3], states)
        #expect(try actors(path.last!) == [["actor server", "held by A", "mailbox: B"], ["actor images", "free", ""]])
        #expect(page.render().contains("for (const actor of state.actors || [])"))
        let counter = try Scenario.load(name: "counter", file: SourceFile(name: "counter.race", text: LessonPageTests.counter))
        let plain = LessonPage(lesson: Lesson.of(counter, maxStates: 100, config: .automatic), selected: nil)
        #expect(!plain.versions().compact().contains("\"actors\"") && !plain.render().contains("actor"))
    }

    /// A task whose wait is over (the task it awaits has finished) is ready, not
    /// suspended: its next step resumes it.
    @Test func aTaskWhoseWaitIsOverIsReady() throws {
        let source = """
            task A {
                let t = Task.detached {
                    return 1
                }
                let v = await t.value
            }
            """
        let program = try Scenario.load(name: "ready", file: SourceFile(name: "ready.race", text: source)).versions[0].program
        var scheduler = try FixedScheduler("A A task", limit: 10)
        let replay = ReplayedRun(try Runner(program: program).run(&scheduler))
        let lines = SharedState.concurrencyLines(replay.worlds[2], program).map(\.text)
        #expect(lines.contains("task A: suspended, awaiting task"))
        let after = SharedState.concurrencyLines(replay.worlds[3], program).map(\.text)
        #expect(after.contains("task A: ready: what it was suspended on is there, so its next step resumes it"))
    }
}
