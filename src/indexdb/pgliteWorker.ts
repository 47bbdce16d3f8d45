import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The body of the embedded PostgreSQL thread: PGlite (PostgreSQL compiled to wasm) with its data
 * in `dataDir`, served over the PostgreSQL wire protocol on a unix socket, so the main thread
 * reaches it with `pg` exactly as it reaches a real server and the database's CPU work (parsing,
 * planning, writing pages) never runs on the API's event loop.
 *
 * One connection at a time: PGlite is one backend, and the socket server interleaves the messages
 * of several connections between a query's Parse and Sync, which breaks unnamed statements. The
 * main side keeps a pool of one (src/indexdb/store.ts).
 *
 * `init` mode only creates a data directory (initdb) and exits: a thread of its own, so the
 * ~450 MB initdb leaves in the wasm heap is freed with the thread (src/indexdb/embedded.ts).
 */
export interface PgliteWorkerData {
  readonly mode: 'serve' | 'init';
  readonly dataDir: string;
  /** serve only. */
  readonly socketPath?: string;
}

export type PgliteWorkerMessage = { kind: 'ready' } | { kind: 'failed'; message: string } | { kind: 'closed' };

/**
 * PGlite's own start parameters, plus a small shared memory. PostgreSQL's shared memory lives in
 * the wasm heap and is zeroed at the start, so all of it is resident memory of the process from
 * then on (wasm memory never shrinks): the buffer pool (PostgreSQL's default shared_buffers, 128
 * MB: 300 MB RSS vs 170 MB with 16 MB, opening an existing directory) and what max_connections
 * sizes (lock tables, per-backend arrays). The operating system's page cache holds the files
 * anyway. PGlite is one backend serving one connection (src/indexdb/embedded.ts), so 5 connections
 * rather than 100 (the lock table still holds ~1 200 locks, 64 for each of the 19 backends
 * PostgreSQL counts; the index's schema has ~150 relations); 4 MB of buffers rather than 8 (16 before that). Each of the two cuts the shared
 * memory by 4 MB (it is sized in 4 MB steps: 16 -> 12 -> 8 MB), which `npm start`'s RSS at rest
 * shows as its wasm memory's resident part 27 -> 23 -> 19 MB; the ingest's CPU per transaction
 * with 4 MB of buffers: docs/benchmarks.md, "The index".
 */
const START_PARAMS = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  '-c',
  'shared_buffers=4MB',
  '-c',
  'max_connections=5',
  '-c',
  'maintenance_work_mem=16MB',
];

/**
 * PostgreSQL's wasm compiled so that V8 never tiers it up to TurboFan: Liftoff (the baseline
 * compiler) only. TurboFan's code and the memory its compilations leave in the thread's malloc
 * arena were ~50-70 MB of the store's resident memory once queries had run (a store alone after
 * 30 000 inserted rows: ~250-290 MB RSS with tier-up, ~205-215 MB without), while the index's
 * queries are short and wait mostly on files (docs/benchmarks.md, "The index").
 *
 * V8's flags are process-wide, but what decides this binds per module, when it is created: a
 * module made without dynamic tiering gets Liftoff code that never asks for TurboFan. So
 * `--liftoff-only` (which implies `--no-wasm-dynamic-tiering` and `--no-wasm-tier-up`) is set just
 * around this synchronous compile (tens of ms), and `--wasm-dynamic-tiering` is put back right
 * after, so that modules made later (the TVM emulator in a thread that starts later) tier up as
 * usual (test/index/embeddedWasmTiering.test.ts). `--wasm-tier-up` is left off on purpose: V8
 * reads it again at each lazy compile of a function of a module without dynamic tiering and would
 * then compile every PostgreSQL function a second time (measured: +100 MB); modules with dynamic
 * tiering, V8's default and every other module here, do not use it.
 *
 * A module another thread creates inside that window would be Liftoff-only too. The emulator's is
 * created by the chain thread before the index opens and then shared from V8's module cache with
 * the TVM threads, so only a first TVM thread of a remote network (`--index-dir`) compiling in that
 * same instant could be.
 */
type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
/** The project's TypeScript libs are ES2022, without the WebAssembly API's types. */
const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule } };

function compileLiftoffOnly(): WasmModule {
  const wasmFile = path.join(path.dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm');
  const bytes = readFileSync(wasmFile);
  setFlagsFromString('--liftoff-only');
  try {
    return new wasmApi.Module(bytes);
  } finally {
    setFlagsFromString('--no-liftoff-only');
    setFlagsFromString('--wasm-dynamic-tiering');
  }
}

async function run(): Promise<void> {
  const { mode, dataDir, socketPath } = workerData as PgliteWorkerData;
  const port = parentPort;
  if (!port) throw new Error('pgliteWorker runs only as a worker thread');
  let db: PGlite;
  let server: PGLiteSocketServer;
  try {
    db = new PGlite(dataDir, { startParams: START_PARAMS, pgliteWasmModule: compileLiftoffOnly() });
    await db.waitReady;
    if (mode === 'init') {
      await db.close();
      port.postMessage({ kind: 'ready' } satisfies PgliteWorkerMessage);
      return;
    }
    server = new PGLiteSocketServer({ db, path: socketPath!, maxConnections: 1 });
    await server.start();
  } catch (err) {
    port.postMessage({ kind: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies PgliteWorkerMessage);
    return;
  }
  port.on('message', (message: unknown) => {
    if (message !== 'close') return;
    void (async () => {
      try {
        await server.stop();
        await db.close();
      } finally {
        port.postMessage({ kind: 'closed' } satisfies PgliteWorkerMessage);
      }
    })();
  });
  port.postMessage({ kind: 'ready' } satisfies PgliteWorkerMessage);
}

void run();
