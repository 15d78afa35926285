extension PlaygroundPage {
    /// The worker: instantiates the module it is handed, with the imports it needs (the
    /// clock, for --time-limit; random bytes, which seed Swift's hashing and reach no
    /// output; standard error, where a trap writes why), and answers each request.
    static let worker = #"""
        let api, trapped = "";
        const wasi = {
          random_get(at, length) { crypto.getRandomValues(new Uint8Array(api.memory.buffer, at, length)); return 0; },
          fd_write(fd, iovs, count, written) {
            const view = new DataView(api.memory.buffer);
            let total = 0;
            for (let i = 0; i < count; i++) {
              const base = view.getUint32(iovs + 8 * i, true), length = view.getUint32(iovs + 8 * i + 4, true);
              trapped += new TextDecoder().decode(new Uint8Array(api.memory.buffer, base, length));
              total += length;
            }
            view.setUint32(written, total, true);
            return 0;
          },
          fd_close: () => 0,
          fd_seek: () => 70,
        };
        onmessage = async (event) => {
          if (event.data.module) {
            const imports = { racelab: { host_milliseconds: () => performance.now() }, wasi_snapshot_preview1: wasi };
            api = (await WebAssembly.instantiate(event.data.module, imports)).exports;
            postMessage({ ready: true });
            return;
          }
          try {
            const bytes = new TextEncoder().encode(JSON.stringify(event.data.request));
            const at = api.racelab_alloc(bytes.length);
            new Uint8Array(api.memory.buffer, at, bytes.length).set(bytes);
            const length = api.racelab_respond(at, bytes.length);
            api.racelab_free(at);
            const text = new TextDecoder().decode(new Uint8Array(api.memory.buffer, api.racelab_response(), length));
            postMessage({ response: JSON.parse(text) });
          } catch (error) {
            postMessage({ crashed: (trapped || String(error)).trim() });
          }
        };
        """#

    /// The page: the editor, the actions, links, and step mode.
    static let script = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const shipped = JSON.parse($("racelab-files").textContent);
        const start = JSON.parse($("racelab-start").textContent);
        const keywords = new Set(start.keywords);
        const editor = $("source");
        // What the tests read: the last request and response, whether one is under way,
        // how many were answered, and when the first was (the page is interactive).
        const racelab = (window.racelab = { busy: false, lastRequest: null, lastResponse: null, answered: 0, interactiveAt: undefined });
        let file = start.file, moves = [], mode = null;

        // The module, unzipped and compiled once; each worker (a new one after Stop)
        // instantiates it.
        const compiled = (async () => {
          const text = atob($("racelab-module").textContent.trim());
          const bytes = new Uint8Array(text.length);
          for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
          if ($("racelab-module").dataset.gzip !== "true") return WebAssembly.compile(bytes);
          const unzipped = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
          return WebAssembly.compile(await new Response(unzipped).arrayBuffer());
        })();
        const workerURL = URL.createObjectURL(new Blob([WORKER], { type: "text/javascript" }));
        let worker = null, ready = null, pending = null;
        function startWorker() {
          worker = new Worker(workerURL);
          ready = compiled.then((module) => new Promise((resolve) => {
            worker.onmessage = () => resolve();
            worker.postMessage({ module });
          }));
        }
        // One request at a time: an edit's check waits for a search under way.
        let queue = Promise.resolve();
        function ask(request) {
          const answer = queue.then(() => send(request));
          queue = answer.catch(() => {});
          return answer;
        }
        function send(request) {
          if (!worker) startWorker();
          return ready.then(() => new Promise((resolve, reject) => {
            pending = reject;
            worker.onmessage = (event) => {
              pending = null;
              if (event.data.crashed !== undefined) {
                worker.terminate();
                worker = null;
                reject(new Error("the engine stopped: " + event.data.crashed));
              } else {
                racelab.answered += 1;
                racelab.interactiveAt ??= performance.now();
                resolve(event.data.response);
              }
            };
            worker.postMessage({ request });
          }));
        }
        function stop() {
          if (worker) worker.terminate();
          worker = null;
          if (pending) pending(new Error("Stopped."));
          pending = null;
        }

        // The editor: a textarea over its highlighted copy, with line numbers.
        const escape = (text) => text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
        let badLines = new Map();
        function highlight() {
          // Comments, strings (a """ block across lines too), numbers, and the language's keywords.
          const token = /(\/\/[^\n]*)|("""[\s\S]*?(?:"""|$)|"(?:[^"\\\n]|\\.)*"?)|(\b\d+\b)|([A-Za-z_][A-Za-z0-9_]*)/g;
          const wrap = (kind, text) => text.split("\n").map((part) => `<span class="${kind}">${part}</span>`).join("\n");
          const html = escape(editor.value).replace(token, (match, comment, string, number, word) =>
            comment ? wrap("com", comment) : string ? wrap("str", string) : number ? wrap("num", number)
              : keywords.has(word) ? `<span class="kw">${word}</span>` : word).split("\n");
          // As tall as the program, up to most of the window.
          document.querySelector(".editor").style.height = `min(70vh, ${html.length * 19.5 + 36}px)`;
          $("highlight").innerHTML = html.map((line, index) => badLines.has(index + 1) ? `<span class="bad-line">${line || " "}</span>` : line).join("\n") + "\n";
          $("gutter").innerHTML = html.map((_, index) => badLines.has(index + 1)
            ? `<span class="bad" title="${escape(badLines.get(index + 1))}">${index + 1}</span>` : String(index + 1)).join("\n") + "\n";
          syncScroll();
        }
        function syncScroll() {
          $("highlight").scrollTop = editor.scrollTop;
          $("highlight").scrollLeft = editor.scrollLeft;
          $("gutter").scrollTop = editor.scrollTop;
        }
        editor.addEventListener("scroll", syncScroll);
        editor.addEventListener("keydown", (event) => {
          if (event.key !== "Tab" || event.shiftKey) return;
          event.preventDefault();
          editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
          edited();
        });
        let checkTimer = null;
        function edited() {
          highlight();
          clearTimeout(checkTimer);
          checkTimer = setTimeout(check, 300);
        }
        editor.addEventListener("input", edited);

        // The command line the page asks the module, over the shipped files and the editor's.
        function request(args, input) {
          const columns = Math.max(40, Math.min(160, Math.floor(($("run-panel").clientWidth - 24) / 7.6)));
          const files = Object.assign({}, shipped, { [file]: editor.value });
          return { arguments: args, files, shipped: start.shipped, input: input ?? "", environment: { COLUMNS: String(columns), NO_COLOR: "1" } };
        }
        function diagnose(stderr) {
          badLines = new Map();
          const list = $("diagnostics");
          list.textContent = "";
          for (const match of stderr.matchAll(/^(.+?):(\d+):(\d+): error: (.*)$/gm)) {
            if (match[1] !== file) continue;
            const line = Number(match[2]), column = Number(match[3]);
            badLines.set(line, match[4]);
            const item = document.createElement("li");
            item.textContent = `${line}:${column}: ${match[4]}`;
            item.addEventListener("click", () => {
              const lines = editor.value.split("\n").slice(0, line - 1);
              const at = lines.reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
              editor.focus();
              editor.setSelectionRange(at, at);
            });
            list.append(item);
          }
          highlight();
        }
        // After an edit: the versions to offer, and the errors to mark.
        async function check() {
          try {
            const response = await ask(request(["show", file, "--format", "json"]));
            diagnose(response.stderr);
            if (response.status !== 0) return;
            const versions = JSON.parse(response.stdout).versions;
            const select = $("version"), chosen = select.value;
            select.textContent = "";
            for (const version of versions) select.append(new Option(version ?? "broken", version ?? ""));
            select.value = versions.includes(chosen) ? chosen : "";
          } catch (error) {}
        }

        const commands = {
          explore: () => ["explore", file, ...fix(), ...json()],
          verify: () => ["verify", file, ...json()],
          run: () => ["run", file, ...fix(), ...runWith($("schedule").value.trim()), ...json()],
          step: () => ["step", file, ...fix(), ...($("challenge").checked ? ["--challenge"] : [])],
          grade: () => ["grade", file, ...json()],
          hint: () => ["hint", file],
        };
        const fix = () => ($("version").value ? ["--fix", $("version").value] : []);
        // A number is a seed (a thread's name never starts with a digit); other text, a schedule.
        const runWith = (text) => (text === "" ? [] : /^[0-9]+$/.test(text) ? ["--seed", text] : ["--schedule", text]);
        const json = () => ($("json").checked ? ["--format", "json"] : []);
        async function act(what) {
          if (what !== "step") moves = [];
          mode = what;
          const args = commands[what]();
          const input = what === "step" ? moves.map((move) => move + "\n").join("") : "";
          const asked = request(args, input);
          racelab.busy = true;
          racelab.lastRequest = asked;
          $("stop").disabled = false;
          $("status").className = "";
          $("status").textContent = `racelab ${args.join(" ")} …`;
          let response;
          try {
            response = await ask(asked);
          } catch (error) {
            response = { status: -1, stdout: "", stderr: error.message + "\n", written: {} };
          }
          racelab.lastResponse = response;
          $("stop").disabled = true;
          show(what, args, response);
          remember();
          progress(what, response.status);
          if (what === "explore" && response.status === 1 && !$("json").checked) await picture();
          if (what === "step" && response.status === 0) await showStep();
          racelab.busy = false;
        }
        // The counterexample an exploration found, drawn as racelab export draws it (an
        // image: nothing in it can run). A guarded exercise's is refused, and not shown.
        let pictureURL = null;
        async function picture() {
          let response;
          try { response = await ask(request(["export", file, ...fix(), "--counterexample", "--format", "svg"])); } catch (error) { return; }
          if (response.status !== 0) return;
          if (pictureURL) URL.revokeObjectURL(pictureURL);
          pictureURL = URL.createObjectURL(new Blob([response.stdout], { type: "image/svg+xml" }));
          $("timeline").src = pictureURL;
          $("picture").hidden = false;
        }
        function show(what, args, response) {
          $("picture").hidden = true;
          diagnose(response.stderr);
          $("result").textContent = response.stdout + response.stderr;
          // The exit status alone: what it means is in what racelab printed.
          $("status").textContent = response.status < 0 ? response.stderr.trim() : `racelab ${args.join(" ")}: exit ${response.status}`;
          $("status").className = response.status === 1 ? "fails" : response.status === 0 && what === "explore" ? "proven" : "";
          $("stepper").hidden = what !== "step" || response.status !== 0;
          // Stepping, the lanes show the code: the screen takes the whole width.
          document.querySelector("main").classList.toggle("stepping", !$("stepper").hidden);
          $("output").open = $("stepper").hidden;
        }
        STEP
        for (const what of Object.keys(commands)) $("do-" + what).addEventListener("click", () => { moves = []; act(what); });
        $("stop").addEventListener("click", stop);

        // Links: #src=<base64url>&file=NAME.race&do=ACTION&fix=F&schedule=S&moves=A,B,u
        const encode = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        const decode = (text) => new TextDecoder().decode(Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)));
        function link() {
          const fields = new URLSearchParams();
          fields.set("src", encode(editor.value));
          fields.set("file", file);
          if (mode) fields.set("do", mode);
          if ($("version").value) fields.set("fix", $("version").value);
          if ($("schedule").value.trim()) fields.set("schedule", $("schedule").value.trim());
          if (mode === "step" && moves.length) fields.set("moves", moves.join(","));
          if (mode === "step" && $("challenge").checked) fields.set("challenge", "1");
          return "#" + fields.toString();
        }
        function remember() { history.replaceState(null, "", link()); }
        $("share").addEventListener("click", async () => {
          remember();
          try { await navigator.clipboard.writeText(location.href); $("status").textContent = "Link copied."; }
          catch (error) { $("status").textContent = "The link is in the address bar."; }
        });

        // The program list: the page's own program, the shipped scenarios, then the exercises.
        const select = $("program");
        select.append(new Option("your program", ""));
        const exercises = start.shipped + "/Exercises/";
        for (const [label, test] of [["Scenarios", (p) => !p.startsWith(exercises)], ["Exercises", (p) => p.startsWith(exercises)]]) {
          const group = document.createElement("optgroup");
          group.label = label;
          for (const path of Object.keys(shipped).filter(test)) group.append(new Option(path.split("/").pop().replace(/\.race$/, ""), path));
          select.append(group);
        }
        select.addEventListener("change", () => { if (select.value) open(select.value.split("/").pop(), shipped[select.value], null); });
        function open(name, source, fields) {
          file = name;
          editor.value = source;
          select.value = Object.keys(shipped).find((path) => path.endsWith("/" + name) && shipped[path] === source) ?? "";
          $("result").textContent = "";
          $("status").textContent = "";
          $("stepper").hidden = true;
          mode = null;
          moves = [];
          highlight();
          return check().then(() => {
            if (!fields) return;
            if (fields.get("fix")) $("version").value = fields.get("fix");
            if (fields.get("schedule")) $("schedule").value = fields.get("schedule");
            $("challenge").checked = fields.get("challenge") === "1";
            moves = fields.get("moves") ? fields.get("moves").split(",") : [];
            const what = fields.get("do");
            if (what in commands) { const kept = moves; return act(what).then(() => kept); }
          });
        }
        // A course: its levels in order, each done once explored (a scenario) or passed
        // (an exercise's grade), kept in the browser's local storage.
        const levels = start.levels, doneKey = "racelab-course-done";
        let done = new Set();
        try { done = new Set(JSON.parse(localStorage.getItem(doneKey) ?? "[]")); } catch (error) {}
        function drawLevels() {
          if (!levels.length) return;
          $("course").hidden = false;
          $("next").hidden = false;
          $("progress").textContent = `Levels: ${levels.filter((level) => done.has(level.path)).length} of ${levels.length} done`;
          const list = $("levels");
          list.textContent = "";
          for (const level of levels) {
            const item = document.createElement("li"), button = document.createElement("button");
            button.type = "button";
            button.textContent = `${done.has(level.path) ? "✓ " : ""}${level.title} (${level.kind})`;
            button.className = level.path === select.value ? "current" : "";
            button.addEventListener("click", () => { select.value = level.path; select.dispatchEvent(new Event("change")); drawLevels(); });
            item.append(button);
            list.append(item);
          }
        }
        function progress(what, status) {
          const level = levels.find((level) => level.path === select.value);
          if (!level || done.has(level.path)) return;
          const passed = level.kind === "scenario" ? (what === "explore" || what === "verify") && (status === 0 || status === 1) : what === "grade" && status === 0;
          if (!passed) return;
          done.add(level.path);
          try { localStorage.setItem(doneKey, JSON.stringify([...done])); } catch (error) {}
          drawLevels();
        }
        $("next").addEventListener("click", () => {
          const at = levels.findIndex((level) => level.path === select.value);
          const next = levels.slice(at + 1).find((level) => !done.has(level.path)) ?? levels.find((level) => !done.has(level.path));
          if (next) { select.value = next.path; select.dispatchEvent(new Event("change")); }
          drawLevels();
        });
        select.addEventListener("change", drawLevels);

        const fields = new URLSearchParams(location.hash.slice(1));
        if (levels.length && fields.get("src") === null) {
          // A course opens where the student left off.
          const next = levels.find((level) => !done.has(level.path)) ?? levels[0];
          select.value = next.path;
          open(next.path.split("/").pop(), shipped[next.path], null);
          drawLevels();
        } else if (fields.get("src") !== null) {
          let source;
          try { source = decode(fields.get("src")); } catch (error) { source = null; }
          if (source === null) open(start.file, start.source, null).then(() => { $("status").textContent = "The link's program could not be read."; });
          else open(fields.get("file") || "playground.race", source, fields);
        } else open(start.file, start.source, null);
        """#.replacingAll("WORKER", with: JSON.quote(worker)).replacingAll("STEP\n", with: stepScript)
}
