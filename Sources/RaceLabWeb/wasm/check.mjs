// Asks the WebAssembly build what the native CLI is asked, and requires the same
// answer byte for byte (but for the memory a search held): for each version of each
// scenario file, and for hostile sources, `racelab explore playground.race --format
// json [--fix F]` (run in a folder holding the file under that name) against the
// module's `explore` action.
//   node check.mjs racelab.wasm path/to/racelab Scenarios/*.race
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { load } from "./host.mjs";

const [wasmPath, nativePath, ...scenarios] = process.argv.slice(2);
const { respond } = await load(wasmPath);

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "racelab-wasm-"));
const native = path.resolve(nativePath);
let failures = 0;
let asked = 0;

/// `racelab explore playground.race --format json [--fix F]` natively, and the
/// module's `explore` of the same source: the same status and text, or a failure.
function compare(name, source, version) {
  fs.writeFileSync(path.join(folder, "playground.race"), source);
  const fix = version === null ? [] : ["--fix", version];
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
  const response = respond(version === null ? { action: "explore", source } : { action: "explore", source, fix: version });
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
    compare(`${path.basename(scenario, ".race")} ${version ?? "broken"}`, source, version);
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
for (const [name, source] of Object.entries(hostile)) compare(name, source, null);
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
