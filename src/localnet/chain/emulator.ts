/**
 * Creates @ton/sandbox's emulator (the `Executor` over its wasm build of TON's emulator) without
 * sandbox's own `Executor.create()`, whose only costly step is decoding the 6.7 MB base64 wasm
 * with a pure-JS decoder: ~300 ms of CPU at every start (more under load), against ~7 ms with
 * Buffer's native decoder. The emulator made is the very one `Executor.create()` makes (same wasm
 * bytes, same module factory, same class).
 *
 * Internals touched, pinned to @ton/sandbox 0.41.0 (a test creates one and runs it):
 * `dist/executor/emulator-emscripten.wasm.js` (the wasm as base64), `dist/executor/
 * emulator-emscripten.js` (the emscripten module factory), and Executor's private constructor,
 * which takes the instantiated module.
 */
import { Executor } from '@ton/sandbox';

type EmulatorModuleFactory = (options: { wasmBinary: Uint8Array }) => Promise<unknown>;
type ExecutorConstructor = new (module: unknown) => Executor;

let wasmBinary: Uint8Array | undefined;

function emulatorWasm(): Uint8Array {
  if (!wasmBinary) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { EmulatorEmscriptenWasm } = require('@ton/sandbox/dist/executor/emulator-emscripten.wasm.js') as { EmulatorEmscriptenWasm: string };
    const bytes = Buffer.from(EmulatorEmscriptenWasm, 'base64');
    wasmBinary = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return wasmBinary;
}

/** A new emulator instance (its own wasm memory); the decoded wasm bytes are shared. */
export async function createEmulator(): Promise<Executor> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require('@ton/sandbox/dist/executor/emulator-emscripten.js') as EmulatorModuleFactory;
  const module = await factory({ wasmBinary: emulatorWasm() });
  return new (Executor as unknown as ExecutorConstructor)(module);
}
