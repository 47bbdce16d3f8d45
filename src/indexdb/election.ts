import type { Logger } from 'pino';
import pg from 'pg';
import type { IndexStore } from './store';

/** The advisory lock whose holder is the index's one writer ('tbix'). */
export const WRITER_LOCK_KEY = 0x7462_6978;

/**
 * The right to write the index, held until `lost` resolves or `release()`. `run` gives the
 * connection to write on: with PostgreSQL it is the very connection holding the advisory lock, so
 * a writer that lost its connection lost its lock with it and cannot write after a successor
 * started; with the embedded database (one process by its lock file) a pooled connection per call.
 */
export interface WriterLease {
  run<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T>;
  /** Resolves with the reason when the lease is gone (connection lost). */
  readonly lost: Promise<string>;
  release(): Promise<void>;
}

/**
 * Tries once to become the writer: `pg_try_advisory_lock` on a connection of its own. Null when
 * another instance holds it. Throws when the database cannot be reached.
 */
export async function tryAcquireWriter(store: IndexStore, logger: Logger): Promise<WriterLease | null> {
  if (store.kind === 'pglite') {
    return {
      run: async (work) => {
        const client = await store.pool.connect();
        try {
          return await work(client);
        } finally {
          client.release();
        }
      },
      lost: new Promise<string>(() => {}),
      release: async () => {},
    };
  }
  const client = new pg.Client({ ...store.connection, keepAlive: true });
  let lose: (reason: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (lose = resolve));
  client.on('error', (err) => lose(`writer connection failed: ${err.message}`));
  client.on('end', () => lose('writer connection closed'));
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [WRITER_LOCK_KEY]);
    if (!rows[0]?.locked) {
      await client.end();
      return null;
    }
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  logger.info('this instance is the index writer');
  // One transaction at a time on the connection.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run: (work) => {
      const next = queue.then(() => work(client));
      queue = next.catch(() => {});
      return next;
    },
    lost,
    release: async () => {
      lose('released');
      await client.end().catch(() => {});
    },
  };
}
