extension PlaygroundPage {
    /// Light and dark (the system's choice); two columns from 900 px, one below, and
    /// nothing wider than a phone's 390 px but the code and the text, which scroll.
    static let style = """
        :root { color-scheme: light dark; --bg: #fbfbf8; --fg: #1d1d1f; --muted: #6b6b70; --panel: #ffffff; --line: #d9d9de;
          --accent: #0b63ce; --keyword: #a4247a; --string: #b4490e; --number: #2f6f1f; --comment: #767680; --error: #c4151c;
          --error-bg: #fde7e7; --mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #17171a; --fg: #e8e8ea; --muted: #a0a0a8; --panel: #202024; --line: #3a3a40; --accent: #6fb1ff;
            --keyword: #f08bd0; --string: #f0a26b; --number: #9fd68a; --comment: #8d8d96; --error: #ff8080; --error-bg: #4a1f22; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 10px 16px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 18px; margin: 0 8px 0 0; }
        h1 span { color: var(--muted); font-weight: 400; }
        main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; padding: 16px; }
        @media (max-width: 900px) { main { grid-template-columns: minmax(0, 1fr); padding: 10px; } }
        section { min-width: 0; }
        select, input, button { font: inherit; font-size: 14px; color: inherit; }
        select, input { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 4px 6px; max-width: 100%; }
        button { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
        button:hover:not(:disabled) { border-color: var(--accent); }
        button:disabled { opacity: 0.5; cursor: default; }
        button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
        .toolbar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 8px; }
        #schedule { flex: 1 1 220px; font-family: var(--mono); }
        .editor { display: grid; grid-template-columns: auto minmax(0, 1fr); border: 1px solid var(--line); border-radius: 8px;
          background: var(--panel); height: min(70vh, 720px); min-height: 160px; overflow: hidden; }
        .gutter, .highlight, textarea { font: 13px/1.5 var(--mono); tab-size: 4; margin: 0; padding: 8px; }
        .gutter { color: var(--muted); text-align: right; user-select: none; overflow: hidden; border-right: 1px solid var(--line); min-width: 3.2em; }
        .gutter .bad { color: var(--error); font-weight: 700; background: var(--error-bg); }
        .code { position: relative; min-width: 0; }
        .highlight, textarea { position: absolute; inset: 0; white-space: pre; overflow: auto; }
        .highlight { pointer-events: none; overflow: hidden; }
        textarea { width: 100%; height: 100%; resize: none; border: 0; outline: none; background: transparent; color: transparent;
          caret-color: var(--fg); }
        textarea::selection { background: color-mix(in srgb, var(--accent) 30%, transparent); color: transparent; }
        .kw { color: var(--keyword); font-weight: 600; }
        .str { color: var(--string); }
        .num { color: var(--number); }
        .com { color: var(--comment); font-style: italic; }
        .bad-line { background: var(--error-bg); }
        #diagnostics { list-style: none; padding: 0; margin: 8px 0 0; color: var(--error); font: 13px/1.4 var(--mono); }
        #diagnostics li { cursor: pointer; white-space: pre-wrap; }
        #status { color: var(--muted); margin: 4px 0 8px; min-height: 1.4em; }
        #status.fails { color: var(--error); font-weight: 600; }
        #status.proven { color: var(--number); font-weight: 600; }
        pre#result, pre#screen { font: 12.5px/1.45 var(--mono); background: var(--panel); border: 1px solid var(--line); border-radius: 8px;
          padding: 10px; margin: 0 0 10px; overflow: auto; max-height: 70vh; white-space: pre; }
        pre#result:empty { display: none; }
        #threads button { font-family: var(--mono); }
        #picture { margin: 0 0 10px; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 6px; overflow: auto; max-height: 60vh; }
        #picture img { display: block; max-width: 100%; height: auto; }
        #picture figcaption { color: #555; font-size: 12px; margin-top: 4px; }
        main.stepping { grid-template-columns: minmax(0, 1fr); }
        main.stepping #code-panel { display: none; }
        .keys { color: var(--muted); font-size: 13px; margin: 0 0 8px; }
        summary { color: var(--muted); cursor: pointer; margin-bottom: 6px; }
        #course { padding: 8px 16px 0; }
        #levels { columns: 3 260px; margin: 0; padding-left: 24px; font-size: 14px; }
        #levels button { border: 0; background: none; padding: 1px 0; text-align: left; }
        #levels button.current { font-weight: 700; color: var(--accent); }
        """
}
