#!/usr/bin/env python3
"""Every scenario's lesson page and SVG timeline, opened in one headless Chromium.

    scenario-pages.py RACELAB OUT-FOLDER SCENARIO.race...

For each scenario (its exports made two at a time, while the browser works on those
already made):
- its page (`racelab export NAME --format html`) opens and its script runs: the DOM
  once the page has loaded (what `chromium --dump-dom` prints) has the lanes, the first
  "main", the status line filled in, and at least 3 versions;
- if it has `schedule story`, its story is watched: the page's own button is clicked
  (press-keys.py's `click:#watch button`) and what the page then shows is checked by
  check-play.py --unfinished against `racelab run`;
- its timeline (`racelab export NAME --format svg`) is drawn at 800 x 600 without
  scrollbars, and the screenshot is not blank (png.py).
Any failure stops it with the scenario's name and exit 1.
"""
import concurrent.futures
import importlib.util
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from browser import Browser  # noqa: E402
from png import not_blank  # noqa: E402

spec = importlib.util.spec_from_file_location("press_keys", os.path.join(here, "press-keys.py"))
press_keys = importlib.util.module_from_spec(spec)
spec.loader.exec_module(press_keys)

DOM = "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '') + document.documentElement.outerHTML"


def check_dom(dom, name):
    lanes = re.findall(r'class="lane(?: idle)?" data-thread="([^"]*)"', dom)
    status = re.search(r'<p id="status">([^<]+)</p>', dom)
    versions = re.findall(r'data-version="([^"]*)"', dom)
    assert lanes and lanes[0] == "main", "%s: no lanes after the page's script ran" % name
    assert status, "%s: the page's script did not fill in the status" % name
    assert len(versions) >= 3, "%s: the page shows %d versions" % (name, len(versions))


def run(command):
    """A command's exit status and everything it printed."""
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout


def main():
    racelab, out, files = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3:]
    assert files, "no scenarios given"
    os.makedirs(out, exist_ok=True)
    workers = concurrent.futures.ThreadPoolExecutor(max_workers=2)

    def export(name, kind):
        status, text = run([racelab, "export", name, "--format", kind, "-o", os.path.join(out, name + "." + kind)])
        if status != 0:
            raise SystemExit("%s: racelab export --format %s exits %d:\n%s" % (name, kind, status, text))

    names = [os.path.basename(file)[:-len(".race")] for file in files]
    pages = {workers.submit(export, name, "html"): (file, name) for file, name in zip(files, names)}
    timelines = {workers.submit(export, name, "svg"): name for name in names}
    checks = []  # (name, check-play.py's answer to come)
    browser = Browser()
    try:
        # The pages, one after the other in one tab, each as soon as it is exported.
        browser.open("about:blank")
        for exported in concurrent.futures.as_completed(pages):
            exported.result()
            file, name = pages[exported]
            path = os.path.join(out, name)
            # The page, as it is once loaded: its script has filled it in.
            browser.go("file://" + path + ".html")
            dom = browser.evaluate(DOM)
            with open(path + ".dom", "w") as saved:
                saved.write(dom + "\n")
            check_dom(dom, name)
            # Its story, watched: the page's own button plays it, and it says what the run says.
            with open(file) as source:
                story = any(line.startswith("schedule story") for line in source)
            if story:
                browser.wait(press_keys.READY, "%s: the page did not get ready" % name)
                try:
                    moments = press_keys.play(browser, ["click:#watch button"])
                except AssertionError as failure:
                    raise SystemExit("%s: %s" % (name, failure))
                with open(path + ".json", "w") as saved:
                    print(json.dumps(moments, indent=1), file=saved)
                command = [sys.executable, os.path.join(here, "check-play.py"), path + ".json", racelab, name, "--unfinished"]
                checks.append((name, workers.submit(run, command)))
        browser.close_page()
        # The timelines, in another tab, drawn as `chromium --screenshot --window-size=800,600
        # --hide-scrollbars` draws them.
        browser.open("about:blank")
        browser.size(800, 600)
        browser.send("Emulation.setScrollbarsHidden", hidden=True)
        for exported in concurrent.futures.as_completed(timelines):
            exported.result()
            name = timelines[exported]
            path = os.path.join(out, name)
            browser.go("file://" + path + ".svg")
            browser.screenshot(path + ".png", clip=dict(x=0, y=0, width=800, height=600))
            not_blank(path + ".png", name + " timeline")
        browser.close_page()
    except BaseException:
        workers.shutdown(cancel_futures=True)
        raise
    finally:
        browser.close()
    for name, check in checks:
        status, text = check.result()
        if status != 0:
            sys.stdout.write(text)
            raise SystemExit("%s: the story watched on the page is not what the run tells (check-play.py exits %d)" % (name, status))
    workers.shutdown()
    print("%d scenarios: every page and timeline opened in the browser, %d stories watched on the page as the run tells them" % (
        len(names), len(checks)))


main()
