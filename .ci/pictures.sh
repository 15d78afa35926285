#!/usr/bin/env bash
# The pictures checked by the tools that read them: every wait-for graph through
# Graphviz's dot, and an SVG timeline rendered by headless Chromium into a PNG that
# is not blank. Installs graphviz and chromium from Debian's packages if missing.
set -euo pipefail
bin="$1"
need=()
command -v dot > /dev/null || need+=(graphviz)
command -v chromium > /dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" > /dev/null; }; then
    # Say so loudly: the pictures' own tests (ExportTests) still ran in swift test.
    echo "WARNING: could not install ${need[*]} from Debian's packages: the browser and Graphviz checks are SKIPPED"
    exit 0
  fi
fi
out=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
# Every run that deadlocks draws a graph dot accepts.
for version in "deadlock" "deadlock --fix mainSync" "queue-sync-deadlock" "dispatch-group --fix mainSync" "bounded-buffer --fix whileSignal"; do
  # shellcheck disable=SC2086
  "$bin" export $version --format dot -o "$out/graph.dot" > /dev/null
  dot -Tsvg "$out/graph.dot" -o "$out/graph.svg" || { echo "dot rejects the wait-for graph of $version"; exit 1; }
done
# A run that takes two locks in opposite orders without deadlocking: its lock order.
"$bin" export deadlock --schedule "A*6 B*6" --format dot -o "$out/order.dot" > /dev/null
grep -q "digraph lockorder" "$out/order.dot" || { echo "no lock-order graph of the inversion"; exit 1; }
dot -Tsvg "$out/order.dot" -o "$out/order.svg" || { echo "dot rejects the lock-order graph"; exit 1; }
# A graph of a run that neither deadlocks nor inverts a lock order is refused (exit 65).
set +e
"$bin" export deadlock --fix mutex --format dot > /dev/null 2>&1; [ $? -eq 65 ] || { echo "a graph of no deadlock should exit 65"; exit 1; }
set -e
# The SVG timeline renders in a browser, and is not blank (png.py: its image data has
# more than a handful of byte values).
"$bin" export singleton-race --counterexample --format svg -o "$out/timeline.svg" > /dev/null
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=900,500 \
  --screenshot="$out/timeline.png" "file://$out/timeline.svg" > /dev/null 2>&1
python3 "$here/png.py" "$out/timeline.png" timeline
# Mermaid itself reads every scenario's sequence diagram: the streamlit-mermaid wheel
# from PyPI bundles Mermaid in a page (no npm needed); mermaid.py has it draw each one.
mkdir -p "$out/mermaid"
if python3 -m pip download --quiet --no-deps --dest "$out/wheel" streamlit-mermaid==0.3.0 > /dev/null 2>&1; then
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$out"/wheel/*.whl "$out/wheel"
  for file in Scenarios/*.race; do
    "$bin" export "$(basename "$file" .race)" --format mermaid -o "$out/mermaid/$(basename "$file" .race).mmd" > /dev/null
  done
  "$bin" export async-operation --counterexample --format mermaid -o "$out/mermaid/async-operation-counterexample.mmd" > /dev/null
  python3 "$here/mermaid.py" "$out/wheel/streamlit_mermaid/frontend/build" "$out"/mermaid/*.mmd
else
  echo "WARNING: could not fetch streamlit-mermaid from PyPI: Mermaid's own reading of the diagrams is SKIPPED"
fi
# The lesson page in a browser, played with real key presses (press-keys.py drives
# Chromium over the DevTools protocol): every key's step, every undo and the end are
# checked against 'racelab run' for the same threads (check-play.py); reaching the goal
# shows the debrief, and so does a proven fix played to its end. The pages are listed
# first, then played in one browser (press-keys.py --to), then checked.
keys=()  # press-keys.py's pages to play: --to JSON PAGE KEY..., each
lesson() {  # lesson NAME [FIX]: sets $page, the lesson page, exported once
  page="$out/lesson-$1${2:+-$2}.html"
  [ -f "$page" ] || "$bin" export "$1" ${2:+--fix "$2"} --format html -o "$page" > /dev/null
}
plays=()  # check-play.py's checks, three words each: JSON NAME FIX
play() {  # play NAME FIX KEYS...
  local name="$1" fix="$2" json="$out/play-${#plays[@]}.json"
  shift 2
  lesson "$name" "$fix"
  keys+=(--to "$json" "$page" "$@")
  plays+=("$json" "$name" "$fix")
}
play singleton-race "" 2 3 2 3 u u 3 2 2 2 2 2 3 3 3 3
play singleton-race mutex 2 3 3 2 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3 3 3
play deadlock "" 2 u 3 2 3 2 3
play lost-update "" 2 3 3 3 3 u 2 2 3 2 3
# The page's hint agrees with step mode's, word for word, from the same state: a
# failure ahead (the singleton race after A, B) and a livelock ahead and here.
hints=()  # the hints' checks, three words each: JSON STEP-OUTPUT NAME
hint_agrees() {  # hint_agrees NAME KEYS...
  local name="$1" json="$out/hint-${#hints[@]}.json" step="$out/step-${#hints[@]}.txt"
  shift
  lesson "$name"
  keys+=(--to "$json" "$page" "$@")
  printf '%s\n' "$@" q | COLUMNS=400 "$bin" step "$name" --challenge > "$step"
  hints+=("$json" "$step" "$name")
}
hint_agrees singleton-race 2 3 h h h
hint_agrees polite-livelock h h h
hint_agrees polite-livelock 2 3 h h h
# A livelock never ends: its goal is reached by going round its loop, every thread
# taking a step; the page's debrief says what step mode's challenge says.
lesson polite-livelock
keys+=(--to "$out/loop.json" "$page" 2 3 2 2 2 3 3 3)
printf '%s\n' A B A A A B B B q | COLUMNS=400 "$bin" step polite-livelock --challenge > "$out/loop.txt"
# All of them played, in one browser; then checked.
python3 "$here/press-keys.py" "${keys[@]}"
for ((i = 0; i < ${#plays[@]}; i += 3)); do
  python3 "$here/check-play.py" "${plays[i]}" "$bin" "${plays[i + 1]}" ${plays[i + 2]:+"${plays[i + 2]}"}
done
for ((i = 0; i < ${#hints[@]}; i += 3)); do
  python3 - "${hints[@]:i:3}" <<'PY'
import sys, json
page = json.load(open(sys.argv[1]))[-1]["hint"]
step = " ".join(open(sys.argv[2]).read().split())
assert page and page in step, "%s: the page says %r, step mode does not:\n%s" % (sys.argv[3], page, step[-600:])
print("lesson page hint (%s): %s" % (sys.argv[3], page))
PY
done
python3 - "$out/loop.json" "$out/loop.txt" <<'PY'
import sys, json
moments = json.load(open(sys.argv[1]))
step = " ".join(open(sys.argv[2]).read().split())
assert all(m["debrief"] is None for m in moments[:-1]), "the debrief showed before the loop was gone round"
debrief = moments[-1]["debrief"] or []
assert debrief and debrief[0].startswith("Goal reached in 8 steps"), "no debrief: %r" % debrief
said = debrief[0].split(": ", 1)[1]
assert "Challenge won" in step and said[0].upper() + said[1:] in step, "the page says %r, step mode does not" % said
assert debrief[1] in step, "the page says %r, step mode does not" % debrief[1]
print("lesson page livelock goal: %s" % said)
PY
lesson singleton-race
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,900 \
  --screenshot="$out/page.png" "file://$page#moves=2,3" > /dev/null 2>&1
python3 "$here/png.py" "$out/page.png" "lesson page"
# Every scenario's page and timeline open in the browser: the page's script runs (the
# lanes and the status line are filled in), its story watched with the page's own
# button says what the run says (check-play.py), and the SVG is drawn (not blank). One
# browser for them all, the exports made beside it (scenario-pages.py).
python3 "$here/scenario-pages.py" "$bin" "$out/scenarios" Scenarios/*.race
echo "every scenario's page and timeline opened in the browser, and its story watched on the page as the run tells it"
rm -rf "$out"
