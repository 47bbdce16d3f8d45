import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PgliteWorkerData, PgliteWorkerMessage } from './pgliteWorker';
import { IndexStoreError } from './errors';

/** Longest the embedded database may take to open (a large data directory replays its WAL). */
const START_TIMEOUT_MS = 180_000;
const LOCK_FILE = 'ton-http-bridge.lock';
/** pg connects to a unix socket as `<host>/.s.PGSQL.<port>`. */
const SOCKET_PORT = 5432;

/** The embedded PostgreSQL (PGlite in its own thread) as `pg` connects to it. */
export interface EmbeddedPostgres {
  /** The directory of the unix socket: pg's `host`. */
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is one backend over plain files: two processes on one directory would corrupt it. The
 * lock file names the owner's pid; a stale one (its process gone, e.g. after SIGKILL) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && processAlive(owner)) {
        throw new IndexStoreError(`the index directory ${dataDir} is in use by process ${owner} (the embedded database serves one process; use --database-url for several instances)`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new IndexStoreError(`cannot lock the index directory ${dataDir}`);
}

/** Starts PGlite in a worker thread with its data in `dataDir` (null: in memory) and serves it on a unix socket. */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  let unlock = () => {};
  if (dataDir) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (err) {
      throw new IndexStoreError(`cannot create the index directory ${dataDir}: ${(err as Error).message}`);
    }
    unlock = lockDataDir(dataDir);
  }
  const socketDir = mkdtempSync(path.join(tmpdir(), 'ton-bridge-pg-'));
  const data: PgliteWorkerData = { dataDir, socketPath: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`) };
  const worker = new Worker(path.join(__dirname, 'pgliteWorkerEntry.js'), { workerData: data });
  const cleanup = () => {
    rmSync(socketDir, { recursive: true, force: true });
    unlock();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new IndexStoreError('the embedded database did not open in time')), START_TIMEOUT_MS);
      worker.once('error', (err) => {
        clearTimeout(timer);
        reject(new IndexStoreError(`the embedded database failed: ${err.message}`));
      });
      worker.once('exit', (code) => {
        clearTimeout(timer);
        reject(new IndexStoreError(`the embedded database thread exited (${code})`));
      });
      worker.once('message', (message: PgliteWorkerMessage) => {
        clearTimeout(timer);
        if (message.kind === 'ready') resolve();
        else reject(new IndexStoreError(`the embedded database cannot open${dataDir ? ` ${dataDir}` : ''}: ${message.kind === 'failed' ? message.message : message.kind}`));
      });
    });
  } catch (err) {
    await worker.terminate();
    cleanup();
    throw err;
  }
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', () => {});
  let closing: Promise<void> | undefined;
  return {
    host: socketDir,
    port: SOCKET_PORT,
    close: () =>
      (closing ??= (async () => {
        // A clean close checkpoints PGlite's files; a stuck thread is terminated after a while.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 10_000);
          worker.once('message', () => {
            clearTimeout(timer);
            resolve();
          });
          worker.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          worker.postMessage('close');
        });
        await worker.terminate();
        cleanup();
      })()),
  };
}
