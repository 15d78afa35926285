#!/usr/bin/env python3
"""Opens a lesson page in headless Chromium and presses keys on it, as a reader would.

    press-keys.py PAGE.html KEY...   (for example: 2 3 u h, or click:#watch button)
    press-keys.py --to OUT.json PAGE.html KEY... [--to OUT.json PAGE.html KEY...]...

Drives the browser over the DevTools protocol (browser.py), so it needs nothing but
Python and Chromium. After loading the page and after each key it reads what the page
shows, and prints one JSON list: per moment the key pressed, the lanes, the marked
line of each thread's code, the steps listed, the shared state, the status line, the
hint, and the debrief (null while hidden). With --to, each page is played in turn in
one browser (quicker than one each), each freshly loaded, and its list written to OUT.json.
"""
import json
import os
import sys

from browser import Browser

READ = """(() => {
  const texts = sel => [...document.querySelectorAll(sel)].map(e => e.textContent);
  const box = document.getElementById("debrief");
  return JSON.stringify({
    lanes: [...document.querySelectorAll(".lane")].map(l => l.dataset.thread),
    marked: texts(".lane pre .now"),
    log: texts("#log li"), state: texts("#state li"),
    status: document.getElementById("status").textContent,
    hint: document.getElementById("hint").textContent,
    debrief: box.hidden ? null : [...box.children].map(p => p.textContent),
  });
})()"""


def play(browser, keys):
    """Reads the open page, then presses each key and reads it again: the moments."""
    moments = [dict(key=None, **json.loads(browser.evaluate(READ)))]
    for key in keys:
        if key.startswith("click:"):
            # A button, by a selector: the first that matches is clicked.
            found = browser.evaluate("(e => e ? (e.click(), true) : false)(document.querySelector(%s))" % json.dumps(key[6:]))
            assert found, "nothing on the page matches %r" % key[6:]
        else:
            browser.press(key)
        moments.append(dict(key=key, **json.loads(browser.evaluate(READ))))
    return moments


# The page's script has run once it has filled in the status line.
READY = "document.getElementById('status').textContent !== ''"


def main():
    arguments = sys.argv[1:]
    browser = Browser()
    try:
        if arguments[:1] != ["--to"]:
            page, keys = arguments[0], arguments[1:]
            browser.open("file://" + os.path.abspath(page), ready=READY)
            print(json.dumps(play(browser, keys), indent=1))
            return
        jobs = []  # [OUT.json, PAGE.html, KEY...] each
        for argument in arguments:
            if argument == "--to":
                jobs.append([])
            else:
                jobs[-1].append(argument)
        assert all(len(job) >= 2 for job in jobs), "each --to needs a file and a page"
        browser.open("about:blank")
        for out, page, *keys in jobs:
            browser.go("file://" + os.path.abspath(page), ready=READY)
            with open(out, "w") as file:
                print(json.dumps(play(browser, keys), indent=1), file=file)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
