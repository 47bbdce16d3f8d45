import { Pool, types, type PoolConfig } from 'pg';
import { ApiError, InternalError } from '../errors';

/**
 * What the v3 routes need of the index's PostgreSQL: parameterized reads. Every value a client
 * sent travels as a bind parameter; no client text is ever part of the SQL text.
 */
export interface V3Database {
  query<Row extends object>(text: string, values: readonly unknown[]): Promise<Row[]>;
  /**
   * The same for a statement whose columns are all `text`: each value as UTF-8 bytes (a Buffer
   * over an ArrayBuffer of its own when larger than 4 KB) that can be moved to an answer thread,
   * which parses them (src/v3/answers). Not free on the event loop: pg 8's protocol parser decodes
   * every field into a string first, which the driver encodes back (so the largest pages are read
   * by the threads themselves: answers/pool.ts's queryAndAssemble). Absent (the embedded store):
   * `query` reads them as strings.
   */
  queryTextBytes?<Row extends object>(text: string, values: readonly unknown[]): Promise<Row[]>;
}

/** OID of PostgreSQL's `text`. */
const TEXT_OID = 25;

/**
 * Results in binary format, `text` columns kept as the bytes the driver gives its binary parsers
 * (Buffer.from of the string its protocol parser decoded). Other types keep the driver's binary
 * parsers; the statements read this way select text columns only.
 */
const TEXT_AS_BYTES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TEXT_OID && format === 'binary' ? (value: Buffer) => value : types.getTypeParser(oid, format ?? 'text')) as typeof types.getTypeParser,
};

/** Connections of the pool that reads text as bytes (a few: its statements are the large pages'). */
const TEXT_BYTES_CONNECTIONS = 4;

/** ton-index-go's default `--query-timeout` (3000 ms) as the server-side statement timeout. */
export const STATEMENT_TIMEOUT_MS = 3000;

/** A read pool of its own over `url` (the index's database or a read replica), statements bounded. */
export function createV3Database(url: string, config: PoolConfig = {}): V3Database & { end(): Promise<void> } {
  const pool = new Pool({ connectionString: url, max: 20, statement_timeout: STATEMENT_TIMEOUT_MS, ...config });
  // `binary` (results in binary format) is the driver's option, missing from its type declarations.
  const bytesConfig: PoolConfig & { binary: boolean } = { connectionString: url, max: TEXT_BYTES_CONNECTIONS, statement_timeout: STATEMENT_TIMEOUT_MS, ...config, binary: true, types: TEXT_AS_BYTES };
  const bytesPool = new Pool(bytesConfig);
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  bytesPool.on('error', () => undefined);
  return {
    ...v3DatabaseOf(pool),
    queryTextBytes: v3DatabaseOf(bytesPool).query,
    end: async () => {
      await Promise.all([pool.end(), bytesPool.end()]);
    },
  };
}

/**
 * A few connections over `url` reading text as strings, statements bounded: an answer thread's own
 * (answers/worker.ts), whose pages never cross the event loop.
 */
export function createThreadReads(url: string, connections: number): V3Database & { end(): Promise<void> } {
  const pool = new Pool({ connectionString: url, max: connections, statement_timeout: STATEMENT_TIMEOUT_MS, allowExitOnIdle: true });
  pool.on('error', () => undefined);
  return { ...v3DatabaseOf(pool), end: () => pool.end() };
}

/** Reads through an existing pool (the index store's `readPool`). */
export function v3DatabaseOf(pool: Pick<Pool, 'query'>): V3Database {
  return {
    async query<Row extends object>(text: string, values: readonly unknown[]): Promise<Row[]> {
      try {
        const result = await pool.query<Row>(text, values as unknown[]);
        return result.rows;
      } catch (err) {
        throw databaseError(err);
      }
    },
  };
}

/** The index has no database (index off) or it went away: a clear 503, as the index issue asks. */
export class IndexUnavailableError extends ApiError {
  constructor(message = 'the index is not available') {
    super('unavailable', message);
  }
}

/** PostgreSQL's query_canceled: the statement timeout fired. */
export class IndexTimeoutError extends ApiError {
  constructor() {
    super('timeout', 'query timeout');
  }
}

/**
 * Maps a pg failure to what the client sees (never the database's own text): the statement
 * timeout is 504; a database that cannot be reached or is shutting down is 503; anything else
 * is a fault of ours (a query the schema refuses) and a logged 500.
 */
export function databaseError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '57014') return new IndexTimeoutError();
  if (typeof code === 'string' && /^(08|57P|53)/.test(code)) return new IndexUnavailableError();
  if (typeof code === 'string' && /^[A-Z0-9]{5}$/.test(code)) {
    // The database's text goes to the log (as the cause), not to the client.
    const internal = new InternalError(`index query failed (SQLSTATE ${code})`);
    (internal as { cause?: unknown }).cause = err;
    return internal;
  }
  // No SQLSTATE: the connection itself failed (ECONNREFUSED, a closed pool, a timeout).
  return new IndexUnavailableError();
}
