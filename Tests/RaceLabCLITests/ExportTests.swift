import Foundation
import RaceLabCLI
import RaceLabEngine
import RaceLabLanguage
import RaceLabTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `racelab export` (issue 21, parts 1 and 2): every shipped scenario's story as SVG,
/// Mermaid and (when it deadlocks) DOT, each checked for structure; and the wrong
/// requests, each with its message and exit code.
struct ExportTests {
    let racelab = RaceLab(environment: [:])

    /// The elements of an SVG, by name, or nil if it is not well-formed XML.
    static func elements(_ svg: String) -> [String: Int]? {
        final class Counter: NSObject, XMLParserDelegate {
            var counts: [String: Int] = [:]
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                counts[name, default: 0] += 1
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = Counter()
        parser.delegate = counter
        return parser.parse() ? counter.counts : nil
    }

    @Test(arguments: Shipped.scenarioNames)
    func everyStoryDrawsAsSVGAndMermaid(name: String) throws {
        let svg = racelab.main(["export", name, "--format", "svg"])
        #expect(svg.exitCode == 0, "\(svg.stderr)")
        let counts = try #require(Self.elements(svg.stdout), "\(name): the SVG is well-formed XML")
        // One box per step: of the story's whole run, or of the story alone for a
        // program that never ends.
        let scenario = try Shipped.scenario(name)
        let story = try #require(scenario.schedules(fix: nil).first { $0.name == "story" })
        var steps = try Schedule(parsing: story.steps, limit: 10_000).steps.count
        let run = racelab.main(["run", name, "--schedule", "story"]).stdout
        if !run.contains("The run stopped at the step limit") {
            steps = try #require(
                run.range(of: #"The run [a-z ]+ after \d+ step"#, options: .regularExpression).map { Int(run[$0].split(separator: " ").dropLast().last!)! })
        }
        #expect(counts["g"] == steps && counts["svg"] == 1, "\(name)")
        #expect(svg.stdout.contains("One lane per thread, one row per step"), "\(name)")
        let mermaid = racelab.main(["export", name, "--format", "mermaid"]).stdout
        let lines = mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "sequenceDiagram", "\(name)")
        for line in lines.dropFirst() {
            let ok =
                line.hasPrefix("    title ") || line.hasPrefix("    participant ") || line.hasPrefix("    Note over t")
                || line.range(of: #"^    t\d+->>s\d+: \d+\. "#, options: .regularExpression) != nil
            #expect(ok, "\(name): \(line)")
            #expect(!line.contains(";") || line.contains("#59;") || line.contains("#35;") || line.contains("#58;"), "\(name): \(line)")
        }
    }

    @Test func theDeadlockGraphHasItsCycleInRed() throws {
        let dot = racelab.main(["export", "deadlock", "--format", "dot"]).stdout
        #expect(dot.hasPrefix("digraph waitfor {"))
        #expect(dot.components(separatedBy: "penwidth=2").count - 1 == 4)
        #expect(dot.contains("t1 -> l1 [label=\"waits for\""))
        #expect(dot.contains("l1 -> t2 [label=\"held by\""))
    }

    @Test func wrongRequestsSayWhyWithTheirExitCodes() throws {
        let noDeadlock = racelab.main(["export", "deadlock", "--fix", "mutex", "--format", "dot"])
        #expect(noDeadlock.exitCode == 65)
        #expect(
            noDeadlock.stderr.contains(
                "does not deadlock (it completed) and takes no two locks in opposite orders: a DOT graph needs a deadlock or a lock-order inversion"))
        // A run that takes the locks in opposite orders but does not deadlock: its lock order.
        let inversion = racelab.main(["export", "deadlock", "--schedule", "A*6 B*6", "--format", "dot"])
        #expect(inversion.exitCode == 0 && inversion.stdout.hasPrefix("digraph lockorder {"))
        let proven = racelab.main(["export", "singleton-race", "--fix", "mutex", "--counterexample"])
        #expect(proven.exitCode == 65 && proven.stderr == "error: no failing run to draw: every interleaving passes\n")
        let unwritable = racelab.main(["export", "deadlock", "-o", "/no/such/folder/x.svg"])
        #expect(unwritable.exitCode == 73 && unwritable.stderr.hasPrefix("error: cannot create /no/such/folder/x.svg"))
        #expect(racelab.main(["export", "deadlock", "--format", "png"]).exitCode == 64)
        #expect(racelab.main(["export", "deadlock", "--story", "--counterexample"]).exitCode == 64)
        #expect(racelab.main(["export", "deadlock", "--schedule", "A A Q"]).exitCode == 64)
        // The page's budget: a whole number in range, and only for the page.
        for budget in ["0", "200001", "many", "-5"] {
            let wrong = racelab.main(["export", "deadlock", "--format", "html", "--max-states", budget])
            #expect(wrong.exitCode == 64 && wrong.stderr.contains("--max-states takes a whole number from 1 to 200000, not '\(budget)'"))
        }
        #expect(racelab.main(["export", "deadlock", "--format", "svg", "--max-states", "10"]).stderr.contains("it goes with --format html"))
        let small = racelab.main(["export", "deadlock", "--format", "html", "--max-states", "3"])
        #expect(small.exitCode == 0 && small.stdout.contains("budget (3 a version)"))
        // A student gets no picture of a break-it exercise's answer.
        let guarded = racelab.main(["export", "singleton-break", "--counterexample"])
        #expect(guarded.exitCode == 64 && guarded.stderr.contains("would show its answer"))
    }

    /// The lesson page embeds the state graph: every state once, every step between
    /// states, and the sentence of each step as `run` prints it.
    @Test func theLessonPageEmbedsTheStateGraph() throws {
        let output = racelab.main(["export", "singleton-race", "--format", "html"])
        #expect(output.exitCode == 0)
        let html = output.stdout
        let start = try #require(html.range(of: "<script id=\"graph\" type=\"application/json\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = Data(html[start.upperBound..<end.lowerBound].utf8)
        let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(page["run"] as? String == "racelab run singleton-race" && page["ladder"] as? Bool == true && page["start"] as? Int == 0)
        let versions = try #require(page["versions"] as? [[String: Any]])
        // The broken version and each fix, with its verdict.
        #expect(versions.map { $0["label"] as? String } == ["the broken version", "fix 'mutex'", "fix 'confinement'", "fix 'operations'"])
        #expect(
            versions.map { $0["verdict"] as? String } == [
                "fails in 210 of 230 interleavings", "proven: every interleaving passes", "proven: every interleaving passes",
                "proven: every interleaving passes",
            ])
        let graph = try #require(versions[0]["graph"] as? [String: Any])
        let states = try #require(graph["states"] as? [[String: Any]])
        let strings = try #require(graph["strings"] as? [String])
        #expect(graph["complete"] as? Bool == true && states.count == 115)
        #expect(html.contains("The page holds every state of every version"))
        // The story's first two steps, followed through the graph, say what run says.
        var state = 0
        var sentences: [String] = []
        for thread in [1, 2] {
            let steps = try #require(states[state]["steps"] as? [[Any]])
            let step = try #require(steps.first { $0[0] as? Int == thread })
            sentences.append(strings[step[2] as! Int])
            state = step[1] as! Int
        }
        let run = racelab.main(["run", "singleton-race", "--schedule", "A B"]).stdout
        for sentence in sentences { #expect(run.contains(sentence.dropFirst(2)), "\(sentence)") }
        #expect(sentences == ["A reads singleton: nil", "B reads singleton: nil"])
        // A student's break-it exercise: the page would hold the answer.
        let guarded = racelab.main(["export", "singleton-break", "--format", "html"])
        #expect(guarded.exitCode == 64 && guarded.stderr.contains("would show its answer"))
    }

    @Test func theSameRequestDrawsTheSameBytes() {
        for format in ["svg", "mermaid", "dot", "html"] {
            #expect(racelab.main(["export", "deadlock", "--format", format]).stdout == racelab.main(["export", "deadlock", "--format", format]).stdout)
        }
    }
}
