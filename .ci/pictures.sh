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
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" > /dev/null
fi
out=$(mktemp -d)
# Every run that deadlocks draws a graph dot accepts.
for version in "deadlock" "deadlock --fix mainSync" "queue-sync-deadlock" "dispatch-group --fix mainSync" "bounded-buffer --fix whileSignal"; do
  # shellcheck disable=SC2086
  "$bin" export $version --format dot -o "$out/graph.dot" > /dev/null
  dot -Tsvg "$out/graph.dot" -o "$out/graph.svg" || { echo "dot rejects the wait-for graph of $version"; exit 1; }
done
# A graph of a run that does not deadlock is refused (exit 65).
set +e
"$bin" export deadlock --fix mutex --format dot > /dev/null 2>&1; [ $? -eq 65 ] || { echo "a graph of no deadlock should exit 65"; exit 1; }
set -e
# The SVG timeline renders in a browser, and is not blank.
"$bin" export singleton-race --counterexample --format svg -o "$out/timeline.svg" > /dev/null
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=900,500 \
  --screenshot="$out/timeline.png" "file://$out/timeline.svg" > /dev/null 2>&1
python3 - "$out/timeline.png" <<'PY'
import sys, zlib, struct
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
# Decompress the image data and count distinct byte values: a blank page has one or two.
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + length]
    pos += 12 + length
raw = zlib.decompress(idat)
assert len(set(raw)) > 8, "the screenshot is blank"
print("timeline screenshot: %d bytes, %d distinct values" % (len(data), len(set(raw))))
PY
rm -rf "$out"
