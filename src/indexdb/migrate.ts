import type { ClientBase } from 'pg';
import { IndexStoreError } from './errors';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

/** Advisory lock key held while migrating, so two instances starting together migrate once. */
const MIGRATION_LOCK_KEY = 0x7462_6d67; // 'tbmg'

const VERSION_TABLE = `create table if not exists index_schema_version (
  version integer primary key,
  name text not null,
  applied_at timestamptz not null default now()
)`;

/**
 * Brings the schema to SCHEMA_VERSION: each missing migration in its own transaction with its row
 * in the version table. A database whose version is above this code's is refused (a newer
 * ton-http-bridge wrote it; this one would misread it). Returns the versions applied.
 */
export async function migrate(client: ClientBase): Promise<number[]> {
  const applied: number[] = [];
  await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(VERSION_TABLE);
    const { rows } = await client.query<{ version: number | null }>('select max(version) as version from index_schema_version');
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new IndexStoreError(
        `the index database has schema version ${current}, newer than this ton-http-bridge's ${SCHEMA_VERSION}: ` +
          'run the newer version, or point --database-url / --index-dir at another database',
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query('begin');
      try {
        await client.query(migration.sql);
        await client.query('insert into index_schema_version (version, name) values ($1, $2)', [migration.version, migration.name]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw new IndexStoreError(`index schema migration ${migration.version} (${migration.name}) failed: ${(err as Error).message}`);
      }
      applied.push(migration.version);
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
  return applied;
}
