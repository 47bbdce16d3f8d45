import v8 from 'node:v8';

/**
 * How far V8 lets the old generation of the API process grow past what the last full GC kept
 * before it collects again. Under load, request objects waiting their turn outlive two young
 * collections and are promoted, so the old generation fills with dead requests; V8's own factor
 * (up to 4x the live heap on a machine with memory to spare) let a ~30 MB live heap reach
 * ~135 MB of old space before each full GC. 1.3x keeps it near 40 MB.
 *
 * Measured with `npm run bench -- serve`'s load (1 000 keep-alive clients on a cached read, the
 * compiled server, 2 cores at load average 3-4.5, 40 000 requests, two runs each): V8's default:
 * peak RSS 230-232 MB, 5 full GCs; 1.5x: 148-150 MB, 16; 1.3x: 141-144 MB, 23 full GCs, whose
 * pauses add up to 150-185 ms instead of 34 ms (+3-4 µs a request; the process's CPU per request,
 * 170-174 µs with the default, measured 158-220 µs, within the machine's noise). Without that
 * load nothing is promoted and the setting costs nothing. The flag is
 * read at every limit computation, so setting it once the process runs takes effect; it is
 * process-wide (the TVM threads' small heaps follow it too).
 */
const HEAP_GROWING_PERCENT = 30;

/** Applies the serving process's old-generation growth (idempotent). */
export function useServingHeapPolicy(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
