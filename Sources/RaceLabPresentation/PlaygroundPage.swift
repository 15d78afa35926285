import RaceLabLanguage

/// The playground: one self-contained HTML page that runs the whole engine, compiled
/// to WebAssembly and embedded in it, so that a student edits a program and explores,
/// verifies, runs, steps and grades it with nothing installed, offline, from disk.
///
/// The page asks the module what `racelab` would be asked (`RaceLabWeb.WebAPI`: a
/// command line over files held in memory), in a Web Worker made from a blob (a page
/// opened from disk can fetch nothing), and shows what it prints in `#result`, the
/// CLI's own text. A link carries a program and an action:
/// `#src=<base64url of the source>&do=explore` (or `run`, `verify`, `step` with
/// `&moves=A,B,u` and `&challenge=1`, `grade`, `hint`), with `&fix=NAME` and
/// `&schedule=…` (a schedule, or a seed for `run`).
public struct PlaygroundPage {
    /// The file the editor holds at first, by name (`singleton-race.race`).
    public var fileName: String
    public var source: String
    /// The page's title.
    public var title: String
    /// The shipped scenarios and exercises, by path under `Scenarios/`: what the
    /// program list offers, and what `hint` and `grade` read.
    public var shipped: [(path: String, text: String)]
    /// The WebAssembly module (`.ci/build-wasm`), as it is or gzipped.
    public var module: [UInt8]

    /// Where a shipped scenario, or a shipped exercise, is in the page's files: under
    /// `shippedFolder` (the request's `shipped`), exercises in its `Exercises`.
    public static let shippedFolder = "Scenarios"
    public static func shippedPath(_ name: String, exercise: Bool) -> String {
        shippedFolder + (exercise ? "/Exercises/" : "/") + name + ".race"
    }

    /// How a WebAssembly module starts, and how gzip's data does.
    public static let wasmMagic: [UInt8] = [0x00, 0x61, 0x73, 0x6D]
    public static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    /// A course's levels, in order (none: a playground of one program).
    public var levels: [Level]

    /// One level of a course: a shipped file, what it is called, and what kind it is.
    public struct Level: Sendable {
        public var path: String
        public var title: String
        /// "scenario", or an exercise's kind and level ("fix it, easy").
        public var kind: String

        public init(path: String, title: String, kind: String) {
            self.path = path
            self.title = title
            self.kind = kind
        }
    }

    public init(
        fileName: String, source: String, title: String, shipped: [(path: String, text: String)], module: [UInt8], levels: [Level] = []
    ) {
        self.fileName = fileName
        self.source = source
        self.title = title
        self.shipped = shipped
        self.module = module
        self.levels = levels
    }

    public func render() -> String {
        let files = JSON.object(shipped.map { ($0.path, JSON.string($0.text)) })
        let start = JSON.object([
            ("file", .string(fileName)), ("source", .string(source)), ("shipped", .string(Self.shippedFolder)),
            ("keywords", .array(Keyword.allCases.map { .string($0.rawValue) })),
            ("levels", .array(levels.map { .object([("path", .string($0.path)), ("title", .string($0.title)), ("kind", .string($0.kind))]) })),
        ])
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XML.escape(title)) · RaceLab playground</title>
            <style>
            \(Self.style)
            \(Self.stepStyle)
            </style>
            </head>
            <body>
            \(Self.body)
            <script type="application/json" id="racelab-files">\(Self.scriptSafe(files.compact()))</script>
            <script type="application/json" id="racelab-start">\(Self.scriptSafe(start.compact()))</script>
            <script type="application/octet-stream" id="racelab-module" data-gzip="\(module.starts(with: Self.gzipMagic))">\(Base64.encode(module))</script>
            <script>
            \(Self.script)
            </script>
            </body>
            </html>

            """
    }

    /// JSON inside a `<script>` element: `</` would end the element, `<!--` start a
    /// comment; `<\/` and `<\!--`... are the same JSON text with the slash escaped.
    static func scriptSafe(_ json: String) -> String {
        json.replacingAll("</", with: "<\\/").replacingAll("<!--", with: "<\\u0021--")
    }

    static let body = """
        <header>
          <h1>RaceLab <span>playground</span></h1>
          <label>Program <select id="program"></select></label>
          <button id="share" type="button" title="Copy a link that opens this program and its result">Copy link</button>
          <button id="next" type="button" hidden>Next level</button>
        </header>
        <details id="course" hidden><summary id="progress">Levels</summary><ol id="levels"></ol></details>
        <main>
          <section id="code-panel" aria-label="The program">
            <div class="editor">
              <pre class="gutter" id="gutter" aria-hidden="true"></pre>
              <div class="code">
                <pre class="highlight" id="highlight" aria-hidden="true"></pre>
                <textarea id="source" spellcheck="false" autocapitalize="off" autocomplete="off" aria-label="Scenario source"></textarea>
              </div>
            </div>
            <ul id="diagnostics"></ul>
          </section>
          <section id="run-panel" aria-label="Results">
            <div class="toolbar">
              <label>Version <select id="version"><option value="">broken</option></select></label>
              <button id="do-explore" type="button" title="Every interleaving: the verdict, outcomes and a counterexample">Explore</button>
              <button id="do-verify" type="button" title="The broken version and every fix, side by side">Verify</button>
              <button id="do-step" type="button" title="Be the scheduler: pick which thread runs next">Step</button>
              <label title="Step to reach the scenario's goal; a debrief follows"><input type="checkbox" id="challenge"> Challenge</label>
              <button id="do-grade" type="button" title="Grade this file as racelab grade does">Grade</button>
              <button id="do-hint" type="button" title="The exercise's first hint">Hint</button>
              <button id="stop" type="button" disabled>Stop</button>
              <label title="Print what --format json prints"><input type="checkbox" id="json"> JSON</label>
            </div>
            <div class="toolbar">
              <input id="schedule" placeholder="schedule (A B B, A*2 main, story) or a seed (7)" aria-label="Schedule or seed" spellcheck="false">
              <button id="do-run" type="button" title="One run under this schedule, or a random one from this seed (empty: round robin)">Run</button>
            </div>
            <div id="stepper" hidden>
              <div class="toolbar">
                <button id="edit" type="button" title="Back to the editor">Edit</button>
                <button data-move="" type="button">Enter</button>
                <button data-move="u" type="button">Undo</button>
                <button data-move="r" type="button">Restart</button>
                <button data-move="e" type="button">Explain</button>
                <button data-move="h" type="button">Hint</button>
                <button data-move="s" type="button">Schedule</button>
                <button data-move="x" type="button">Run the rest</button>
              </div>
              <p class="keys">Keys: 1–9 run that thread, Enter the default, u undo, r restart, e explain, h hint, s the schedule, x run the rest.</p>
              <div class="board">
                <div>
                  <div id="lanes"></div>
                  <div class="timeline"><table id="steps"></table></div>
                </div>
                <aside class="side">
                  <p id="goal" hidden></p>
                  <p id="message" role="status"></p>
                  <div id="debrief" hidden></div>
                  <h3>Shared state</h3>
                  <ul id="shared"></ul>
                </aside>
              </div>
            </div>
            <p id="status" role="status"></p>
            <figure id="picture" hidden><img id="timeline" alt="The counterexample's timeline: a column per thread, a row per step"><figcaption>The simplest counterexample, step by step (racelab export --counterexample --format svg)</figcaption></figure>
            <details id="output" open><summary>What racelab prints</summary><pre id="result" tabindex="0"></pre></details>
          </section>
        </main>
        """
}
