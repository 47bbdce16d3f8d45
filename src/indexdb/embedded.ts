import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { cp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PgliteWorkerData, PgliteWorkerMessage } from './pgliteWorker';
import { IndexStoreError } from './errors';

/** Longest the embedded database may take to open (a large data directory replays its WAL). */
const START_TIMEOUT_MS = 180_000;
const LOCK_FILE = 'ton-http-bridge.lock';
/**
 * The serving thread's young generation (V8's nursery), MB. PGlite's JavaScript side allocates a
 * buffer or more per message, so by default V8 grows that thread's nursery to its maximum (tens of
 * MB, resident from then on). Capped, it is collected more often, not for longer: measured, a
 * store alone after 30 000 inserted rows, ~205 MB RSS at rest -> ~185 MB, the process's scavenges
 * 0.41 s -> 0.28 s in all (docs/benchmarks.md, "The index"). The init thread (initdb, once per
 * PGlite version) keeps V8's default: it lives for seconds.
 */
const SERVE_YOUNG_GENERATION_MB = 8;
/** pg connects to a unix socket as `<host>/.s.PGSQL.<port>`. */
const SOCKET_PORT = 5432;

/** The embedded PostgreSQL (PGlite in its own thread) as `pg` connects to it. */
export interface EmbeddedPostgres {
  /** The directory of the unix socket: pg's `host`. */
  readonly host: string;
  readonly port: number;
  /**
   * The files this store made outside its data directory (the socket's directory; the scratch
   * directory of an in-memory store): what a thread that died without closing leaves behind.
   */
  readonly temporaryPaths: readonly string[];
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

/**
 * The embedded database's directory, created and locked for this process (synchronous, so a
 * directory in use stops the start even when the database itself opens in the background).
 * Returns the release; null: in memory, nothing to claim.
 */
export function claimIndexDir(dataDir: string | null): () => void {
  if (!dataDir) return () => {};
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new IndexStoreError(`cannot create the index directory ${dataDir}: ${(err as Error).message}`);
  }
  return lockDataDir(dataDir);
}

/** Runs one pgliteWorker thread until its first message: 'ready' resolves, anything else rejects. */
async function runWorker(data: PgliteWorkerData, what: string): Promise<Worker> {
  const limits = data.mode === 'serve' ? { resourceLimits: { maxYoungGenerationSizeMb: SERVE_YOUNG_GENERATION_MB } } : {};
  const worker = new Worker(path.join(__dirname, 'pgliteWorkerEntry.js'), { workerData: data, ...limits });
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
        else reject(new IndexStoreError(`the embedded database cannot open ${what}: ${message.kind === 'failed' ? message.message : message.kind}`));
      });
    });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', () => {});
  return worker;
}

function pgliteVersion(): string {
  try {
    const entry = require.resolve('@electric-sql/pglite');
    const manifest = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const TEMPLATE_READY = 'ton-http-bridge-template-ready';
/** Temporary data directories of in-memory stores: removed at close, swept when their process died. */
const SCRATCH_PREFIX = 'ton-bridge-pgdata-';

/**
 * An empty data directory made once per PGlite version and user (in the temporary directory) and
 * copied for every new store. initdb costs 7-9 s of CPU and leaves ~450 MB in its wasm heap,
 * which PGlite keeps for the life of the instance (measured: 600-780 MB RSS after a fresh open,
 * 170 MB opening an existing directory); it runs in a thread of its own, whose heap dies with it.
 */
let templateBuilding: Promise<string> | undefined;
function templateDir(): Promise<string> {
  return (templateBuilding ??= (async () => {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    const dir = path.join(tmpdir(), `ton-http-bridge-pglite-${pgliteVersion()}-${uid}`);
    if (existsSync(path.join(dir, TEMPLATE_READY))) return dir;
    const building = mkdtempSync(`${dir}.building-`);
    try {
      const worker = await runWorker({ mode: 'init', dataDir: building }, 'a new directory');
      await worker.terminate();
      closeSync(openSync(path.join(building, TEMPLATE_READY), 'w'));
      // Another process may have finished one first: its directory is as good as ours.
      await rename(building, dir).catch(async () => {
        if (!existsSync(path.join(dir, TEMPLATE_READY))) {
          await rm(dir, { recursive: true, force: true });
          await rename(building, dir);
        }
      });
    } finally {
      await rm(building, { recursive: true, force: true });
    }
    return dir;
  })().finally(() => {
    templateBuilding = undefined;
  }));
}

/** A new data directory gets a copy of the template (a directory with PG_VERSION is a database already). */
async function initialize(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const template = await templateDir();
  await cp(template, dataDir, { recursive: true, filter: (source) => path.basename(source) !== TEMPLATE_READY });
}

/** Scratch directories of in-memory stores whose process is gone (a SIGKILL skips the close). */
function sweepScratch(): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir()).filter((name) => name.startsWith(SCRATCH_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = path.join(tmpdir(), name);
    try {
      const owner = Number.parseInt(readFileSync(path.join(dir, LOCK_FILE), 'utf8'), 10);
      if (Number.isInteger(owner) && !processAlive(owner)) rmSync(dir, { recursive: true, force: true });
    } catch {
      // No lock file (yet): its process is still setting it up, or it is not ours to judge.
    }
  }
}

/**
 * Starts PGlite in a worker thread with its data in `dataDir` and serves it on a unix socket.
 * `dataDir` null: "in memory" — a scratch directory of the temporary directory, removed at close
 * (PGlite's own in-memory file system would hold the files in the process's heap). `claimed`
 * releases the directory claimed with claimIndexDir (claimed here when absent).
 */
export async function startEmbeddedPostgres(requestedDir: string | null, claimed?: () => void): Promise<EmbeddedPostgres> {
  let dataDir = requestedDir;
  let unlock = claimed ?? claimIndexDir(dataDir);
  if (!dataDir) {
    sweepScratch();
    const scratch = mkdtempSync(path.join(tmpdir(), SCRATCH_PREFIX));
    const release = lockDataDir(scratch);
    dataDir = scratch;
    unlock = () => {
      release();
      rmSync(scratch, { recursive: true, force: true });
    };
  }
  try {
    await initialize(dataDir);
  } catch (err) {
    unlock();
    throw err instanceof IndexStoreError ? err : new IndexStoreError(`cannot create the index database in ${dataDir}: ${(err as Error).message}`);
  }
  const socketDir = mkdtempSync(path.join(tmpdir(), 'ton-bridge-pg-'));
  const data: PgliteWorkerData = { mode: 'serve', dataDir, socketPath: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`) };
  const cleanup = () => {
    rmSync(socketDir, { recursive: true, force: true });
    unlock();
  };
  let worker: Worker;
  try {
    worker = await runWorker(data, requestedDir ?? '(scratch)');
  } catch (err) {
    cleanup();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    host: socketDir,
    port: SOCKET_PORT,
    temporaryPaths: requestedDir ? [socketDir] : [socketDir, dataDir],
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
