/**
 * Creates @ton/sandbox's emulator (the `Executor` over its wasm build of TON's emulator) without
 * sandbox's own `Executor.create()`, whose costly step is decoding the 6.7 MB base64 wasm with a
 * pure-JS decoder (~0.1-0.3 s of CPU in each thread that makes one) where Buffer's native decoder
 * takes ~7 ms. Importing the executor module alone also spares a thread sandbox's index (its
 * Blockchain and coverage tooling). Measured in a fresh thread: ~170 ms of CPU to a ready
 * emulator, against ~350 ms with `Executor.create()`. The emulator made is the very one
 * `Executor.create()` makes (same wasm bytes, same module factory, same class).
 *
 * Internals touched, pinned to @ton/sandbox 0.41.0 (every local chain runs on such an emulator,
 * so every localnet test covers them): `dist/executor/emulator-emscripten.wasm.js` (the wasm as
 * base64), `dist/executor/emulator-emscripten.js` (the emscripten module factory), and
 * Executor's private constructor, which takes the instantiated module.
 */
// The executor module alone: sandbox's index also loads its Blockchain and coverage tooling
// (ton-assembly, ~0.1 s), which a thread that only runs the emulator does not need.
import { Executor } from '@ton/sandbox/dist/executor/Executor';

type EmulatorModuleFactory = (options: { wasmBinary: Uint8Array }) => Promise<unknown>;
type ExecutorConstructor = new (module: unknown) => Executor;

let wasmBinary: Uint8Array | undefined;

function emulatorWasm(): Uint8Array {
  if (!wasmBinary) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { EmulatorEmscriptenWasm } = require('@ton/sandbox/dist/executor/emulator-emscripten.wasm.js') as {
      EmulatorEmscriptenWasm: string;
    };
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
