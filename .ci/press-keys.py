#!/usr/bin/env python3
"""Opens a lesson page in headless Chromium and presses keys on it, as a reader would.

    press-keys.py PAGE.html KEY...   (for example: 2 3 u h, or click:#watch button)

Drives the browser over the DevTools protocol (browser.py), so it needs nothing but
Python and Chromium. After loading the page and after each key it reads what the page
shows, and prints one JSON list: per moment the key pressed, the lanes, the marked
line of each thread's code, the steps listed, the shared state, the status line, the
hint, and the debrief (null while hidden).
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


def main():
    page, keys = sys.argv[1], sys.argv[2:]
    browser = Browser()
    try:
        # The page's script has run once it has filled in the status line.
        browser.open("file://" + os.path.abspath(page), ready="document.getElementById('status').textContent !== ''")
        moments = [dict(key=None, **json.loads(browser.evaluate(READ)))]
        for key in keys:
            if key.startswith("click:"):
                # A button, by a selector: the first that matches is clicked.
                found = browser.evaluate("(e => e ? (e.click(), true) : false)(document.querySelector(%s))" % json.dumps(key[6:]))
                assert found, "nothing on the page matches %r" % key[6:]
            else:
                browser.press(key)
            moments.append(dict(key=key, **json.loads(browser.evaluate(READ))))
        print(json.dumps(moments, indent=1))
    finally:
        browser.close()


main()
