import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full (compacting) collection for the calling thread, without `--expose-gc` on the command
 * line: the flag set from here applies to contexts made after it, so the function is taken from a
 * new one. Undefined if this V8 refuses the flag. The TVM threads collect a dropped emulator with
 * it (worker.ts); the local chain's thread collects once after a large restore, before it serves.
 */
export function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
