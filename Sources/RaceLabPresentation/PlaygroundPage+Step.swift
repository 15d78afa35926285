extension PlaygroundPage {
    /// Step mode's board, drawn from `racelab step --format json` given the same moves:
    /// each thread's lane with the code of the function it is in and its next line
    /// marked (a lane with no code narrow), the goal, the last move's message and the
    /// debrief beside them with the shared state, and the steps as a timeline under
    /// them, a column a thread.
    static let stepScript = #"""
        const element = (tag, className, text) => {
          const made = document.createElement(tag);
          if (className) made.className = className;
          if (text !== undefined) made.textContent = text;
          return made;
        };
        async function showStep() {
          let data;
          try {
            const response = await ask(request([...commands.step(), "--format", "json"], moves.map((move) => move + "\n").join("")));
            if (response.status !== 0) return;
            data = JSON.parse(response.stdout);
          } catch (error) { return; }
          $("goal").textContent = data.goal ? "Goal: " + data.goal : "";
          $("goal").hidden = !data.goal;
          const lanes = $("lanes");
          lanes.textContent = "";
          for (const thread of data.threads) {
            const lane = element("section", `lane ${thread.state}${thread.code ? "" : " idle"}`);
            const button = element("button", "", `${thread.key} ${thread.name}`);
            button.type = "button";
            button.dataset.move = thread.name;
            button.disabled = thread.state !== "runnable";
            lane.append(button);
            if (thread.status) lane.append(element("div", "status", thread.status));
            if (thread.next) lane.append(element("div", "next", "next: " + thread.next));
            if (thread.code) {
              lane.append(element("div", "in", "in " + thread.function));
              // Without the indentation the body's lines share (a closing brace aside).
              const lead = (text) => text.length - text.trimStart().length;
              const indent = Math.min(...thread.code.filter((text) => text.trim() && text.trim() !== "}").map(lead));
              const code = element("pre", "code");
              thread.code.forEach((text, index) => {
                const number = thread.firstLine + index, now = number === thread.currentLine;
                code.append(element("span", now ? "now" : "", `${now ? ">" : " "}${String(number).padStart(4)} ${text.slice(Math.min(indent, lead(text)))}`));
              });
              lane.append(code);
            }
            lanes.append(lane);
          }
          const shared = $("shared");
          shared.textContent = "";
          for (const line of data.shared) shared.append(element("li", "", line.label + line.items.join(", ")));
          const names = data.threads.map((thread) => thread.name), steps = $("steps");
          steps.textContent = "";
          if (data.steps.length) {
            const head = element("tr");
            head.append(element("th", "", "step"), ...names.map((name) => element("th", "", name)));
            steps.append(head);
          }
          data.steps.forEach((step, index) => {
            const row = element("tr");
            row.append(element("td", "number", String(index + 1)));
            for (const name of names) row.append(element("td", "", name === step.thread ? (step.line ? step.line + "  " : "") + step.text : ""));
            steps.append(row);
          });
          steps.lastElementChild?.scrollIntoView({ block: "nearest" });
          $("message").textContent = data.message;
          $("debrief").textContent = data.debrief ?? "";
          $("debrief").hidden = !data.debrief;
        }
        function move(command) {
          moves.push(command);
          act("step");
        }
        $("stepper").addEventListener("click", (event) => {
          const button = event.target.closest("button");
          if (button && button.dataset.move !== undefined) move(button.dataset.move);
        });
        document.addEventListener("keydown", (event) => {
          if (mode !== "step" || $("stepper").hidden || event.target === editor || event.target.tagName === "INPUT") return;
          const buttons = [...document.querySelectorAll("#lanes .lane button")];
          if (/^[1-9]$/.test(event.key) && buttons[Number(event.key) - 1]) move(buttons[Number(event.key) - 1].dataset.move);
          else if (["u", "r", "e", "h", "s", "x"].includes(event.key)) move(event.key);
          else if (event.key === "Enter") move("");
          else return;
          event.preventDefault();
        });
        $("edit").addEventListener("click", () => {
          $("stepper").hidden = true;
          document.querySelector("main").classList.remove("stepping");
          $("output").open = true;
          editor.focus();
        });

        """#

    static let stepStyle = """
        .board { display: grid; grid-template-columns: minmax(0, 1fr) minmax(14rem, 20rem); gap: 12px; align-items: start; }
        @media (max-width: 900px) { .board { grid-template-columns: minmax(0, 1fr); } }
        #lanes { display: flex; flex-wrap: wrap; gap: 8px; }
        .lane { flex: 1 1 12rem; min-width: 10rem; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); padding: 8px; }
        .lane.idle { flex: 0 1 8rem; min-width: 7rem; }
        .lane button { width: 100%; font-family: var(--mono); font-weight: 600; }
        .lane.runnable button:not(:disabled) { border-color: var(--number); }
        .lane .status, .lane .in { font-size: 13px; color: var(--muted); margin-top: 4px; }
        .lane.blocked .status { color: var(--string); }
        .lane .next { font-size: 13px; margin-top: 2px; }
        .lane pre.code { font: 12.5px/1.5 var(--mono); margin: 6px 0 0; white-space: pre-wrap; }
        .lane pre.code span { display: block; padding-left: 6ch; text-indent: -6ch; }
        .lane pre.code .now { background: color-mix(in srgb, var(--accent) 20%, transparent); font-weight: 700; }
        .side h3 { font-size: 14px; margin: 0 0 4px; }
        #shared { padding-left: 18px; margin: 0 0 10px; font: 13px/1.45 var(--mono); }
        #goal { font-weight: 600; margin: 0 0 8px; }
        #message { white-space: pre-wrap; font: 13px/1.45 var(--mono); margin: 0 0 8px; }
        #debrief { border: 2px solid var(--error); border-radius: 8px; padding: 8px; white-space: pre-wrap; font-size: 14px; margin-bottom: 10px; }
        .timeline { max-height: 40vh; overflow: auto; margin-top: 10px; }
        #steps { border-collapse: collapse; font: 12.5px/1.4 var(--mono); width: 100%; }
        #steps th, #steps td { border-bottom: 1px solid var(--line); padding: 2px 6px; text-align: left; vertical-align: top; }
        #steps th { position: sticky; top: 0; background: var(--bg); }
        #steps .number { color: var(--muted); text-align: right; }
        """
}
