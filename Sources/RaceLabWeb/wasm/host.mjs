// What a JavaScript host gives the module and how it asks it something: the imports
// (the clock, for --time-limit; from WASI what wasi-libc asks for: random bytes, the
// seed of Swift's hashing, which reaches no output, and standard error, where a
// Swift trap writes its message) and `respond`, one JSON request in, one JSON
// response out (Sources/RaceLabWeb/WebAPI.swift).
import { webcrypto } from "node:crypto";
import fs from "node:fs";

/// The module at `wasmPath`, instantiated: `respond(request)` and `seconds`, the time
/// it took to compile and instantiate.
export async function load(wasmPath) {
  let api;
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
  const started = performance.now();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), imports);
  const seconds = (performance.now() - started) / 1000;
  api = instance.exports;

  function respond(request) {
    const bytes = new TextEncoder().encode(JSON.stringify(request));
    const at = api.racelab_alloc(bytes.length);
    new Uint8Array(api.memory.buffer, at, bytes.length).set(bytes);
    const length = api.racelab_respond(at, bytes.length);
    api.racelab_free(at);
    return JSON.parse(new TextDecoder().decode(new Uint8Array(api.memory.buffer, api.racelab_response(), length)));
  }
  return { respond, seconds };
}
