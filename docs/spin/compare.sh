#!/bin/sh
# RaceLab beside SPIN (issue 35): each model of docs/spin in both tools, one row a
# model, written as a table into docs/PERFORMANCE.md between the markers
# <!-- spin-compare:begin --> and <!-- spin-compare:end --> (appended with its own
# section when they are missing).
#
#   docs/spin/compare.sh [path/to/racelab]
#
# Installs SPIN (and gcc) from Debian when missing, and builds RaceLab in release
# from the package root unless a binary is given (as the argument or RACELAB=path).
# Settings, from the environment:
#   RACELAB=path       the racelab binary (the argument wins)
#   BUILD_PATH=dir     where to build RaceLab when no binary is given (swift build --build-path)
#   TIME_LIMIT=300     seconds each RaceLab search and each SPIN step (spin -a, gcc, pan) may take
#   RACELAB_OPTS=...   more options for `racelab explore` (default: --max-memory 8192)
#   PAN_OPTS=...       pan's options (default: -m100000, the search depth; -w is the row's)
#   SPIN_MEMLIM=8192   megabytes pan may use (gcc -DMEMLIM)
#   REPEAT=1           runs a row, each tool; the fastest run is kept
#   ROWS="a b"         only these rows (names as in the table's first column's file names)
#   OUTPUT=file        where the table goes (default docs/PERFORMANCE.md; - prints it only)
# The rows run one after another, never at once. Needs python3 (standard library
# only), to time each command and read its peak resident memory, and to read
# RaceLab's JSON.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
RACELAB=${1:-${RACELAB:-}}
TIME_LIMIT=${TIME_LIMIT:-300}
RACELAB_OPTS=${RACELAB_OPTS:---max-memory 8192}
PAN_OPTS=${PAN_OPTS:--m100000}
SPIN_MEMLIM=${SPIN_MEMLIM:-8192}
REPEAT=${REPEAT:-1}
OUTPUT=${OUTPUT:-$root/docs/PERFORMANCE.md}

# The rows: name | SPIN model | SPIN search (safety, or np: non-progress cycles) |
# pan's hash table, -w (2^w slots: about twice the states stored, at least 2^18; pan's
# default, -w24, is 128 MB that it clears, 0.1-0.2 s and 135 MB on every row) |
# RaceLab model | RaceLab's search options | what the row is. The philosophers rows run
# RaceLab's reduction (--reduction sleep-sets), as pan runs its own; on the counters and
# filter locks it saves steps but no states, and those rows keep every interleaving's
# count. A row that fails stops at
# its first failure in both tools (pan always does; RaceLab with --first-failure); the
# racy counter runs RaceLab's default search, whose DPOR reaches a final state at once
# (breadth first, every final state is 24 steps deep). No -w truncates a search: states that collide are
# chained, only slower.
rows='counter33|counter33.pml|safety|17|counter33.race|--search stateful|counter N=3 K=3, load/store, no check
counter42|counter42.pml|safety|19|counter42.race|--search stateful|counter N=4 K=2, load/store, no check
counter43|counter43.pml|safety|24|counter43.race|--search stateful|counter N=4 K=3, load/store, no check
counter-racy|counter-racy.pml|safety|18|counter-racy.race|--first-failure|racy counter N=4 K=3, checked at the end
filter3|filter3-reads.pml|safety|18|filter3.race|--search stateful|filter lock N=3
filter4|filter4.pml|safety|18|filter4.race|--search stateful|filter lock N=4
peterson|peterson-reads.pml|np|18|peterson.race|--search stateful|Peterson, 2 threads looping forever
polite|polite.pml|np|18|polite.race|--search stateful --first-failure|polite threads (livelock)
philosophers5|philosophers5.pml|safety|18|philosophers5.race|--search stateful --reduction sleep-sets --first-failure|dining philosophers N=5
philosophers8|philosophers8.pml|safety|19|philosophers8.race|--search stateful --reduction sleep-sets --first-failure|dining philosophers N=8
philosophers8-ordered|philosophers8-ordered.pml|safety|20|philosophers8-ordered.race|--search stateful --reduction sleep-sets|dining philosophers N=8, ordered forks'

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# SPIN and a C compiler (spin runs the C preprocessor on a model; pan is C).
if ! command -v spin > /dev/null 2>&1 || ! command -v gcc > /dev/null 2>&1; then
    echo "installing spin and gcc from Debian" >&2
    as_root apt-get install -y spin gcc || { as_root apt-get update && as_root apt-get install -y spin gcc; }
fi

# RaceLab, in release, unless a binary was given.
if [ -z "$RACELAB" ]; then
    echo "building racelab (release)" >&2
    if [ -n "${BUILD_PATH:-}" ]; then set -- --build-path "$BUILD_PATH"; else set --; fi
    (cd "$root" && swift build -c release --product racelab "$@" >&2)
    RACELAB="$(cd "$root" && swift build -c release --product racelab "$@" --show-bin-path)/racelab"
fi
[ -x "$RACELAB" ] || { echo "no racelab binary at $RACELAB" >&2; exit 66; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure OUT ERR LIMIT CMD...: runs CMD for at most LIMIT seconds (then kills its
# process group), stdout to OUT and stderr to ERR, and prints "seconds peak-KB status timed-out".
# The peak is the largest resident set of CMD and every process it waited for
# (getrusage's RUSAGE_CHILDREN, in a fresh python each time, so it is this command's).
cat > "$tmp/measure.py" << 'EOF'
import os, resource, signal, subprocess, sys, time
out, err, limit, cmd = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
with open(out, "wb") as o, open(err, "wb") as e:
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=o, stderr=e, start_new_session=True)
    try:
        status, timed_out = p.wait(timeout=limit), 0
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        status, timed_out = p.wait(), 1
    seconds = time.monotonic() - start
print("%.3f %d %d %d" % (seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status, timed_out))
EOF
measure() {
    python3 "$tmp/measure.py" "$@"
}

# RaceLab's JSON, read: "verdict|states" (verdict: proven, fails: what, cut: bound).
cat > "$tmp/racelab.py" << 'EOF'
import json, sys
try:
    e = json.load(open(sys.argv[1]))["explorations"][0]
except Exception:
    print("no result|"); sys.exit()
what = list(dict.fromkeys(e.get("findings") or []))
if e.get("dataRaces"): what.append("data race")
if e["verdict"] == "proven":
    verdict = "proven"
elif e["verdict"] == "fails":
    verdict = "fails: " + (", ".join(what) or "?")
else:
    verdict = "cut: " + str(e.get("cutBound"))
# DPOR stores no states: its executions instead.
count = str(e.get("states") or 0) if e.get("search") == "stateful" else "%d executions" % (e.get("executions") or 0)
print("%s|%s" % (verdict, count))
EOF

commas() { awk '{ n = $1; rest = substr($0, length($1) + 1); s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) } print n s rest }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "-"; else { r = a / b; printf (r >= 10 ? "%.0fx" : (r >= 1 ? "%.1fx" : "%.2fx")), r } }'; }
add() { awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { printf "%.3f", a + b + c }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
table="$tmp/table.md"
{
    echo "| model | SPIN verdict | SPIN states | SPIN s (end to end) | pan s | pan peak MB | RaceLab verdict | RaceLab states | RaceLab s | RaceLab peak MB | RaceLab ÷ SPIN end to end | RaceLab ÷ pan |"
    echo "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
} > "$table"

echo "$rows" | while IFS='|' read -r name pml mode hash race options what; do
    if [ -n "${ROWS:-}" ]; then
        case " $ROWS " in *" $name "*) ;; *) continue ;; esac
    fi
    echo "== $name: $what" >&2
    best_spin="" best_race=""
    run=0
    while [ "$run" -lt "$REPEAT" ]; do
        run=$((run + 1))
        # SPIN: generate, compile, verify, each timed; end to end is their sum.
        d="$tmp/$name"
        rm -rf "$d" && mkdir -p "$d" && cp "$here/$pml" "$d/"
        cc_flags="-O2 -DMEMLIM=$SPIN_MEMLIM"
        pan_flags="$PAN_OPTS -w$hash"
        if [ "$mode" = np ]; then cc_flags="$cc_flags -DNP"; pan_flags="$pan_flags -l -f"; fi
        cd "$d"
        set -- $(measure gen.out gen.err "$TIME_LIMIT" spin -a "$pml")
        gen_s=$1 gen_status=$3 gen_cut=$4
        set -- $(measure cc.out cc.err "$TIME_LIMIT" gcc $cc_flags -o pan pan.c)
        cc_s=$1 cc_status=$3 cc_cut=$4
        # shellcheck disable=SC2086
        set -- $(measure pan.out pan.err "$TIME_LIMIT" ./pan $pan_flags)
        pan_s=$1 pan_kb=$2 pan_cut=$4
        cd "$root"
        errors=$(sed -n 's/.*errors: *\([0-9]*\).*/\1/p' "$d/pan.out" | head -n 1)
        states=$(awk '/states, stored/ { print $1; exit }' "$d/pan.out")
        first=$(sed -n 's/^pan:1: \(.*\) (at depth.*/\1/p' "$d/pan.out" | head -n 1)
        if [ "$gen_status" != 0 ] || [ "$gen_cut" = 1 ]; then
            verdict="spin -a failed"
        elif [ "$cc_status" != 0 ] || [ "$cc_cut" = 1 ]; then
            verdict="gcc failed"
        elif [ "$pan_cut" = 1 ]; then
            verdict="cut: time (${TIME_LIMIT} s)"
        elif grep -q "max search depth too small" "$d/pan.out"; then
            verdict="cut: depth (-m)"
        elif grep -q "out of memory" "$d/pan.out" "$d/pan.err"; then
            verdict="cut: memory"
        elif [ "${errors:-x}" = 0 ]; then
            verdict="proven"
        elif [ -n "$errors" ]; then
            case "$first" in
            "invalid end state") first="deadlock (invalid end state)" ;;
            "assertion violated"*) first="assertion violated" ;;
            esac
            verdict="fails: ${first:-error}"
        else
            verdict="no result"
        fi
        spin_s=$(add "$gen_s" "$cc_s" "$pan_s")
        if [ -z "$best_spin" ] || less "$spin_s" "$(echo "$best_spin" | cut -d'|' -f3)"; then
            best_spin="$verdict|${states:-0}|$spin_s|$pan_s|$pan_kb"
        fi

        # RaceLab: the row's search, with the time limit (killed 120 s past it, should
        # it not stop: it reports what it had, which takes a moment).
        # shellcheck disable=SC2086
        set -- $(measure "$tmp/$name.json" "$tmp/$name.err" $((TIME_LIMIT + 120)) "$RACELAB" explore "$here/$race" $options --format json --time-limit "$TIME_LIMIT" $RACELAB_OPTS)
        race_s=$1 race_kb=$2 race_cut=$4
        result=$(python3 "$tmp/racelab.py" "$tmp/$name.json")
        [ "$race_cut" = 1 ] && result="cut: killed past the time limit|0"
        if [ -z "$best_race" ] || less "$race_s" "$(echo "$best_race" | cut -d'|' -f3)"; then
            best_race="$result|$race_s|$race_kb"
        fi
    done
    IFS='|' read -r s_verdict s_states s_s s_pan s_kb << EOF
$best_spin
EOF
    IFS='|' read -r r_verdict r_states r_s r_kb << EOF
$best_race
EOF
    line="| $what (\`$pml\` -w$hash, \`$race\` \`$options\`) | $s_verdict | $(echo "$s_states" | commas) | $(printf %.2f "$s_s") | $(printf %.2f "$s_pan") | $(mb "$s_kb") | $r_verdict | $(echo "$r_states" | commas) | $(printf %.2f "$r_s") | $(mb "$r_kb") | $(ratio "$r_s" "$s_s") | $(ratio "$r_s" "$s_pan") |"
    echo "$line" >&2
    echo "$line" >> "$table"
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo unknown)
[ -n "$(git -C "$root" status --porcelain 2> /dev/null)" ] && commit="$commit (with uncommitted changes)"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
memory=$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
block="$tmp/block.md"
{
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on commit $commit:"
    echo "$(nproc) cores, ${cpu:-unknown CPU}, $memory; load average $load_before before the rows,"
    echo "$load_after after. $(spin -V 2> /dev/null | head -n 1); $(gcc --version | head -n 1);"
    echo "$("$RACELAB" --version 2> /dev/null | head -n 1), release. Best of $REPEAT run(s) a row and tool."
    echo
    echo "- SPIN: \`spin -a\`, \`gcc -O2 -DMEMLIM=$SPIN_MEMLIM\`, \`pan $PAN_OPTS -wN\` (N is the row's, in its"
    echo "  first column) with its default partial-order reduction; the Peterson and polite rows add"
    echo "  \`-DNP\` and \`pan -l -f\`, the search for non-progress cycles under weak fairness, which"
    echo "  checks the assertions too. SPIN's end to end is \`spin -a\`, gcc and \`pan\`; on the small"
    echo "  rows it is mostly gcc."
    echo "- RaceLab: \`racelab explore FILE OPTIONS --format json --time-limit $TIME_LIMIT"
    echo "  $RACELAB_OPTS\`, with the row's options (in its first column)."
    echo "- Seconds are wall time; peak MB is the largest resident set (\`getrusage\`), of \`pan\` alone"
    echo "  for SPIN. States are SPIN's \"states, stored\" and RaceLab's distinct worlds. A ratio over"
    echo "  1x means RaceLab took longer."
    echo "- SPIN's search is depth first and stops at its first error; so does RaceLab's on the"
    echo "  failing rows (\`--first-failure\`). RaceLab's stateful search is breadth first and checks"
    echo "  an \`expect\` in final states only, so the racy counter runs the default search, whose"
    echo "  DPOR reaches final states at once; its count is DPOR's executions."
    echo
    cat "$table"
} > "$block"

if [ "$OUTPUT" = - ]; then
    cat "$block"
    exit 0
fi
if ! grep -q '<!-- spin-compare:begin -->' "$OUTPUT" || ! grep -q '<!-- spin-compare:end -->' "$OUTPUT"; then
    cat >> "$OUTPUT" << 'EOF'

### RaceLab beside SPIN (issue 35)

Each model of `docs/spin` in both tools, one row a model: a Promela model (`.pml`)
and a RaceLab program (`.race`) written to take the same steps, one shared read or
write a step (a busy-wait reads one variable a step in both). The RaceLab programs
use atomic variables where racelab-bench's use plain ones: a plain one is a data
race, which fails a RaceLab run and which SPIN does not look for. The table below is
the script's; rerun it with:

```sh
docs/spin/compare.sh                          # builds racelab in release; installs spin if missing
docs/spin/compare.sh .build/release/racelab   # or RACELAB=path: a racelab already built
```

<!-- spin-compare:begin -->
<!-- spin-compare:end -->
EOF
fi
awk -v block="$block" '
    /<!-- spin-compare:begin -->/ { print; while ((getline line < block) > 0) print line; skipping = 1; next }
    /<!-- spin-compare:end -->/ { skipping = 0 }
    !skipping { print }
' "$OUTPUT" > "$tmp/out.md"
cat "$tmp/out.md" > "$OUTPUT"
echo "wrote the table to $OUTPUT" >&2
