import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The body of the embedded PostgreSQL thread: PGlite (PostgreSQL compiled to wasm) with its data
 * in `dataDir` (in memory when null), served over the PostgreSQL wire protocol on a unix socket,
 * so the main thread reaches it with `pg` exactly as it reaches a real server and the database's
 * CPU work (parsing, planning, writing pages) never runs on the API's event loop.
 *
 * One connection at a time: PGlite is one backend, and the socket server interleaves the messages
 * of several connections between a query's Parse and Sync, which breaks unnamed statements. The
 * main side keeps a pool of one (src/indexdb/store.ts).
 */
export interface PgliteWorkerData {
  readonly dataDir: string | null;
  readonly socketPath: string;
}

export type PgliteWorkerMessage = { kind: 'ready' } | { kind: 'failed'; message: string } | { kind: 'closed' };

async function run(): Promise<void> {
  const { dataDir, socketPath } = workerData as PgliteWorkerData;
  const port = parentPort;
  if (!port) throw new Error('pgliteWorker runs only as a worker thread');
  let db: PGlite;
  let server: PGLiteSocketServer;
  try {
    db = dataDir ? new PGlite(dataDir) : new PGlite();
    await db.waitReady;
    server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
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
