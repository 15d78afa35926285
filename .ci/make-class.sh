#!/usr/bin/env bash
# Writes a class of N students (default 300) into FOLDER, each with a file for
# every shipped exercise: the reference solution, the starter, or a sample
# submission of that exercise, in turn, each with the student's name in a comment
# (so no two files are the same text). docs/PERFORMANCE.md times grading it.
#   .ci/make-class.sh FOLDER [N]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
count=${2:-300}
rm -rf "$out"
mkdir -p "$out"
for n in $(seq 1 "$count"); do
  student=$(printf 'student%03d' "$n")
  mkdir "$out/$student"
  for exercise in Scenarios/Exercises/*.race; do
    id=$(basename "$exercise" .race)
    choices=("Tests/RaceLabGradingTests/Solutions/$id.race" "$exercise")
    for sample in Tests/RaceLabGradingTests/Submissions/*/"$id.race"; do
      [ -f "$sample" ] && choices+=("$sample")
    done
    pick=${choices[$(( n % ${#choices[@]} ))]}
    { cat "$pick"; printf '// handed in by %s\n' "$student"; } > "$out/$student/$id.race"
  done
done
echo "$out: $count students, $(find "$out" -name '*.race' | wc -l) files"
