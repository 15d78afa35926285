import RaceLabEngine
import RaceLabLanguage

/// A scenario as one self-contained HTML page: its story; play mode, where the reader
/// picks which thread runs next (buttons, or a thread's number; u undoes, r restarts, h
/// looks ahead) and sees each step's sentence, the shared state and who waits; and, for
/// the broken version and each fix, its verdict and outcomes over every interleaving and
/// its code, each version with its own play mode. The page embeds each version's
/// reachable state graph (each state's display once, and the steps between states), so
/// it needs no engine; past `maxStates` a version keeps the states nearest the start,
/// and the page says so. A link can name a version and carry moves:
/// `page.html#fix=mutex&moves=2,3,u`.
public struct LessonPage {
    public let scenario: Scenario
    /// The version shown first: nil for the broken one, or a fix's name.
    public let selected: String?
    public let maxStates: Int

    public static let defaultMaxStates = 5_000

    public init(scenario: Scenario, selected: String?, maxStates: Int = LessonPage.defaultMaxStates) {
        self.scenario = scenario
        self.selected = selected
        self.maxStates = maxStates
    }

    /// A version in words: "the broken version", "fix 'mutex'", "the broken variant 'x'".
    func label(_ fix: String?) -> String {
        guard let fix else { return "the broken version" }
        return scenario.fix(named: fix)?.variant != nil ? "the broken variant '\(fix)'" : "fix '\(fix)'"
    }

    /// Every version (the broken one, then each fix and variant), each with its graph,
    /// its verdict over every interleaving, its outcomes and its code.
    public func versions() -> (json: JSON, complete: [Bool], states: [Int]) {
        var versions: [JSON] = []
        var complete: [Bool] = []
        var sizes: [Int] = []
        for fix in [nil] + scenario.fixes.map(\.name) {
            guard let program = try? scenario.program(fix: fix) else { continue }
            let (graph, space) = self.graph(program)
            complete.append(space.isComplete)
            sizes.append(space.worlds.count)
            let explorer = Explorer(program: program)
            let result = explorer.exploreChoosing().result
            let verdict: String
            switch result.verdict() {
            case .proven: verdict = "proven: every interleaving passes"
            case .fails, .failsAsExpected: verdict = "fails in \(result.failingInterleavings) of \(result.interleavings) interleavings"
            case .passesUnexpectedly: verdict = "passes in every interleaving, though it is marked to fail"
            case .notExhaustive(let cut): verdict = "not exhaustive (\(cut)): no failure found"
            }
            let outcomes: [JSON] = result.outcomes.map { count in
                .array([
                    .string(count.outcome.state.isEmpty ? "(no shared variables)" : count.outcome.state), .string("\(count.interleavings)"),
                    .bool(count.outcome.isFailure),
                ])
            }
            let info = fix.flatMap { scenario.fix(named: $0) }
            versions.append(
                .object([
                    ("name", fix.map(JSON.string) ?? .null), ("label", .string(label(fix))),
                    ("summary", .string(info.map { $0.variant ?? $0.summary } ?? "")),
                    ("code", .string(ScenarioCode.code(of: scenario, fix: fix))), ("verdict", .string(verdict)),
                    ("outcomes", .array(outcomes)), ("graph", graph),
                ]))
        }
        return (.array(versions), complete, sizes)
    }

    /// The embedded graph, as JSON: every text once in `strings`, and per state its
    /// threads (`[name, status]`), its lines of shared state, its failure if any, and
    /// its steps out as `[thread, target, sentence]`, texts by their number.
    public func graph(_ program: Program) -> (json: JSON, space: StateSpace) {
        let engine = Engine(program: program)
        let space = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: maxStates)
        // Every text once: states refer to them by number.
        var strings: [String] = []
        var numbers: [String: Int] = [:]
        func number(_ text: String) -> JSON {
            if let known = numbers[text] { return .int(known) }
            numbers[text] = strings.count
            strings.append(text)
            return .int(strings.count - 1)
        }
        var states: [JSON] = []
        for (index, world) in space.worlds.enumerated() {
            let formatter = ValueFormatter(world: world)
            var shared: [JSON] = []
            for (g, global) in program.globals.enumerated() where global.isShown {
                shared.append(number("\(global.name) = \(formatter.describe(world.globals[g]))"))
            }
            for id in world.heap.indices {
                if let owner = world.headers[id].owner { shared.append(number("\(world.heap[id].name) is held by \(world.threadNames[owner])")) }
            }
            let threads: [JSON] = world.threads.indices.map { thread in
                let status: String
                if world.threads[thread].isFinished {
                    status = "finished"
                } else if engine.runnableThreads(world).contains(thread) {
                    status = "can run"
                } else {
                    status = engine.waitDescription(world, thread)?.text ?? "cannot run"
                }
                // Where it stands: the line of its next step, as the step screen marks it.
                var at = ""
                if !world.threads[thread].isFinished, let top = world.threads[thread].frames.last {
                    let ranges = program.codes[top.code].ranges
                    if top.pc < ranges.count, let line = ranges[top.pc]?.start.line {
                        at = "line \(line): " + program.file.line(line).trimmingCharacters(in: " \t")
                    }
                }
                return .array([number(world.threadNames[thread]), number(status), number(at)])
            }
            let edges: [JSON] = space.edges[index].map { edge in
                let text = edge.events.map { "\(world.threadNames[edge.thread]) \($0.text)" }.joined(separator: "; ")
                return .array([.int(edge.thread), .int(edge.target), number(text)])
            }
            states.append(
                .object([
                    ("threads", .array(threads)), ("shared", .array(shared)),
                    ("failure", space.failures[index].map(number) ?? .null), ("steps", .array(edges)),
                ]))
        }
        return (.object([("complete", .bool(space.isComplete)), ("strings", .array(strings.map(JSON.string))), ("states", .array(states))]), space)
    }

    public func render() -> String {
        let (versions, complete, sizes) = self.versions()
        let first = [nil] + scenario.fixes.map(\.name)
        let start = first.firstIndex { $0 == selected } ?? 0
        // Nothing in the embedded data can close the script element.
        let data = versions.compact().replacingOccurrences(of: "</", with: "<\\/")
        let note =
            complete.allSatisfy { $0 }
            ? "The page holds every state of every version (\(sizes.reduce(0, +)) in all): every move is here."
            : "Some versions have more states than the page's budget (\(maxStates) a version): for them it holds the states nearest the start, and past them the moves stop. 'racelab explore' sees the rest."
        let story = scenario.story.isEmpty ? "" : "<h2>The story</h2>\n<pre class=\"story\">\(XML.escape(scenario.story))</pre>\n"
        let goal = scenario.challenge.map { "<p class=\"goal\">Goal: \(XML.escape($0))</p>\n" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XML.escape(scenario.name)): \(XML.escape(scenario.title))</title>
            <style>
            :root { color-scheme: light dark; --ink: #1b1f24; --bg: #ffffff; --box: #ddf4ff; --line: #d0d7de; --bad: #cf222e; }
            @media (prefers-color-scheme: dark) { :root { --ink: #e6edf3; --bg: #0d1117; --box: #0c2d6b; --line: #30363d; --bad: #f85149; } }
            body { font: 18px/1.4 system-ui, sans-serif; color: var(--ink); background: var(--bg); margin: 1rem auto; max-width: 70rem; padding: 0 1rem; }
            pre { font: 15px/1.35 Menlo, Consolas, monospace; overflow-x: auto; border: 1px solid var(--line); padding: .6rem; }
            pre.story { white-space: pre-wrap; }
            #lanes { display: flex; flex-wrap: wrap; gap: .6rem; }
            .lane { border: 1px solid var(--line); padding: .5rem; min-width: 12rem; flex: 1; }
            .lane button { font-size: 1rem; width: 100%; padding: .4rem; }
            .lane .status { font-size: .9rem; min-height: 2.6em; }
            .lane .at { font-size: .85rem; white-space: pre-wrap; }
            #log li { margin: .15rem 0; } #failure { color: var(--bad); font-weight: bold; }
            #debrief { border: 2px solid var(--bad); padding: .6rem; }
            #versions button { margin: .15rem; } #outcomes .fail { color: var(--bad); }
            </style>
            </head>
            <body>
            <h1>\(XML.escape(scenario.name)): \(XML.escape(scenario.title))</h1>
            <p>Version: <span id="versions"></span></p>
            <p id="summary"></p>
            \(story)<h2>Be the scheduler</h2>
            \(goal)<p>Press a thread's button, or its number on the keyboard, to run its next step; <kbd>u</kbd> undoes, <kbd>r</kbd> restarts, <kbd>h</kbd> looks ahead.</p>
            <p class="budget">\(XML.escape(note))</p>
            <div id="lanes"></div>
            <p id="status"></p>
            <p><button id="hintButton">Hint (h)</button> <span id="hint"></span></p>
            <p id="failure"></p>
            <div id="debrief" hidden></div>
            <h3>Shared state</h3>
            <ul id="state"></ul>
            <h3>Steps</h3>
            <ol id="log"></ol>
            <h2>Every interleaving</h2>
            <p id="verdict"></p>
            <ul id="outcomes"></ul>
            <h2>The code</h2>
            <pre class="code" id="code"></pre>
            <script id="graph" type="application/json">
            \(data)
            </script>
            <script>
            "use strict";
            const versions = JSON.parse(document.getElementById("graph").textContent);
            // Texts are numbers into each graph's strings: resolve them once.
            for (const v of versions) for (const st of v.graph.states) {
              const S = v.graph.strings;
              st.threads = st.threads.map(t => [S[t[0]], S[t[1]], S[t[2]]]);
              st.shared = st.shared.map(i => S[i]);
              st.failure = st.failure === null ? null : S[st.failure];
              st.steps = st.steps.map(s => [s[0], s[1], S[s[2]]]);
            }
            let version = \(start);
            let graph = versions[version].graph;
            function showVersion(i) {
              version = i; graph = versions[i].graph; path = [0]; sentences = [];
              const v = versions[i];
              const picker = document.getElementById("versions");
              picker.replaceChildren(...versions.map((w, j) => {
                const b = el("button", w.label); b.disabled = j === i; b.dataset.version = w.name || "";
                b.addEventListener("click", () => showVersion(j)); return b;
              }));
              document.getElementById("summary").textContent = v.summary;
              document.getElementById("verdict").textContent = "Explored: " + v.verdict + ".";
              document.getElementById("outcomes").replaceChildren(...v.outcomes.map(o => {
                const li = el("li", (o[2] ? "FAIL " : "ok ") + o[0] + " (" + o[1] + " interleavings)"); if (o[2]) li.className = "fail"; return li;
              }));
              document.getElementById("code").textContent = v.code;
              render();
            }
            var path = [0];
            var sentences = [];
            function el(tag, text) { const e = document.createElement(tag); e.textContent = text; return e; }
            function move(thread) {
              const state = graph.states[path[path.length - 1]];
              const step = state.steps.find(s => s[0] === thread);
              if (!step) { document.getElementById("status").textContent = "That thread cannot run now."; return false; }
              path.push(step[1]); sentences.push(step[2]); render(); return true;
            }
            // The hint: breadth first over the embedded graph to the nearest failing state,
            // as 'racelab step' does over the engine's; with a goal, one rung per press.
            const ladder = \(scenario.challenge == nil ? "false" : "true");
            let rung = 0, rungAt = "";
            function lookAhead(start) {
              if (graph.states[start].failure) return { steps: 0 };
              const first = new Map([[start, -1]]);
              let level = [start], depth = 0;
              while (level.length > 0) {
                depth += 1;
                const next = [];
                for (const s of level) for (const [thread, target] of graph.states[s].steps) {
                  if (first.has(target)) continue;
                  const way = first.get(s) < 0 ? thread : first.get(s);
                  first.set(target, way);
                  if (graph.states[target].failure) return { steps: depth, next: way, what: graph.states[target].failure };
                  next.push(target);
                }
                level = next;
              }
              return { safe: first.size };
            }
            function hint() {
              const here = path[path.length - 1];
              if (rungAt !== path.join(",")) { rungAt = path.join(","); rung = 0; }
              rung = ladder ? Math.min(rung + 1, 3) : 3;
              const a = lookAhead(here), names = graph.states[here].threads.map(t => t[0]);
              let text;
              if (a.safe !== undefined) text = graph.complete ? "nothing can go wrong from here any more: every way on passes (" + a.safe + " states looked at)" : "no failure among the states this page holds (it does not hold them all)";
              else if (a.steps === 0) text = "it has gone wrong already";
              else {
                text = "a failure can still be reached from here";
                if (rung >= 2) text += ": " + a.steps + " more step" + (a.steps === 1 ? "" : "s") + " at the fewest";
                if (rung >= 3) text += " (run " + names[a.next] + " next)";
                text += rung >= 3 ? " — " + a.what : "; press h again for more";
              }
              document.getElementById("hint").textContent = text;
            }
            function undo() { if (path.length > 1) { path.pop(); sentences.pop(); render(); } }
            function restart() { path = [0]; sentences = []; render(); }
            function render() {
              document.getElementById("hint").textContent = "";
              const state = graph.states[path[path.length - 1]];
              const lanes = document.getElementById("lanes");
              lanes.replaceChildren();
              state.threads.forEach((t, i) => {
                const lane = el("div", ""); lane.className = "lane"; lane.dataset.thread = t[0];
                const button = el("button", "[" + (i + 1) + "] " + t[0]);
                button.disabled = !state.steps.some(s => s[0] === i);
                button.addEventListener("click", () => move(i));
                const status = el("div", t[1]); status.className = "status";
                const at = el("code", t[2]); at.className = "at";
                lane.append(button, status, at); lanes.append(lane);
              });
              const list = document.getElementById("state"); list.replaceChildren(...state.shared.map(s => el("li", s)));
              const log = document.getElementById("log"); log.replaceChildren(...sentences.map(s => el("li", s)));
              document.getElementById("failure").textContent = state.failure ? "It went wrong: " + state.failure : "";
              const over = state.steps.length === 0;
              document.getElementById("status").textContent = over ? (state.failure ? "The run is over." : "The run is over, and nothing went wrong.") : "Step " + (path.length) + ": pick a thread.";
              const debrief = document.getElementById("debrief");
              debrief.hidden = !state.failure;
              debrief.textContent = state.failure ? "Goal reached in " + sentences.length + " steps: " + state.failure : "";
            }
            document.addEventListener("keydown", e => {
              if (e.key >= "1" && e.key <= "9") move(Number(e.key) - 1);
              else if (e.key === "u") undo();
              else if (e.key === "r") restart();
              else if (e.key === "h") hint();
            });
            document.getElementById("hintButton").addEventListener("click", hint);
            // A version named by the link (#fix=mutex) is shown first.
            const named = /fix=([A-Za-z0-9_]+)/.exec(location.hash);
            const at = named ? versions.findIndex(v => v.name === named[1]) : -1;
            showVersion(at >= 0 ? at : version);
            // Moves carried by the link: #moves=2,3,u
            const moves = /moves=([0-9urh,]*)/.exec(location.hash);
            if (moves) for (const m of moves[1].split(",")) { if (m === "u") undo(); else if (m === "r") restart(); else if (m === "h") hint(); else if (m) move(Number(m) - 1); }
            </script>
            </body>
            </html>

            """
    }
}
