#!/usr/bin/env python3
"""Has Mermaid itself read sequence diagrams, in headless Chromium.

    mermaid.py COMPONENT_DIR [--screenshot PNG] DIAGRAM.mmd...

COMPONENT_DIR is the built page of the streamlit-mermaid wheel from PyPI (a page that
bundles Mermaid and draws the diagram it is sent in a message), so no npm is needed.
Each diagram must draw without a syntax error, with one actor per participant line,
one message per arrow line and one note per note line. --screenshot keeps a picture
of the first diagram.
"""
import json
import os
import sys

from browser import Browser

COUNT = """JSON.stringify({
  error: [...document.querySelectorAll(".error-text")].map(e => e.textContent).join(" "),
  actors: document.querySelectorAll("text.actor").length / 2,  // each drawn at the top and the bottom
  messages: document.querySelectorAll(".messageText").length,
  notes: document.querySelectorAll(".noteText").length,
})"""


def main():
    arguments = sys.argv[1:]
    component = arguments.pop(0)
    screenshot = None
    if arguments[:1] == ["--screenshot"]:
        screenshot = arguments[1]
        arguments = arguments[2:]
    page = "file://" + os.path.abspath(os.path.join(component, "index.html"))
    browser = Browser()
    try:
        for number, path in enumerate(arguments):
            code = open(path).read()
            lines = code.splitlines()
            if number == 0:
                browser.open(page)
            else:
                browser.go(page)  # a new document in the same tab: quicker than a new tab
            browser.size(1200, 800)
            render = {"isStreamlitMessage": True, "type": "streamlit:render", "dfs": [], "disabled": False,
                      "args": {"code": code, "width": "auto", "height": "auto", "pan": False, "zoom": False,
                               "show_controls": False, "key": None}}
            browser.evaluate("window.postMessage(%s, '*')" % json.dumps(render))
            browser.wait("!!document.querySelector('svg .actor, .error-text')", "%s: Mermaid drew nothing" % path)
            drawn = json.loads(browser.evaluate(COUNT))
            assert not drawn["error"], "%s: Mermaid says: %s" % (path, drawn["error"])
            expected = {
                "actors": sum(1 for line in lines if line.strip().startswith("participant ")),
                "messages": sum(1 for line in lines if "->>" in line),
                "notes": sum(1 for line in lines if line.strip().startswith("Note over ")),
            }
            for key, count in expected.items():
                assert drawn[key] == count, "%s: Mermaid drew %d %s, the diagram has %d" % (path, drawn[key], key, count)
            if screenshot and number == 0:
                box = json.loads(browser.evaluate(
                    "(r => JSON.stringify({x: r.x, y: r.y, width: r.width, height: r.height}))(document.querySelector('svg').getBoundingClientRect())"))
                browser.screenshot(screenshot, clip=box)
        print("Mermaid drew %d sequence diagrams, every actor, message and note" % len(arguments))
    finally:
        browser.close()


main()
