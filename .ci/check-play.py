#!/usr/bin/env python3
"""Checks what a lesson page showed while keys were pressed on it (press-keys.py's
output) against the engine, as 'racelab run' tells it.

    check-play.py MOMENTS.json RACELAB NAME [FIX] [--unfinished]

- a thread's key adds one step to the list, or, when that thread cannot run, none
  and the status says so;
- u takes the last step back, and the page shows again the shared state it showed
  when the list was that long;
- at the end, the steps listed are the sentences 'racelab run --schedule' prints for
  the same threads, the variables and objects shown are those of its final state, and
  the debrief says what the run says: the goal reached and the command to replay
  it, or, on a proven fix, that no order can reach it. With --unfinished, a run that
  goes on (a program that never ends) is checked for its steps only.
"""
import json
import subprocess
import sys

moments = json.load(open(sys.argv[1]))
arguments = [a for a in sys.argv[2:] if a != "--unfinished"]
unfinished = "--unfinished" in sys.argv
racelab, name = arguments[0], arguments[1]
fix = arguments[2] if len(arguments) > 2 else None
seen = {}  # the steps listed -> the shared state shown with them
previous = moments[0]
seen[tuple(previous["log"])] = previous["state"]
for moment in moments[1:]:
    key, log, before = moment["key"], moment["log"], previous["log"]
    if key.isdigit():
        if len(log) == len(before):
            assert log == before and ("cannot run" in moment["status"] or "is over" in moment["status"]), "key %s changed nothing, yet the page does not say why: %r" % (key, moment["status"])
        else:
            assert log[:-1] == before and len(log) == len(before) + 1, "key %s did not add one step" % key
            assert log[-1].startswith(moment["lanes"][int(key) - 1] + " "), "key %s ran %r" % (key, log[-1])
    elif key == "u":
        assert log == before[:-1], "u did not take back the last step"
        assert moment["state"] == seen[tuple(log)], "after u the page shows %r, not %r" % (moment["state"], seen[tuple(log)])
    seen.setdefault(tuple(log), moment["state"])
    previous = moment
last = moments[-1]
over = last["status"].startswith("The run is over")
assert over or unfinished, "the keys did not play the run to its end: %r" % last["status"]
schedule = " ".join(step.split(" ", 1)[0] for step in last["log"])
command = [racelab, "run", name] + (["--fix", fix] if fix else []) + ["--schedule", schedule]
run = subprocess.run(command, capture_output=True, text=True)
assert run.returncode in (0, 1), "racelab run: %s" % run.stderr
for step in last["log"]:
    for part in step.split("; "):
        assert part.split(" ", 1)[1] in run.stdout, "the page says %r, which the run does not" % part
if not over:
    print("%s%s: %d steps as 'racelab run' tells them, and it goes on" % (name, " --fix " + fix if fix else "", len(last["log"])))
    sys.exit(0)
final = run.stdout.split("\nFinal state\n", 1)[1].split("\n\n", 1)[0]
for line in last["state"]:
    # A variable, or the objects alive: as the run's final state says them.
    if " = " in line or line.startswith("objects: "):
        assert "  " + line + "\n" in final + "\n", "the page shows %r, the run's final state is\n%s" % (line, final)
debrief = " ".join(last["debrief"] or [])
if run.returncode == 1:
    assert debrief.startswith("Goal reached in %d steps" % len(last["log"])), "no debrief: %r" % debrief
    replay = "racelab run %s%s --schedule \"%s\"" % (name, " --fix " + fix if fix else "", schedule)
    assert replay in debrief, "the debrief does not say %r: %r" % (replay, debrief)
else:
    assert "No order of steps can reach the goal" in debrief or "Finished without reaching the goal" in debrief, "no debrief: %r" % debrief
print("%s%s: %d keys pressed, %d steps as 'racelab run' tells them, debrief: %s" % (
    name, " --fix " + fix if fix else "", len(moments) - 1, len(last["log"]), debrief[:60]))
