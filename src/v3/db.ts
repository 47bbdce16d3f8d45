import { Pool, type PoolConfig } from 'pg';
import { ApiError } from '../errors';

/**
 * What the v3 routes need of the index's PostgreSQL: parameterized reads. Every value a client
 * sent travels as a bind parameter; no client text is ever part of the SQL text.
 */
export interface V3Database {
  query<Row extends object>(text: string, values: readonly unknown[]): Promise<Row[]>;
}

/** ton-index-go's default `--query-timeout` (3000 ms) as the server-side statement timeout. */
export const STATEMENT_TIMEOUT_MS = 3000;

/** A read pool of its own over `url` (the index's database or a read replica), statements bounded. */
export function createV3Database(url: string, config: PoolConfig = {}): V3Database & { end(): Promise<void> } {
  const pool = new Pool({ connectionString: url, max: 20, statement_timeout: STATEMENT_TIMEOUT_MS, ...config });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
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
    super(503, message);
  }
}

/** PostgreSQL's query_canceled: the statement timeout fired. */
export class IndexTimeoutError extends ApiError {
  constructor() {
    super(504, 'query timeout');
  }
}

/** Maps a pg failure to the error the client sees (never the database's own text). */
export function databaseError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '57014') return new IndexTimeoutError();
  return new IndexUnavailableError();
}
