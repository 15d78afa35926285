#!/usr/bin/env python3
"""The playground page in headless Chromium, against the native CLI.

    playground.py RACELAB PAGE.html OUT-FOLDER [COURSE.html]

- every shipped scenario, opened from the page's list: Explore of each version and
  Verify, in JSON, equal what `racelab explore/verify --format json` prints for the
  same file (the memory a search holds aside: wasm32's values are narrower);
- a Step session played with key presses equals `racelab step` given the same moves;
- every exercise's starter, and its reference solution pasted into the editor,
  grade as `racelab grade` grades the same file;
- a link `#src=…&do=explore` to a program written here shows its verdict in #result;
- Stop ends a search that would run for a minute, and the page answers again;
- the page's size, the time until it is interactive, and screenshots at 1200 and
  390 px (OUT-FOLDER);
- the course (`racelab course`): it opens on its first level; exploring it marks it
  done; Next level opens the second; a reload keeps the progress and opens there.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402

racelab, page, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
course = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
scenarios = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Scenarios")
solutions = os.path.join(os.path.dirname(scenarios), "Tests", "RaceLabGradingTests", "Solutions")
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp()
failures = []
asked = 0


def native(arguments, source, name, input_text="", environment=None):
    """`racelab ARGUMENTS` in a folder holding `source` as `name`: status and text."""
    with open(os.path.join(work, name), "w") as file:
        file.write(source)
    env = dict(os.environ, **(environment or {}))
    done = subprocess.run([racelab] + arguments, cwd=work, input=input_text, capture_output=True, text=True, env=env)
    return done.returncode, done.stdout + done.stderr


def plain(text):
    return re.sub(r'"memoryBytes": \d+', '"memoryBytes": …', text)


browser = Browser()
started = time.time()
browser.open("file://" + page, ready="window.racelab && racelab.answered > 0")
interactive = browser.evaluate("racelab.interactiveAt") / 1000
browser.size(1200, 900)


def answer(action):
    """Presses an action's button and waits for its answer: the request, status and text."""
    before = browser.evaluate("racelab.answered")
    browser.evaluate("document.getElementById('do-%s').click()" % action)
    browser.wait("racelab.answered > %d && !racelab.busy" % before, "no answer to " + action, seconds=120)
    return browser.evaluate("[racelab.lastRequest, racelab.lastResponse.status, document.getElementById('result').textContent]")


def same(what, request, status, text, source, name, input_text=""):
    global asked
    asked += 1
    environment = request["environment"]
    expected_status, expected = native(request["arguments"], source, name, input_text, environment)
    if expected_status != status or plain(expected) != plain(text):
        failures.append(what)
        with open(os.path.join(out, re.sub(r"[^A-Za-z0-9.-]+", "_", what) + ".txt"), "w") as file:
            file.write("native %d\n%s\n--- page %d\n%s" % (expected_status, expected, status, text))
        print("DIFFERENT  " + what)


def open_program(path):
    """Chooses a program from the page's list and waits for its versions."""
    before = browser.evaluate("racelab.answered")
    browser.evaluate("{ const s = document.getElementById('program'); s.value = %s; s.dispatchEvent(new Event('change')); }" % json.dumps(path))
    browser.wait("racelab.answered > %d && !racelab.busy" % before, "no versions for " + path)
    return browser.evaluate("[...document.getElementById('version').options].map(o => o.value)")


browser.evaluate("document.getElementById('json').checked = true")
names = sorted(name for name in os.listdir(scenarios) if name.endswith(".race"))
for name in names:
    source = open(os.path.join(scenarios, name)).read()
    for version in open_program("Scenarios/" + name):
        browser.evaluate("document.getElementById('version').value = %s" % json.dumps(version))
        request, status, text = answer("explore")
        same("explore %s %s" % (name, version or "broken"), request, status, text, source, name)
    request, status, text = answer("verify")
    same("verify " + name, request, status, text, source, name)
browser.evaluate("document.getElementById('json').checked = false")

# Runs: a named schedule, a schedule of one's own, and a seed.
source = open(os.path.join(scenarios, "singleton-race.race")).read()
open_program("Scenarios/singleton-race.race")
for schedule in ["story", "A B A B", "7"]:
    browser.evaluate("document.getElementById('schedule').value = %s" % json.dumps(schedule))
    request, status, text = answer("run")
    same("run singleton-race " + schedule, request, status, text, source, "singleton-race.race")
browser.evaluate("document.getElementById('schedule').value = ''")

# Step: thread keys, undo, explain, the hint and Enter, pressed on the page; the
# first one as a challenge.
for name in ["singleton-race.race", "deadlock.race", "actor-reentrancy.race"]:
    source = open(os.path.join(scenarios, name)).read()
    open_program("Scenarios/" + name)
    browser.evaluate("document.getElementById('version').value = ''")
    browser.evaluate("document.getElementById('challenge').checked = %s" % ("true" if name == "singleton-race.race" else "false"))
    request, status, text = answer("step")
    for key in ["2", "2", "3", "u", "e", "h", "Enter", "1"]:
        before = browser.evaluate("racelab.answered")
        browser.press(key)
        screen = browser.evaluate("document.getElementById('lanes').innerText")
        browser.wait("racelab.answered > %d && !racelab.busy" % before, "%s: no answer to the key %s on\n%s" % (name, key, screen))
    request, status, text = browser.evaluate("[racelab.lastRequest, racelab.lastResponse.status, document.getElementById('result').textContent]")
    same("step %s %s" % (name, request["input"].replace("\n", ",")), request, status, text, source, name, request["input"])
    if name == "singleton-race.race":
        browser.screenshot(os.path.join(out, "playground-step-1200.png"))

# Grading: each exercise's starter, then its reference solution in the editor.
for name in sorted(os.listdir(os.path.join(scenarios, "Exercises"))):
    if not name.endswith(".race"):
        continue
    starter = open(os.path.join(scenarios, "Exercises", name)).read()
    open_program("Scenarios/Exercises/" + name)
    request, status, text = answer("grade")
    same("grade starter " + name, request, status, text, starter, name)
    if os.path.exists(os.path.join(solutions, name)):
        solution = open(os.path.join(solutions, name)).read()
        browser.evaluate("{ const e = document.getElementById('source'); e.value = %s; e.dispatchEvent(new Event('input')); }" % json.dumps(solution))
        request, status, text = answer("grade")
        same("grade solution " + name, request, status, text, solution, name)

# A link to a program written here, opened with its action.
program = "var hits = 0\nthread A {\n    hits += 1\n}\nthread B {\n    hits += 1\n}\nexpect hits == 2, \"both land\"\n"
encoded = base64.urlsafe_b64encode(program.encode()).decode().rstrip("=")
browser.open("file://" + page + "#src=" + encoded + "&do=explore", ready="window.racelab && racelab.answered > 1 && !racelab.busy")
request, status, text = browser.evaluate("[racelab.lastRequest, racelab.lastResponse.status, document.getElementById('result').textContent]")
same("link #src=…&do=explore", request, status, text, program, "playground.race")
if status != 1 or "FAILS" not in text:
    failures.append("the link's verdict")
    print("the link's program should fail, and #result say so:\n" + text)

# Stop: a search that would take a minute ends at once, and the next answer comes. (An
# atomic counter: a plain one races, and a race soon ends the search by itself.)
slow = "atomic var x = 0\nthread A {\n    while true {\n        x += 1\n    }\n}\nthread B {\n    while true {\n        x -= 1\n    }\n}\n"
browser.evaluate("{ const e = document.getElementById('source'); e.value = %s; e.dispatchEvent(new Event('input')); }" % json.dumps(slow))
browser.evaluate("document.getElementById('do-explore').click()")
time.sleep(1)
stopped_at = time.time()
browser.evaluate("document.getElementById('stop').click()")
browser.wait("!racelab.busy", "Stop did not end the search")
if time.time() - stopped_at > 2 or "Stopped." not in browser.evaluate("document.getElementById('result').textContent"):
    failures.append("stop")
    print("Stop should end the search at once and say so")
request, status, text = answer("run")
same("run after stop", request, status, text, slow, "playground.race")

# Screenshots: the wide layout and a phone's.
browser.open("file://" + page + "#src=" + encoded + "&do=explore", ready="window.racelab && racelab.answered > 1 && !racelab.busy")
browser.size(1200, 900)
browser.screenshot(os.path.join(out, "playground-1200.png"))
browser.size(390, 844)
time.sleep(0.3)
browser.screenshot(os.path.join(out, "playground-390.png"))
wide = browser.evaluate("document.documentElement.scrollWidth")
if wide > 390:
    failures.append("390 px")
    print("at 390 px the page is %d px wide: it should fit" % wide)

if course:
    browser.size(1200, 900)
    browser.open("file://" + course, ready="window.racelab && racelab.answered > 0")
    state = "[document.getElementById('progress').textContent, document.getElementById('program').value]"
    seen = [browser.evaluate(state)]
    answer("explore")
    seen.append(browser.evaluate(state))
    before = browser.evaluate("racelab.answered")
    browser.evaluate("document.getElementById('next').click()")
    browser.wait("racelab.answered > %d && !racelab.busy" % before, "Next level opened nothing")
    seen.append(browser.evaluate(state))
    browser.open("file://" + course, ready="window.racelab && racelab.answered > 0")
    seen.append(browser.evaluate(state))
    levels = browser.evaluate("document.getElementById('levels').children.length")
    expected = [["Levels: 0 of %d done" % levels, "Scenarios/singleton-race.race"], ["Levels: 1 of %d done" % levels, "Scenarios/singleton-race.race"],
                ["Levels: 1 of %d done" % levels, "Scenarios/array-mutation.race"], ["Levels: 1 of %d done" % levels, "Scenarios/array-mutation.race"]]
    if seen != expected:
        failures.append("course")
        print("the course's progress: %s, expected %s" % (seen, expected))
browser.close()

size = os.path.getsize(page)
print("the page: %.2f MB, interactive %.2f s after it starts loading" % (size / 1e6, interactive))
if failures:
    print("%d of %d checks differ: %s (kept in %s)" % (len(failures), asked, ", ".join(failures), out))
    sys.exit(1)
print("the playground answers %d command lines as the native CLI does" % asked)
