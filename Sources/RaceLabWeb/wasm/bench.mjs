// The WebAssembly engine against the native one, on the same programs: for each
// .race file, `racelab explore FILE --format json` (a release build, its process
// included) and the same command line asked of the module (instantiated once, not
// counted), each run three times, the fastest kept. Both must print the same answer.
//   node bench.mjs racelab.wasm path/to/release/racelab FILE.race...
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { load } from "./host.mjs";

const [wasmPath, nativePath, ...files] = process.argv.slice(2);
const { respond, seconds: loadSeconds } = await load(wasmPath);

function fastest(run) {
  let best = Infinity, result;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    result = run();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return [best, result];
}

console.log(`module: ${fs.statSync(wasmPath).size} bytes, compiled and instantiated in ${loadSeconds.toFixed(2)} s`);
console.log("| program | search | executions or states | native | wasm | wasm ÷ native |");
console.log("|---|---|---:|---:|---:|---:|");
for (const file of files) {
  const source = fs.readFileSync(file, "utf8");
  const [native, stdout] = fastest(() => {
    try {
      return execFileSync(nativePath, ["explore", file, "--format", "json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch (error) {
      return error.stdout;
    }
  });
  const request = { arguments: ["explore", file, "--format", "json"], files: { [file]: source } };
  const [wasm, response] = fastest(() => respond(request));
  const exploration = JSON.parse(stdout).explorations[0];
  const mine = JSON.parse(response.stdout).explorations[0];
  if (exploration.verdict !== mine.verdict || exploration.executions !== mine.executions || exploration.interleavings !== mine.interleavings) {
    console.log(`${path.basename(file)}: the answers differ`);
    process.exit(1);
  }
  const work = exploration.search === "stateful" ? `${exploration.states} states` : `${exploration.executions} executions`;
  const name = path.basename(file, ".race");
  console.log(`| ${name} | ${exploration.search} | ${work} | ${native.toFixed(2)} s | ${wasm.toFixed(2)} s | ${(wasm / native).toFixed(2)} |`);
}
