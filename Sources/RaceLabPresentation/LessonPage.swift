import RaceLabEngine
import RaceLabLanguage

/// A scenario as one self-contained HTML page: its story and source; play mode, where
/// the reader picks which thread runs next (buttons, or a thread's number; u undoes, r
/// restarts, h looks ahead as step mode does) and sees each thread's code with its next
/// line marked, each step's sentence, the shared state as step mode shows it, and a
/// debrief when the goal is reached (a failure, or a livelock's loop gone round); the
/// story and the shortest failing run to watch; and, for the broken version and each
/// fix, its verdict and outcomes over every interleaving and its code, each version
/// with its own play mode. The page embeds each version's reachable state graph (each
/// state's display once, and the steps between states), so it needs no engine; past
/// `maxStates` a version keeps the states of the runs to watch and those nearest the
/// start and them, and the page says so. A link can name a version and carry moves:
/// `page.html#fix=mutex&moves=2,3,u`.
public struct LessonPage {
    public let scenario: Scenario
    /// The version shown first: nil for the broken one, or a fix's name.
    public let selected: String?
    public let maxStates: Int
    /// How the reader names the scenario to `racelab run` (its name, or its file's path).
    public let argument: String

    public static let defaultMaxStates = 5_000

    public init(scenario: Scenario, selected: String?, maxStates: Int = LessonPage.defaultMaxStates, argument: String? = nil) {
        self.scenario = scenario
        self.selected = selected
        self.maxStates = maxStates
        self.argument = argument ?? scenario.name
    }

    /// The challenge, as step mode states it.
    var goal: String { scenario.challenge ?? "make the run go wrong: break a check, crash it, or deadlock it" }

    /// A version in words: "the broken version", "fix 'mutex'", "the broken variant 'x'".
    func label(_ fix: String?) -> String {
        guard let fix else { return "the broken version" }
        return scenario.fix(named: fix)?.variant != nil ? "the broken variant '\(fix)'" : "fix '\(fix)'"
    }

    /// Every version (the broken one, then each fix and variant), each with its graph,
    /// its verdict over every interleaving, its outcomes, its code, and the runs the
    /// reader can watch (its story, a counterexample) as moves.
    public func versions() -> (json: JSON, complete: [Bool], states: [Int]) {
        var versions: [JSON] = []
        var complete: [Bool] = []
        var sizes: [Int] = []
        for fix in [nil] + scenario.fixes.map(\.name) {
            guard let program = try? scenario.program(fix: fix) else { continue }
            let explorer = Explorer(program: program)
            let result = explorer.exploreChoosing().result
            let verdict: String
            switch result.verdict() {
            case .proven: verdict = "proven: every interleaving passes"
            case .fails, .failsAsExpected: verdict = "fails in \(result.failingInterleavings) of \(result.interleavings) interleavings"
            case .passesUnexpectedly: verdict = "passes in every interleaving, though it is marked to fail"
            case .notExhaustive(let cut): verdict = "not exhaustive (\(cut)): no failure found"
            }
            // The runs worth watching, kept whole however many states the version has.
            var runs: [(label: String, schedule: [String])] = []
            if let story = scenario.schedules(fix: fix).first(where: { $0.name == "story" }),
                let steps = try? Schedule(parsing: story.steps, limit: 10_000).steps
            {
                runs.append(("the story", steps))
            }
            if result.failingExecutions > 0, let example = explorer.counterexample(for: result) {
                runs.append(("the shortest failing run", example.schedule))
            }
            let (graph, space) = self.graph(program, keeping: runs.map(\.schedule))
            complete.append(space.isComplete)
            sizes.append(space.worlds.count)
            let outcomes: [JSON] = result.outcomes.map { count in
                .array([
                    .string(count.outcome.state.isEmpty ? "(no shared variables)" : count.outcome.state), .string("\(count.interleavings)"),
                    .bool(count.outcome.isFailure),
                ])
            }
            // A run the version cannot follow to its end or its failure (a story
            // written for another version) is not offered.
            let watch: [JSON] = runs.compactMap { run in
                let moves = Self.moves(run.schedule, in: space)
                guard moves.count == run.schedule.count || space.failures[Self.state(after: moves, in: space)] != nil else { return nil }
                return .array([.string(run.label), .array(moves.map { .int($0 + 1) })])
            }
            let info = fix.flatMap { scenario.fix(named: $0) }
            versions.append(
                .object([
                    ("name", fix.map(JSON.string) ?? .null), ("label", .string(label(fix))),
                    ("summary", .string(info.map { $0.variant ?? $0.summary } ?? "")),
                    ("code", .string(ScenarioCode.code(of: scenario, fix: fix))), ("verdict", .string(verdict)),
                    ("proven", .bool(result.verdict() == .proven)), ("outcomes", .array(outcomes)), ("watch", .array(watch)),
                    ("graph", graph),
                ]))
        }
        return (.array(versions), complete, sizes)
    }

    /// A schedule of thread names as the threads' numbers in the space, from the start
    /// as far as the space has its steps.
    static func moves(_ schedule: [String], in space: StateSpace) -> [ThreadID] {
        var state = 0
        var moves: [ThreadID] = []
        for name in schedule {
            guard let thread = space.worlds[state].thread(named: name),
                let edge = space.edges[state].first(where: { $0.thread == thread })
            else { break }
            moves.append(thread)
            state = edge.target
        }
        return moves
    }

    /// The state a run of moves from the start reaches.
    static func state(after moves: [ThreadID], in space: StateSpace) -> Int {
        moves.reduce(0) { state, thread in space.edges[state].first { $0.thread == thread }?.target ?? state }
    }

    /// The embedded graph, as JSON: every text once in `strings`; the code each thread
    /// can stand in (`codes`: its name, first line and lines); per state its threads
    /// (`[name, status, code, line]`, code -1 when finished), its lines of shared state,
    /// its failure (`[text, why]`) if any, its steps out as `[thread, target, sentence]`
    /// (a fourth element, true, for a step that runs `progress`), `cut` when the budget
    /// left some of its steps out, and `loop` (`[thread, length]`) when a livelock's
    /// loop runs from it; texts by their number.
    public func graph(_ program: Program, keeping runs: [[String]] = []) -> (json: JSON, space: StateSpace) {
        let engine = Engine(program: program)
        let space = StateSpace.explore(engine, from: engine.initialWorld(), maxStates: maxStates, keeping: runs)
        // Every text once: states refer to them by number.
        var strings: [String] = []
        var numbers: [String: Int] = [:]
        func number(_ text: String) -> JSON {
            if let known = numbers[text] { return .int(known) }
            numbers[text] = strings.count
            strings.append(text)
            return .int(strings.count - 1)
        }
        // Each code a thread stands in, once: its name, and its lines.
        var codes: [JSON] = []
        var codeNumbers: [Int: Int] = [:]
        func codeNumber(_ code: Int) -> Int {
            if let known = codeNumbers[code] { return known }
            let lines = program.codes[code].ranges.compactMap { $0?.start.line }
            let first = lines.min() ?? 0
            let last = lines.max() ?? -1
            let texts: [JSON] = first <= last ? (first...last).map { number(program.file.line($0)) } : []
            codeNumbers[code] = codes.count
            codes.append(.array([number(program.codes[code].name), .int(first), .array(texts)]))
            return codes.count - 1
        }
        var states: [JSON] = []
        for (index, world) in space.worlds.enumerated() {
            // As step mode shows it, a variable a line.
            let shared: [JSON] = SharedState.lines(world, program).flatMap { $0.label.isEmpty ? $0.items : [$0.text] }.map(number)
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
                var code = -1
                var line = 0
                if !world.threads[thread].isFinished, let top = world.threads[thread].frames.last {
                    code = codeNumber(top.code)
                    let ranges = program.codes[top.code].ranges
                    if top.pc < ranges.count, let at = ranges[top.pc]?.start.line { line = at }
                }
                return .array([number(world.threadNames[thread]), number(status), .int(code), .int(line)])
            }
            let edges: [JSON] = space.edges[index].map { edge in
                let text = edge.events.map { "\(world.threadNames[edge.thread]) \($0.text)" }.joined(separator: "; ")
                // A step that runs a `progress` statement says so: a loop through it is no livelock.
                return .array([.int(edge.thread), .int(edge.target), number(text)] + (edge.progressed ? [.bool(true)] : []))
            }
            let failure: JSON =
                space.failures[index].map { failure in
                    .array([number(failure.text), number(FindingExplainer.explanation(failure.kind, message: failure.text))])
                } ?? .null
            var fields: [(String, JSON)] = [("threads", .array(threads)), ("shared", .array(shared)), ("failure", failure), ("steps", .array(edges))]
            // Past the budget: this state has steps the page does not hold.
            if space.cut[index] { fields.append(("cut", .bool(true))) }
            // A livelock from here: the thread that goes round the loop first, and its steps.
            if let loop = space.loops[index] { fields.append(("loop", .array([.int(loop.next), .int(loop.length)]))) }
            states.append(.object(fields))
        }
        return (
            .object([
                ("complete", .bool(space.isComplete)), ("strings", .array(strings.map(JSON.string))), ("codes", .array(codes)),
                ("states", .array(states)),
            ]), space
        )
    }

    public func render() -> String {
        let (versions, complete, sizes) = self.versions()
        let first = [nil] + scenario.fixes.map(\.name)
        let start = first.firstIndex { $0 == selected } ?? 0
        let header = JSON.object([
            ("run", .string(ReplayCommand(argument).text)), ("step", .string(ReplayCommand(argument, verb: "step").text)),
            ("ladder", .bool(scenario.challenge != nil)),
            ("start", .int(start)), ("versions", versions),
        ])
        // Nothing in the embedded data can close the script element.
        let data = header.compact().replacingOccurrences(of: "</", with: "<\\/")
        let note =
            complete.allSatisfy { $0 }
            ? "The page holds every state of every version (\(sizes.reduce(0, +)) in all): every move is here."
            : "Some versions have more states than the page's budget (\(maxStates) a version): for them it holds the states nearest the start and those of the runs you can watch, and past them the moves stop. 'racelab explore' sees the rest."
        var story = scenario.story.isEmpty ? "" : "<h2>The story</h2>\n<pre class=\"story\">\(XML.escape(scenario.story))</pre>\n"
        if !scenario.source.isEmpty { story += "<p class=\"source\">Source: \(XML.escape(scenario.source))</p>\n" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XML.escape(scenario.name)): \(XML.escape(scenario.title))</title>
            <style>
            :root { color-scheme: light dark; --ink: #1b1f24; --bg: #ffffff; --box: #ddf4ff; --line: #d0d7de; --bad: #cf222e; --good: #1a7f37; }
            @media (prefers-color-scheme: dark) { :root { --ink: #e6edf3; --bg: #0d1117; --box: #0c2d6b; --line: #30363d; --bad: #f85149; --good: #3fb950; } }
            body { font: 18px/1.4 system-ui, sans-serif; color: var(--ink); background: var(--bg); margin: 1rem auto; max-width: 80rem; padding: 0 1rem; }
            pre { font: 15px/1.35 Menlo, Consolas, monospace; overflow-x: auto; border: 1px solid var(--line); padding: .6rem; }
            pre.story { white-space: pre-wrap; }
            #lanes { display: flex; flex-wrap: wrap; gap: .6rem; }
            .lane { border: 1px solid var(--line); padding: .5rem; min-width: 14rem; flex: 1; }
            .lane button { font-size: 1rem; width: 100%; padding: .4rem; }
            .lane .status { font-size: .9rem; min-height: 2.6em; }
            .lane .in { font-size: .85rem; margin-top: .3rem; }
            .lane pre { font-size: 13px; margin: .2rem 0 0; padding: .3rem; }
            .lane pre span { display: block; white-space: pre; }
            .lane pre .now { background: var(--box); font-weight: bold; }
            #log li { margin: .15rem 0; } #failure { color: var(--bad); font-weight: bold; }
            #debrief { border: 2px solid var(--bad); padding: .6rem; } #debrief.safe { border-color: var(--good); }
            #versions button, #watch button { margin: .15rem; } #outcomes .fail { color: var(--bad); }
            </style>
            </head>
            <body>
            <h1>\(XML.escape(scenario.name)): \(XML.escape(scenario.title))</h1>
            <p>Version: <span id="versions"></span></p>
            <p id="summary"></p>
            \(story)<h2>Be the scheduler</h2>
            <p class="goal">Goal: \(XML.escape(goal))</p>
            <p>Press a thread's button, or its number on the keyboard, to run its next step; <kbd>u</kbd> undoes, <kbd>r</kbd> restarts, <kbd>h</kbd> looks ahead.</p>
            <p class="budget">\(XML.escape(note))</p>
            <p id="watch"></p>
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
            const page = JSON.parse(document.getElementById("graph").textContent);
            const versions = page.versions;
            // Texts are numbers into each graph's strings: resolve them once.
            for (const v of versions) {
              const S = v.graph.strings;
              v.graph.codes = v.graph.codes.map(c => [S[c[0]], c[1], c[2].map(i => S[i])]);
              for (const st of v.graph.states) {
                st.threads = st.threads.map(t => [S[t[0]], S[t[1]], t[2], t[3]]);
                st.shared = st.shared.map(i => S[i]);
                st.failure = st.failure === null ? null : [S[st.failure[0]], S[st.failure[1]]];
                st.steps = st.steps.map(s => [s[0], s[1], S[s[2]], s.length > 3]);
              }
            }
            let version = page.start;
            let graph = versions[version].graph;
            // The run so far: the states visited, the thread picked at each, its sentence.
            var path = [0], picks = [], sentences = [], progress = [];
            function el(tag, text) { const e = document.createElement(tag); e.textContent = text; return e; }
            function showVersion(i) {
              version = i; graph = versions[i].graph; path = [0]; picks = []; sentences = []; progress = [];
              const v = versions[i];
              const picker = document.getElementById("versions");
              picker.replaceChildren(...versions.map((w, j) => {
                const b = el("button", w.label); b.disabled = j === i; b.dataset.version = w.name || "";
                b.addEventListener("click", () => showVersion(j)); return b;
              }));
              document.getElementById("watch").replaceChildren(...(v.watch.length ? [el("span", "Watch: ")] : []), ...v.watch.map(w => {
                const b = el("button", w[0] + " (" + w[1].length + (w[1].length === 1 ? " step)" : " steps)"));
                b.addEventListener("click", () => { restart(); for (const m of w[1]) move(m - 1); }); return b;
              }));
              document.getElementById("summary").textContent = v.summary;
              document.getElementById("verdict").textContent = "Explored: " + v.verdict + ".";
              document.getElementById("outcomes").replaceChildren(...v.outcomes.map(o => {
                const li = el("li", (o[2] ? "FAIL " : "ok ") + o[0] + " (" + o[1] + " interleavings)"); if (o[2]) li.className = "fail"; return li;
              }));
              document.getElementById("code").textContent = v.code;
              render();
            }
            function move(thread) {
              const state = graph.states[path[path.length - 1]];
              const step = state.steps.find(s => s[0] === thread);
              if (!step) {
                document.getElementById("status").textContent = state.steps.length || state.cut ? "That thread cannot run now." : "The run is over: u undoes a step, r restarts.";
                return false;
              }
              path.push(step[1]); picks.push(thread); sentences.push(step[2]); progress.push(step[3]); render(); return true;
            }
            // The hint: breadth first over the embedded graph to the nearest failing state,
            // as 'racelab step' does over the engine's; with a goal, one rung per press.
            let rung = 0, rungAt = "";
            // Breadth first from a state to the nearest one `target` accepts: how far,
            // and the thread that leads there (for 0 steps, `here` names it).
            function nearest(start, target, here) {
              if (target(graph.states[start])) return { steps: 0, next: here(graph.states[start]), at: start };
              const first = new Map([[start, -1]]);
              let level = [start], depth = 0;
              while (level.length > 0) {
                depth += 1;
                const next = [];
                for (const s of level) for (const [thread, target_] of graph.states[s].steps) {
                  if (first.has(target_)) continue;
                  const way = first.get(s) < 0 ? thread : first.get(s);
                  first.set(target_, way);
                  if (target(graph.states[target_])) return { steps: depth, next: way, at: target_ };
                  next.push(target_);
                }
                level = next;
              }
              return { safe: first.size };
            }
            // The nearest failing state, as 'racelab step' looks: else, the nearest state
            // where the threads can go round a loop forever without progress (a livelock).
            function lookAhead(start) {
              const failing = nearest(start, st => st.failure !== null, () => -1);
              if (failing.safe === undefined) return { steps: failing.steps, next: failing.next, what: graph.states[failing.at].failure[0] };
              const loop = nearest(start, st => st.loop !== undefined, st => st.loop[0]);
              if (loop.safe === undefined) return { steps: loop.steps, next: loop.next, loop: graph.states[loop.at].loop[1] };
              return { safe: failing.safe };
            }
            function hint() {
              const here = path[path.length - 1];
              if (rungAt !== path.join(",")) { rungAt = path.join(","); rung = 0; }
              rung = page.ladder ? Math.min(rung + 1, 3) : 3;
              const a = lookAhead(here), names = graph.states[here].threads.map(t => t[0]);
              const loop = "the threads can go round a loop of " + a.loop + " step" + (a.loop === 1 ? "" : "s") + " forever, each taking its turn, without progress (a livelock)";
              let text;
              if (a.safe !== undefined) text = graph.complete ? "nothing can go wrong from here any more: every way on passes (" + a.safe + " states looked at)" : "no failure among the states this page holds (it does not hold them all)";
              else if (a.steps === 0 && a.loop) text = "from here " + loop + (rung >= 3 ? "; run " + names[a.next] + " to go round it" : "");
              else if (a.steps === 0) text = "it has gone wrong already: " + a.what;
              else {
                text = "a failure can still be reached from here";
                if (rung >= 2) text += ": " + a.steps + " more step" + (a.steps === 1 ? "" : "s") + " at the fewest";
                if (rung >= 3) text += " (run " + names[a.next] + " next)";
                text += rung >= 3 ? " — " + (a.loop ? "there " + loop : a.what) : "; press h again for more";
              }
              document.getElementById("hint").textContent = text;
            }
            function undo() { if (path.length > 1) { path.pop(); picks.pop(); sentences.pop(); progress.pop(); render(); } }
            function restart() { path = [0]; picks = []; sentences = []; progress = []; render(); }
            // A livelock never ends: its goal is reached by going round its loop. How many
            // steps ago the run was in this state, with no progress since, every thread that
            // could run in between having run, in a state a fair scheduler can loop from.
            function wentRound() {
              const here = path.length - 1, state = graph.states[path[here]];
              if (state.loop === undefined) return 0;
              for (let k = here - 1; k >= 0; k--) {
                if (progress[k]) return 0;
                if (path[k] !== path[here]) continue;
                const ran = new Set(picks.slice(k));
                if (path.slice(k).every(s => graph.states[s].steps.every(step => ran.has(step[0])))) return here - k;
              }
              return 0;
            }
            // A thread's code, its next line marked.
            function codeOf(t) {
              const pre = el("pre", "");
              if (t[2] < 0) return [];
              const [name, first, lines] = graph.codes[t[2]];
              pre.append(...lines.map((text, k) => {
                const n = first + k, span = el("span", (n === t[3] ? "> " : "  ") + String(n).padStart(3) + " " + text);
                if (n === t[3]) span.className = "now"; return span;
              }));
              return [el("div", "in " + name), pre].map((e, k) => { if (k === 0) e.className = "in"; return e; });
            }
            // The threads picked so far, as a schedule 'racelab run' replays.
            function schedule() { return picks.map((p, k) => graph.states[path[k]].threads[p][0]).join(" "); }
            function debrief(state, back) {
              const box = document.getElementById("debrief"), v = versions[version];
              const fix = (v.name ? " --fix " + v.name : "") + ' --schedule "' + schedule() + '"';
              const replay = el("p", "Replay it in a terminal: " + page.run + fix);
              box.className = "";
              if (state.failure) {
                box.replaceChildren(el("p", "Goal reached in " + sentences.length + " steps: " + state.failure[0]), el("p", state.failure[1]),
                  el("p", "The threads you picked: " + schedule()), replay);
              } else if (back) {
                box.replaceChildren(el("p", "Goal reached in " + sentences.length + " steps: the threads are back in the state they were in " + back + " steps ago: every thread that could run took a step, and nothing made progress."),
                  el("p", "From here a fair scheduler, one that gives every thread its turn, could keep them going round a loop of " + state.loop[1] + " steps forever: no thread is blocked, yet none gets anywhere (a livelock)."),
                  el("p", "The threads you picked: " + schedule()), el("p", "Go on from there in a terminal: " + page.step + fix));
              } else if (v.proven) {
                box.className = "safe";
                box.replaceChildren(el("p", "This is " + v.label + ": " + v.summary),
                  el("p", "No order of steps can reach the goal here: every interleaving was explored, and every one passes."));
              } else {
                box.replaceChildren(el("p", "Finished without reaching the goal: every check passed this time. Undo a few steps (u) and try another order."));
              }
            }
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
                lane.append(button, status, ...codeOf(t)); lanes.append(lane);
              });
              const list = document.getElementById("state"); list.replaceChildren(...state.shared.map(s => el("li", s)));
              const log = document.getElementById("log"); log.replaceChildren(...sentences.map(s => el("li", s)));
              document.getElementById("failure").textContent = state.failure ? "It went wrong: " + state.failure[0] : "";
              const over = state.steps.length === 0 && !state.cut;
              document.getElementById("status").textContent = over ? (state.failure ? "The run is over." : "The run is over, and nothing went wrong.")
                : state.cut ? "The page holds no more states on this way (past its budget, or more than 64 threads): undo, or go on in 'racelab step'." : "Step " + (path.length) + ": pick a thread.";
              const box = document.getElementById("debrief"), back = over || versions[version].proven ? 0 : wentRound();
              box.hidden = !over && !back;
              if (!box.hidden) debrief(state, back); else box.replaceChildren();
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
