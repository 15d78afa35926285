// Asks the WebAssembly build what the native CLI is asked, and requires the same
// answer byte for byte (but for the memory a search held): for each scenario file, `racelab explore playground.race
// --format json` (run in a folder holding the file under that name) against the
// module's `explore` action on the same source.
//   node check.mjs racelab.wasm path/to/racelab Scenarios/*.race
import { execFileSync } from "node:child_process";
import { webcrypto } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [wasmPath, nativePath, ...scenarios] = process.argv.slice(2);
let api;
// What the module imports: the clock (for --time-limit), and from WASI what wasi-libc
// asks for: random bytes (the seed of Swift's hashing, which reaches no output) and
// standard error (the message of a Swift trap).
const wasi = {
  random_get(at, length) {
    // Node before 19 has no global `crypto` (Debian's is 18).
    webcrypto.getRandomValues(new Uint8Array(api.memory.buffer, at, length));
    return 0;
  },
  fd_write(fd, iovs, count, written) {
    const view = new DataView(api.memory.buffer);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const base = view.getUint32(iovs + 8 * i, true), length = view.getUint32(iovs + 8 * i + 4, true);
      process.stderr.write(new Uint8Array(api.memory.buffer, base, length));
      total += length;
    }
    view.setUint32(written, total, true);
    return 0;
  },
  fd_close: () => 0,
  fd_seek: () => 70, // ESPIPE: standard error cannot seek
};
const imports = { racelab: { host_milliseconds: () => performance.now() }, wasi_snapshot_preview1: wasi };
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), imports);
api = instance.exports;

/// One request to the module, one parsed response.
function respond(request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const at = api.racelab_alloc(bytes.length);
  new Uint8Array(api.memory.buffer, at, bytes.length).set(bytes);
  const length = api.racelab_respond(at, bytes.length);
  api.racelab_free(at);
  const text = new TextDecoder().decode(new Uint8Array(api.memory.buffer, api.racelab_response(), length));
  return JSON.parse(text);
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "racelab-wasm-"));
const native = path.resolve(nativePath);
let failures = 0;
let asked = 0;

/// `racelab explore playground.race --format json [--fix F]` natively, and the
/// module's `explore` of the same source: the same status and text, or a failure.
function compare(name, source, version) {
  fs.writeFileSync(path.join(folder, "playground.race"), source);
  const fix = version === "broken" ? [] : ["--fix", version];
  let stdout, status;
  try {
    const options = { cwd: folder, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] };
    stdout = execFileSync(native, ["explore", "playground.race", "--format", "json", ...fix], options);
    status = 0;
  } catch (error) {
    // A script error is printed on standard error, as the module's result is.
    stdout = error.status === 65 ? error.stderr : error.stdout;
    status = error.status;
  }
  const started = performance.now();
  const response = respond(version === "broken" ? { action: "explore", source } : { action: "explore", source, fix: version });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  // The memory a search holds is the one figure that differs: wasm32's pointers
  // and Ints are half as wide, so the same states take less of it.
  const plain = (text) => text.replace(/"memoryBytes": \d+/g, '"memoryBytes": …');
  const same = response.status === status && plain(response.result) === plain(stdout);
  console.log(`${same ? "same" : "DIFFERENT"}  ${name}  status ${response.status}  ${seconds} s`);
  asked += 1;
  if (!same) {
    failures += 1;
    fs.writeFileSync(path.join(folder, `${name}.native.txt`), stdout);
    fs.writeFileSync(path.join(folder, `${name}.wasm.txt`), response.result);
  }
}

for (const scenario of scenarios) {
  const source = fs.readFileSync(scenario, "utf8");
  for (const version of respond({ action: "check", source }).versions) {
    compare(`${path.basename(scenario, ".race")} ${version}`, source, version);
  }
}
// What a hostile page could send: nesting at and past the parser's limit (the
// module's stack must hold what the native one does), Windows line ends, Int.max
// (a script's Int has 64 bits in both builds), values that double every step, an
// index and a semaphore past 32 bits, and a loop that never ends.
const hostile = {
  "deep nesting": `var x = ${"(".repeat(10000)}1${")".repeat(10000)}\nthread A {\n    x += 1\n}\n`,
  "nesting just inside the limit": `var x = ${"(".repeat(250)}1${")".repeat(250)}\nthread A {\n    x += 1\n}\n`,
  "windows line ends": "var x = 0\r\nthread A {\r\n    x += 1\r\n}\r\nthread B {\r\n    x += 1\r\n}\r\nexpect x == 2, \"both\"\r\n",
  "int max": "var x = 9223372036854775807\nthread A {\n    x += 1\n}\n",
  "doubling": "var x = 1\nthread A {\n    while true {\n        x = x * 2\n    }\n}\n",
  "index past 32 bits": "var xs = [1, 2]\nthread A {\n    xs[4294967297] = 3\n}\n",
  "semaphore past 32 bits": "let s = DispatchSemaphore(value: 4294967296)\nthread A {\n    s.wait()\n}\n",
  "sleep past 32 bits": "var x = 0\ntask T {\n    try? await Task.sleep(for: .milliseconds(4294967297))\n    x = 1\n}\n",
  "runaway loop": "var x = 0\nthread A {\n    while true {\n        x += 1\n    }\n}\nthread B {\n    x = 0\n}\n",
};
for (const [name, source] of Object.entries(hostile)) compare(name, source, "broken");
const refused = respond({ action: "explore" });
if (refused.status !== 64 || refused.result !== "error: the request carries no source\n") {
  console.log("a bad request is not refused as the native build refuses it");
  failures += 1;
}
if (failures > 0) {
  console.log(`${failures} answers differ from the native build (both kept in ${folder})`);
  process.exit(1);
}
fs.rmSync(folder, { recursive: true });
console.log(`the WebAssembly build answers as the native one on ${asked} versions of ${scenarios.length} scenarios`);
