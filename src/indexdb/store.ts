import path from 'node:path';
import type { Logger } from 'pino';
import pg from 'pg';
import { claimIndexDir, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded';
import { IndexStoreError } from './errors';
import { migrate } from './migrate';

/**
 * The index's database: a PostgreSQL server (`--database-url`) or the embedded PGlite (its own
 * thread, reached over a unix socket), both through `pg`, so one SQL dialect and one code path
 * serve both. `pool` writes and reads; `readPool` is `--database-read-url` (a replica) when given.
 */
export interface IndexStoreOptions {
  /** postgres://user:pass@host:port/db; absent: the embedded database. */
  readonly databaseUrl?: string;
  /** A replica for reads; default: databaseUrl. */
  readonly databaseReadUrl?: string;
  /** The embedded database's directory; null or absent: in memory. */
  readonly indexDir?: string | null;
  /** Connections of the read pool (a real server only; the embedded one serves one at a time). */
  readonly maxConnections?: number;
  /** The index directory's release when the caller claimed it already (IndexStore.claimDirectory). */
  readonly claimed?: () => void;
  readonly logger: Logger;
}

export type IndexStoreKind = 'postgres' | 'pglite';

/** Whether the database answers now, for v3's 503 and the health check. */
export interface StoreHealth {
  readonly available: boolean;
  /** Why not, when not. */
  readonly reason: string | null;
}

/** How often an unavailable database is probed again, ms. */
const PROBE_MS = 1000;
const CONNECT_TIMEOUT_MS = 5000;
/**
 * The embedded database's pool: pg's pool applies its connection timeout to waiting for a free
 * connection too, and PGlite has one, which the writer holds for each commit. A read waiting
 * behind a commit on a loaded machine is busy, not unavailable (a fresh-clone CI run got a 503
 * there); the connection itself is a local socket to a thread of this process, never slow to
 * open. The HTTP request's own deadline still bounds what a client waits.
 */
const EMBEDDED_WAIT_MS = 30_000;

/** postgres://user:***@host:port/db, for messages: never a password in a log or an error. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

function checkUrl(url: string, option: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new IndexStoreError(`${option} is not a URL: expected postgres://user:password@host:port/database`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new IndexStoreError(`${option} must be a postgres:// URL (got ${parsed.protocol}//…)`);
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) throw new IndexStoreError(`${option} names no host`);
}

export class IndexStore {
  private healthValue: StoreHealth = { available: true, reason: null };
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    readonly kind: IndexStoreKind,
    /** Connection parameters of the database (for the writer's own connection). */
    readonly connection: pg.ClientConfig,
    readonly pool: pg.Pool,
    readonly readPool: pg.Pool,
    private readonly embedded: EmbeddedPostgres | null,
    private readonly logger: Logger,
  ) {
    // An idle connection that breaks (a restarted server) is reported here; without a listener
    // pg's pool would crash the process.
    const onError = (err: Error) => this.markDown(err);
    pool.on('error', onError);
    if (readPool !== pool) readPool.on('error', onError);
  }

  /**
   * Claims the embedded database's directory now (IndexStoreError when another live process has
   * it), for an open that runs in the background: pass the release as `claimed` to open().
   */
  static claimDirectory(indexDir: string | null | undefined): () => void {
    return claimIndexDir(indexDir ? path.resolve(indexDir) : null);
  }

  /** The embedded database's files outside its data directory (none with a PostgreSQL server). */
  get temporaryPaths(): readonly string[] {
    return this.embedded?.temporaryPaths ?? [];
  }

  /** Opens (and migrates) the store; IndexStoreError for anything the operator must fix. */
  static async open(options: IndexStoreOptions): Promise<IndexStore> {
    const logger = options.logger.child({ component: 'index-store' });
    if (options.databaseUrl) {
      checkUrl(options.databaseUrl, '--database-url');
      if (options.databaseReadUrl) checkUrl(options.databaseReadUrl, '--database-read-url');
      const connection: pg.ClientConfig = { connectionString: options.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS };
      const pool = new pg.Pool({ ...connection, max: options.maxConnections ?? 10 });
      const readPool = options.databaseReadUrl
        ? new pg.Pool({ connectionString: options.databaseReadUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, max: options.maxConnections ?? 10 })
        : pool;
      const store = new IndexStore('postgres', connection, pool, readPool, null, logger);
      await store.prepare(`the index database ${redactedUrl(options.databaseUrl)}`);
      return store;
    }
    const dataDir = options.indexDir ? path.resolve(options.indexDir) : null;
    const embedded = await startEmbeddedPostgres(dataDir, options.claimed);
    const connection: pg.ClientConfig = { host: embedded.host, port: embedded.port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: EMBEDDED_WAIT_MS };
    // One connection: see pgliteWorker.ts. The writer takes it per transaction.
    const pool = new pg.Pool({ ...connection, max: 1 });
    const store = new IndexStore('pglite', connection, pool, pool, embedded, logger);
    await store.prepare(`the embedded index database${dataDir ? ` in ${dataDir}` : ' (in memory)'}`);
    return store;
  }

  private async prepare(what: string): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      await this.close();
      throw new IndexStoreError(`cannot connect to ${what}: ${(err as Error).message}`);
    }
    try {
      const applied = await migrate(client);
      if (applied.length > 0) this.logger.info({ applied }, 'index schema migrated');
    } catch (err) {
      client.release();
      await this.close();
      if (err instanceof IndexStoreError) throw err;
      throw new IndexStoreError(`cannot prepare ${what}: ${(err as Error).message}`);
    }
    client.release();
    if (this.readPool !== this.pool) {
      try {
        await this.readPool.query('select 1');
      } catch (err) {
        await this.close();
        throw new IndexStoreError(`cannot connect to the read replica (--database-read-url): ${(err as Error).message}`);
      }
    }
  }

  get health(): StoreHealth {
    return this.healthValue;
  }

  /** A query failed for a reason of the connection: v3 answers 503 until a probe succeeds. */
  markDown(err: Error): void {
    if (this.closed) return;
    if (this.healthValue.available) this.logger.warn({ err: err.message }, 'index database unavailable');
    this.healthValue = { available: false, reason: err.message };
    this.probeTimer ??= setInterval(() => void this.probe(), PROBE_MS);
    this.probeTimer.unref();
  }

  markUp(): void {
    if (this.healthValue.available) return;
    this.logger.info('index database available again');
    this.healthValue = { available: true, reason: null };
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }

  private async probe(): Promise<void> {
    try {
      await this.readPool.query('select 1');
      if (this.readPool !== this.pool) await this.pool.query('select 1');
      this.markUp();
    } catch (err) {
      this.healthValue = { available: false, reason: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.probeTimer);
    await this.pool.end().catch(() => {});
    if (this.readPool !== this.pool) await this.readPool.end().catch(() => {});
    await this.embedded?.close();
  }
}
