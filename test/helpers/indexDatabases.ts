import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The two stores every index test runs on: the embedded PGlite (in memory) and the machine's
 * PostgreSQL (127.0.0.1:5432, user postgres; TEST_PG_URL overrides), each test on a database of its
 * own, created fresh and dropped after.
 */
export type IndexBackend = 'pglite' | 'postgres';
export const INDEX_BACKENDS: readonly IndexBackend[] = ['pglite', 'postgres'];

const ADMIN_URL = process.env['TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** `--database-url` for postgres; undefined for pglite. */
  readonly url: string | undefined;
  drop(): Promise<void>;
}

function urlFor(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createTestDatabase(backend: IndexBackend, prefix = 'index_test'): Promise<TestDatabase> {
  if (backend === 'pglite') return { url: undefined, drop: async () => {} };
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: urlFor(name),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
