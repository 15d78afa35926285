// Asks the WebAssembly build what the native CLI is asked, and requires the same
// answer byte for byte (but for the memory a search held): the same command lines,
// the module given the shipped Scenarios folder's files at the same paths.
//   - every scenario: verify --format json (which must exit 0: every shipped fix
//     proven), run, and a scripted step session (explore of each version is the
//     playground's check in Chromium, .ci/playground.py);
//   - every exercise: hint, and grade of its starter and of its reference solution;
//   - hostile sources, saved as playground.race: explore.
//   node check.mjs racelab.wasm path/to/racelab Scenarios Tests/RaceLabGradingTests/Solutions
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { load } from "./host.mjs";

const [wasmPath, nativePath, scenariosFolder, solutionsFolder] = process.argv.slice(2);
const { respond } = await load(wasmPath);
const native = path.resolve(nativePath);
const shipped = path.resolve(scenariosFolder);
const solutions = path.resolve(solutionsFolder);

/// Every .race file under a folder, by absolute path.
function racesUnder(folder) {
  const files = {};
  for (const entry of fs.readdirSync(folder, { recursive: true }).sort()) {
    if (entry.endsWith(".race")) files[path.join(folder, entry)] = fs.readFileSync(path.join(folder, entry), "utf8");
  }
  return files;
}
const shippedFiles = racesUnder(shipped);
const solutionFiles = racesUnder(solutions);

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "racelab-wasm-"));
let failures = 0;
let asked = 0;

/// `racelab ARGUMENTS` natively (in `cwd`, standard input `input`) and in the module
/// (with the shipped files and `files`): the same status, output and errors, or a failure.
function compare(arguments_, { input = "", files = {}, cwd = process.cwd() } = {}) {
  let stdout, stderr, status;
  try {
    // Room for a run to its step limit (1.4 MB for producer-consumer): past maxBuffer,
    // node kills the process and the answer is cut.
    const options = {
      cwd, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "" }, maxBuffer: 64 * 1024 * 1024,
    };
    stdout = execFileSync(native, arguments_, options);
    stderr = "";
    status = 0;
  } catch (error) {
    ({ stdout, stderr, status } = error);
  }
  const started = performance.now();
  const response = respond({
    arguments: arguments_,
    files: { ...shippedFiles, ...files },
    shipped,
    input,
    environment: { NO_COLOR: "" },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  // The memory a search holds is the one figure that differs: wasm32's pointers
  // and Ints are half as wide, so the same states take less of it.
  const plain = (text) => text.replace(/"memoryBytes": \d+/g, '"memoryBytes": …');
  const same = response.status === status && plain(response.stdout) === plain(stdout) && response.stderr === stderr;
  // Every shipped fix is proven, and every fix marked as failing fails: verify exits 0.
  if (arguments_[0] === "verify" && status !== 0) {
    console.log(`racelab ${arguments_.join(" ")} exits ${status}: a shipped fix is not proven`);
    failures += 1;
  }
  const name = arguments_.join(" ").replaceAll(shipped, "Scenarios").replaceAll(solutions, "Solutions");
  console.log(`${same ? "same" : "DIFFERENT"}  ${name}  status ${response.status}  ${seconds} s`);
  asked += 1;
  if (!same) {
    failures += 1;
    const file = name.replace(/[^A-Za-z0-9.-]+/g, "_");
    fs.writeFileSync(path.join(folder, `${file}.native.txt`), `${status}\n${stdout}\n--- stderr\n${stderr}`);
    fs.writeFileSync(path.join(folder, `${file}.wasm.txt`), `${response.status}\n${response.stdout}\n--- stderr\n${response.stderr}`);
  }
}

compare(["list"]);
for (const file of fs.readdirSync(shipped).filter((name) => name.endsWith(".race")).sort()) {
  const name = path.basename(file, ".race");
  compare(["verify", name, "--format", "json"]);
  compare(["run", name]);
  // Two steps of the first thread, one of the second, undo, explain, the schedule,
  // the default choice, the rest at random, and the end of the input.
  compare(["step", name], { input: "1\n1\n2\nu\ne\ns\n\nx\n" });
}
for (const file of fs.readdirSync(path.join(shipped, "Exercises")).filter((name) => name.endsWith(".race")).sort()) {
  const id = path.basename(file, ".race");
  compare(["hint", id]);
  compare(["grade", path.join(shipped, "Exercises", file), "--student", "starter"]);
  const solution = path.join(solutions, file);
  if (solutionFiles[solution] !== undefined) compare(["grade", solution, "--student", "teacher"], { files: { [solution]: solutionFiles[solution] } });
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
  "an escape sequence in an error": 'var s = "\u001B[2J" + * 1\n',
};
for (const source of Object.values(hostile)) {
  fs.writeFileSync(path.join(folder, "playground.race"), source);
  compare(["explore", "playground.race", "--format", "json"], { cwd: folder, files: { "playground.race": source } });
}
const refused = respond({ files: {} });
if (refused.status !== 64 || refused.stderr !== "error: the request has no 'arguments' (a list of strings)\n") {
  console.log("a bad request is not refused as the native build refuses it");
  failures += 1;
}
if (failures > 0) {
  console.log(`${failures} of ${asked} answers differ from the native build (both kept in ${folder})`);
  process.exit(1);
}
fs.rmSync(folder, { recursive: true });
console.log(`the WebAssembly build answers ${asked} command lines as the native one does`);
