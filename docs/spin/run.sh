#!/bin/sh
# Times SPIN end to end on each model (generation, compilation, verification), as
# docs/PERFORMANCE.md reports it. Needs spin and gcc (apt-get install spin).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
for model in counter33 counter42 peterson filter3 philosophers5; do
    cp "$model.pml" "$tmp/"
    start=$(date +%s.%N)
    (cd "$tmp" && spin -a "$model.pml" > /dev/null && gcc -O2 -o pan pan.c && ./pan -m100000 > "$model.out" 2>&1 || true)
    end=$(date +%s.%N)
    states=$(grep -m1 "states, stored" "$tmp/$model.out" | awk '{print $1}')
    errors=$(grep -m1 "errors:" "$tmp/$model.out" | sed 's/.*errors: *//')
    printf '%-14s %10s states  errors %-3s %6.2f s\n' "$model" "$states" "$errors" "$(echo "$end - $start" | bc)"
done
# Non-progress cycles under weak fairness: Peterson has none, the polite threads one.
for model in peterson polite; do
    cp "$model.pml" "$tmp/"
    start=$(date +%s.%N)
    (cd "$tmp" && spin -a "$model.pml" > /dev/null && gcc -O2 -DNP -o pan pan.c && ./pan -l -f > "$model.np" 2>&1 || true)
    end=$(date +%s.%N)
    errors=$(grep -m1 "errors:" "$tmp/$model.np" | sed 's/.*errors: *//')
    printf '%-14s non-progress cycles: errors %-3s %6.2f s\n' "$model" "$errors" "$(echo "$end - $start" | bc)"
done
rm -rf "$tmp"
