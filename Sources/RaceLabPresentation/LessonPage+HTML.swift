import RaceLabEngine

/// The page itself: the HTML, its style (light and dark, a phone's width to a
/// projector's), and the script that plays the embedded graph (moves, undo, restart,
/// the hint, the debrief, the runs to watch, a version and moves named by the link).
extension LessonPage {
    public func render() -> String {
        let versions = self.versions()
        let spaces = lesson.versions.compactMap({ $0.analysis.space })
        let start = lesson.versions.firstIndex { $0.version.fix == selected } ?? 0
        let header = JSON.object([
            ("run", .string(ReplayCommand(argument).text)), ("step", .string(ReplayCommand(argument, verb: "step").text)),
            ("ladder", .bool(scenario.challenge != nil)),
            ("start", .int(start)), ("versions", versions),
        ])
        // Nothing in the embedded data can close the script element.
        let data = header.compact().replacingAll("</", with: "<\\/")
        let note =
            spaces.allSatisfy({ $0.isComplete })
            ? "The page holds every state of every version (\(spaces.map({ $0.worlds.count }).reduce(0, +)) in all): every move is here."
            : "Some versions have more states than the page's budget (\(spaces.map({ $0.maxStates }).max() ?? 0) a version): for them it holds the states nearest the start and those of the runs you can watch, and past them the moves stop. 'racelab explore' sees the rest."
        var story = scenario.story.isEmpty ? "" : "<h2>The story</h2>\n<pre class=\"story\">\(XML.escape(scenario.story))</pre>\n"
        if !scenario.source.isEmpty { story += "<p class=\"source\">Source: \(XML.escape(scenario.source))</p>\n" }
        // Actor lanes, only where there can be actors: a page without them is as it was.
        let actors = lesson.versions.contains { ActorLane.mayHaveActors($0.version.program) }
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
            .play { display: grid; grid-template-columns: minmax(0, 1fr) minmax(14rem, 18rem); gap: 1rem; align-items: start; }
            .side { position: sticky; top: .5rem; max-height: calc(100vh - 1rem); overflow-y: auto; }
            .side h3 { margin: .2rem 0 .3rem; font-size: 1rem; } .side ul, .side ol { margin: 0 0 .6rem; padding-left: 1.3rem; font-size: .95rem; }
            @media (max-width: 860px) { .play { grid-template-columns: minmax(0, 1fr); } .side { position: static; max-height: none; } }
            #lanes { display: flex; flex-wrap: wrap; gap: .6rem; }
            .lane { border: 1px solid var(--line); padding: .5rem; min-width: 10rem; flex: 1 1 10rem; }
            .lane.idle { flex: 0 1 8rem; min-width: 7rem; opacity: .8; }
            .lane button { font-size: 1rem; width: 100%; padding: .4rem; }
            .lane .status { font-size: .9rem; min-height: 2.6em; }
            .lane .in { font-size: .85rem; margin-top: .3rem; }
            .lane pre { font-size: 13px; margin: .2rem 0 0; padding: .3rem; }
            .lane pre span { display: block; white-space: pre-wrap; padding-left: 6ch; text-indent: -6ch; }
            .lane pre .now { background: var(--box); font-weight: bold; }
            #log li { margin: .15rem 0; } #failure { color: var(--bad); font-weight: bold; }
            #debrief { border: 2px solid var(--bad); padding: .6rem; } #debrief.safe { border-color: var(--good); }
            #versions button, #watch button { margin: .15rem; }
            #outcomes { list-style: none; padding: 0; } #outcomes li { padding: .15rem .4rem; border-left: 4px solid var(--good); margin: .2rem 0; }
            #outcomes .fail { color: var(--bad); border-left-color: var(--bad); font-weight: 600; }\(actors ? Self.actorStyle : "")
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
            <div class="play">
            <div class="board">
            <div id="lanes"></div>
            <p id="status"></p>
            <p><button id="hintButton">Hint (h)</button> <span id="hint"></span></p>
            </div>
            <aside class="side">
            <p id="failure"></p>
            <div id="debrief" hidden></div>
            <h3>Shared state</h3>
            <ul id="state"></ul>
            <h3>Steps</h3>
            <ol id="log"></ol>
            </aside>
            </div>
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
              // Without the indentation the body's lines share (a closing brace aside): a lane is narrow.
              const lead = text => text.length - text.trimStart().length;
              const indent = Math.min(...lines.filter(text => text.trim() && text.trim() !== "}").map(lead));
              pre.append(...lines.map((text, k) => {
                const n = first + k, span = el("span", (n === t[3] ? "> " : "  ") + String(n).padStart(3) + " " + text.slice(Math.min(indent, lead(text))));
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
                // A thread with no code to show (idle, or done) takes less room.
                if (t[2] < 0) lane.classList.add("idle");
                lane.append(button, status, ...codeOf(t)); lanes.append(lane);
              });\(actors ? Self.actorLanes : "")
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

    /// The actor lanes' style: beside the threads' lanes, dashed, as they take no turns.
    static let actorStyle = """

        .lane.actor { border-style: dashed; flex: 0 1 12rem; min-width: 10rem; } .lane.actor .name { font-weight: bold; }
        """

    /// The script that draws a lane per actor of the state (`graph`'s `actors`): its
    /// name, who holds it, who waits in its mailbox.
    static let actorLanes = """

          for (const actor of state.actors || []) {
            const [name, holder, mailbox] = actor.map(i => graph.strings[i]);
            const lane = el("div", ""), head = el("div", name), held = el("div", holder), queue = el("div", mailbox);
            lane.className = "lane actor"; lane.dataset.actor = name; head.className = "name"; held.className = "status"; queue.className = "in";
            lane.append(head, held, queue); lanes.append(lane);
          }
        """
}
