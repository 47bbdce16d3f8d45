import v8 from 'node:v8';

/**
 * How far V8 lets the old generation of the API process grow past what the last full GC kept
 * before it collects again. Under load, request objects waiting their turn outlive two young
 * collections and are promoted, so the old generation fills with dead requests; V8's own factor
 * (up to 4x the live heap on a machine with memory to spare) let a ~30 MB live heap reach
 * ~135 MB of old space before each full GC. 1.5x keeps it near 45 MB.
 *
 * Measured with `npm run bench -- serve`'s load (1 000 keep-alive clients on a cached read, the
 * compiled server, 2 cores at load average ~6, 40 000 requests, two runs each): peak RSS 218-223
 * MB -> 146-148 MB, full GCs 7-8 -> 21-22 (~10 ms each), process CPU per request +4-5 %. Without
 * that load nothing is promoted and the setting costs nothing. The flag is read at every limit
 * computation, so setting it once the process runs takes effect; it is process-wide (the TVM
 * threads' small heaps follow it too).
 */
const HEAP_GROWING_PERCENT = 50;

/** Applies the serving process's old-generation growth (idempotent). */
export function useServingHeapPolicy(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
