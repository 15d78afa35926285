#!/usr/bin/env bash
# Runs docs/TEACHING.md's Gradescope run_autograder and Classroom step as written,
# in the layouts the two services use, and checks what they write.
#   .ci/autograders.sh BIN
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The fenced block after a marker line of docs/TEACHING.md.
block() { awk -v marker="$1" 'index($0, marker) { found = 1; next } found && /^```/ { if (inside) exit; inside = 1; next } inside { print }' docs/TEACHING.md; }

# Gradescope: /autograder/{source,submission,results}, with racelab built in source/racelab.
root="$work/autograder"
mkdir -p "$root/source/racelab/.build/release" "$root/source/exercises" "$root/submission" "$root/results"
ln -s "$bin" "$root/source/racelab/.build/release/racelab"
cp Tests/RaceLabGradingTests/Solutions/singleton-fix.race "$root/submission/"
cp Tests/RaceLabGradingTests/Submissions/bob/stale-predict.race "$root/submission/"
block "<!-- run_autograder:" > "$root/source/run_autograder"
chmod +x "$root/source/run_autograder"
AUTOGRADER_ROOT="$root" "$root/source/run_autograder"
swift .ci/validate-autograder-json.swift gradescope "$root/results/results.json"
grep -q '"score": 10,' "$root/results/results.json" || { echo "Gradescope: the fix's 10 points, the wrong prediction's 0"; exit 1; }

# GitHub Classroom: the RaceLab step's script, in a student's checkout with RaceLab in .racelab.
repo="$work/student-repo"
mkdir -p "$repo/.racelab/.build/release"
ln -s "$bin" "$repo/.racelab/.build/release/racelab"
cp Tests/RaceLabGradingTests/Solutions/singleton-fix.race "$repo/"
echo "# my work" > "$repo/README.md"
block "<!-- classroom workflow:" | awk '/^        run: \|/ { inside = 1; next } inside && /^      - / { exit } inside { sub(/^          /, ""); print }' > "$work/step.sh"
(cd "$repo" && GITHUB_OUTPUT="$work/output" GITHUB_ACTOR=sam bash -e -o pipefail "$work/step.sh")
sed -n 's/^result=//p' "$work/output" | base64 -d > "$work/result.json"
swift .ci/validate-autograder-json.swift classroom "$work/result.json"
grep -q '"max_score": 20,' "$work/result.json" || { echo "Classroom: two assigned exercises, 20 points"; exit 1; }
# A student who handed in nothing: an empty Gradescope submission, and a Classroom
# repository with only its README. Each assigned exercise is a 'missing' row with its
# points, so the totals count it.
rm -rf "$root/submission" "$root/results" && mkdir -p "$root/submission" "$root/results"
AUTOGRADER_ROOT="$root" "$root/source/run_autograder"
swift .ci/validate-autograder-json.swift gradescope "$root/results/results.json"
[ "$(grep -c '"max_score": ' "$root/results/results.json")" = 2 ] || { echo "Gradescope, empty: a test per assigned exercise"; exit 1; }
grep -q '^  "score": 0,' "$root/results/results.json" && [ "$(grep -c '"missing"' "$root/results/results.json")" = 2 ] \
    || { echo "Gradescope, empty: 0 points, both exercises missing"; exit 1; }
empty="$work/empty-repo"
mkdir -p "$empty/.racelab/.build/release"
ln -s "$bin" "$empty/.racelab/.build/release/racelab"
echo "# nothing yet" > "$empty/README.md"
(cd "$empty" && GITHUB_OUTPUT="$work/output-empty" GITHUB_ACTOR=kim bash -e -o pipefail "$work/step.sh")
sed -n 's/^result=//p' "$work/output-empty" | base64 -d > "$work/result-empty.json"
swift .ci/validate-autograder-json.swift classroom "$work/result-empty.json"
grep -q '"max_score": 20,' "$work/result-empty.json" && [ "$(grep -c '"message": "missing: ' "$work/result-empty.json")" = 2 ] \
    || { echo "Classroom, README only: two missing exercises, 20 points"; exit 1; }
echo "autograders: ok"
