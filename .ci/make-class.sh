#!/usr/bin/env bash
# Writes a class of N students (default 300) into FOLDER; docs/PERFORMANCE.md times
# grading it.
#   .ci/make-class.sh FOLDER [N]         each student hands in every shipped exercise:
#                                        the reference solution, the starter, or a sample
#                                        submission of it, in turn, with the student's
#                                        name in a comment (no two files are one text)
#   .ci/make-class.sh FOLDER N unique    each student hands in every fix-it's reference
#                                        solution with a counter of their own in its
#                                        first editable region inside code: every file
#                                        is a program of its own (no two share a token,
#                                        a state or a final world), so neither the
#                                        grader's cache nor any fingerprint merges two
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
count=${2:-300}
mode=${3:-mixed}
rm -rf "$out"
mkdir -p "$out"
for n in $(seq 1 "$count"); do
  student=$(printf 'student%03d' "$n")
  mkdir "$out/$student"
  for exercise in Scenarios/Exercises/*.race; do
    id=$(basename "$exercise" .race)
    if [ "$mode" = unique ]; then
      grep -q '^kind "fix it"' "$exercise" || continue
      awk -v n="$n" '
        !done && /^[ \t]+\/\/ begin editable/ {
          print; indent = $0; sub(/\/\/.*/, "", indent)
          print indent "var myTally = " n; print indent "myTally += 1"; done = 1; next
        }
        { print }' "Tests/RaceLabGradingTests/Solutions/$id.race" > "$out/$student/$id.race"
      continue
    fi
    choices=("Tests/RaceLabGradingTests/Solutions/$id.race" "$exercise")
    for sample in Tests/RaceLabGradingTests/Submissions/*/"$id.race"; do
      [ -f "$sample" ] && choices+=("$sample")
    done
    pick=${choices[$(( n % ${#choices[@]} ))]}
    { cat "$pick"; printf '// handed in by %s\n' "$student"; } > "$out/$student/$id.race"
  done
done
echo "$out: $count students, $(find "$out" -name '*.race' | wc -l) files"
