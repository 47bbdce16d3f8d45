import fs from 'node:fs';
import { Executor } from '@ton/sandbox/dist/executor/Executor';

/**
 * Creates @ton/sandbox's emulator (its `Executor` over the wasm build of TON's emulator) without
 * `Executor.create()`, which costs every TVM thread twice: it decodes the 6.7 MB base64 text of
 * the wasm with a pure-JS decoder (~300 ms of CPU, the larger part of a thread's start), and it
 * keeps that text (required as a module) and the 5 MB of decoded bytes for the thread's life.
 * Here the text is read from the file and decoded by Buffer (~30 ms), compiled once per thread,
 * and both are garbage once compiled: ~12 MB less per thread. V8 shares the compiled code of the
 * same wasm bytes between the threads of a process. The emulator made is the one
 * `Executor.create()` makes: same bytes, same emscripten module factory, same class.
 *
 * Internals used, pinned with @ton/sandbox 0.41.0 (test/tvm/emulator.test.ts creates one and runs a
 * get-method on it): `dist/executor/emulator-emscripten.wasm.js` (`module.exports = {
 * EmulatorEmscriptenWasm: '<base64>' }`), `dist/executor/emulator-emscripten.js` (the factory,
 * whose `instantiateWasm` option takes the instance), and Executor's private constructor, which
 * takes the instantiated module.
 */

/** The part of the WebAssembly API used here (the project's TypeScript libs are ES2022, without its types). */
interface WasmModule {
  readonly [Symbol.toStringTag]: string;
}
interface WasmInstance {
  readonly exports: object;
}
/** A wasm memory: its buffer is the instance's whole linear memory. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
  Memory: abstract new (...args: never[]) => WasmMemory;
}
const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: WasmApi };

/** The emscripten module's part used here. */
interface EmulatorModule {
  _free(pointer: number): void;
}
/** Executor's private member that turns a result pointer into text (replaced on each instance made here). */
interface ExecutorResultReader {
  extractString(pointer: number): string;
}

type Instantiated = (instance: WasmInstance, module: WasmModule) => void;
type EmulatorModuleFactory = (options: { instantiateWasm: (imports: object, done: Instantiated) => object }) => Promise<unknown>;
type ExecutorConstructor = new (module: unknown) => Executor;

const WASM_TEXT_MODULE = '@ton/sandbox/dist/executor/emulator-emscripten.wasm.js';
const WASM_TEXT_PREFIX = "module.exports = { EmulatorEmscriptenWasm: '";

/** The emulator's wasm bytes, decoded natively from sandbox's base64 module file. */
export function emulatorWasmBytes(): Buffer {
  const text = fs.readFileSync(require.resolve(WASM_TEXT_MODULE), 'latin1');
  const start = text.indexOf(WASM_TEXT_PREFIX);
  const end = text.lastIndexOf("'");
  if (start !== 0 || end <= WASM_TEXT_PREFIX.length) throw new Error(`${WASM_TEXT_MODULE} is not the base64 module this code reads`);
  return Buffer.from(text.slice(WASM_TEXT_PREFIX.length, end), 'base64');
}

let compiled: Promise<WasmModule> | undefined;

/** The linear memory of each emulator made here (the instance exports it under a minified name). */
const memories = new WeakMap<Executor, WasmMemory>();

/**
 * Bytes of linear memory an emulator's instance holds: a wasm memory only grows, so an instance
 * that once needed much keeps it until the instance is dropped (src/tvm/worker.ts does).
 */
export function emulatorMemoryBytes(vm: Executor): number {
  return memories.get(vm)?.buffer.byteLength ?? 0;
}

/** A new emulator: its own wasm instance and memory over this thread's compiled module. */
export async function createEmulator(): Promise<Executor> {
  compiled ??= wasmApi.compile(emulatorWasmBytes());
  const wasm = await compiled;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- emscripten's CommonJS factory, untyped
  const factory = require('@ton/sandbox/dist/executor/emulator-emscripten.js') as EmulatorModuleFactory;
  let failed: (err: unknown) => void = () => undefined;
  let memory: WasmMemory | undefined;
  const instantiationFailed = new Promise<never>((_, reject) => (failed = reject));
  const module = await Promise.race([
    factory({
      instantiateWasm: (imports, done) => {
        // The factory waits for `done` only: a failure must reach the caller by itself.
        wasmApi.instantiate(wasm, imports).then((instance) => {
          memory = Object.values(instance.exports).find((value): value is WasmMemory => value instanceof wasmApi.Memory);
          done(instance, wasm);
        }, failed);
        return {};
      },
    }),
    instantiationFailed,
  ]);
  const executor = new (Executor as unknown as ExecutorConstructor)(module);
  if (memory) {
    memories.set(executor, memory);
    const wasmMemory = memory;
    (executor as unknown as ExecutorResultReader).extractString = (pointer) =>
      resultWithoutVmLog(wasmMemory, module as EmulatorModule, pointer);
  }
  return executor;
}

const VM_LOG_KEY = Buffer.from('"vm_log":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The emulator's JSON answer at `pointer`, with the value of `vm_log` left empty, and the answer
 * freed. The emulator of @ton/sandbox 0.41.0 logs every VM step whatever the verbosity (~11 bytes
 * per gas unit: ~43 MB for a 4 000 000-gas get-method), and Executor would decode that text, parse
 * it, split it into lines and join them again (measured: ~250 MB of thread heap and ~0.8 s for one
 * such run) to hand back a log no caller here reads. The rest of the answer is a few hundred
 * bytes; Executor parses it as before, so results are unchanged but for the empty log.
 */
export function resultWithoutVmLog(memory: WasmMemory, module: EmulatorModule, pointer: number): string {
  try {
    const heap = Buffer.from(memory.buffer);
    const end = heap.indexOf(0, pointer);
    const answer = heap.subarray(pointer, end < 0 ? heap.length : end);
    const key = answer.indexOf(VM_LOG_KEY);
    if (key < 0) return answer.toString('utf8');
    const valueStart = key + VM_LOG_KEY.length;
    const valueEnd = closingQuote(answer, valueStart);
    return answer.toString('utf8', 0, valueStart) + answer.toString('utf8', valueEnd);
  } finally {
    module._free(pointer);
  }
}

/** Index of the quote that ends a JSON string whose text starts at `from` (one not escaped). */
function closingQuote(json: Buffer, from: number): number {
  let at = json.indexOf(QUOTE, from);
  while (at >= 0) {
    let backslashes = 0;
    while (json[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = json.indexOf(QUOTE, at + 1);
  }
  throw new Error('the emulator answered a vm_log without its closing quote');
}
