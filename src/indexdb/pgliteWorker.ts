import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
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
 * PGlite's own start parameters, plus a small buffer pool: PostgreSQL's default shared_buffers
 * (128 MB) lives in the wasm heap, touched at start, so it is resident memory of the process
 * (measured: 300 MB RSS with the default, 170 MB with 16 MB, opening an existing directory). The
 * operating system's page cache holds the files anyway.
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
  'shared_buffers=16MB',
  '-c',
  'maintenance_work_mem=16MB',
];

async function run(): Promise<void> {
  const { mode, dataDir, socketPath } = workerData as PgliteWorkerData;
  const port = parentPort;
  if (!port) throw new Error('pgliteWorker runs only as a worker thread');
  let db: PGlite;
  let server: PGLiteSocketServer;
  try {
    db = new PGlite(dataDir, { startParams: START_PARAMS });
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
