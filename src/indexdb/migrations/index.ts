/**
 * The index's schema, as numbered migrations applied in order at start (src/indexdb/migrate.ts).
 * A migration is never edited once released: a change is a new number. TypeScript modules, not
 * .sql files, because the dev build bundles src/ and would not copy .sql files.
 */
import { MIGRATION_0001_SCHEMA_V1 } from './0001_schema_v1';
import { MIGRATION_0002_ACTIONS } from './0002_actions';
import { MIGRATION_0003_TOKENS } from './0003_tokens';
import { MIGRATION_0004_MULTISIG_VESTING } from './0004_multisig_vesting';
import { MIGRATION_0005_DNS_METADATA } from './0005_dns_metadata';
import { MIGRATION_0006_BACKFILL } from './0006_backfill';
import { MIGRATION_0007_FEWER_WRITE_INDEXES } from './0007_fewer_write_indexes';
import { MIGRATION_0008_ACCOUNT_PAGE_INDEXES } from './0008_account_page_indexes';
import { MIGRATION_0009_ACTIONS_BY_TIME } from './0009_actions_by_time';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'schema v1', sql: MIGRATION_0001_SCHEMA_V1 },
  { version: 2, name: 'actions', sql: MIGRATION_0002_ACTIONS },
  { version: 3, name: 'tokens', sql: MIGRATION_0003_TOKENS },
  { version: 4, name: 'multisig vesting', sql: MIGRATION_0004_MULTISIG_VESTING },
  { version: 5, name: 'dns and metadata', sql: MIGRATION_0005_DNS_METADATA },
  { version: 6, name: 'backfill', sql: MIGRATION_0006_BACKFILL },
  { version: 7, name: 'fewer write indexes', sql: MIGRATION_0007_FEWER_WRITE_INDEXES },
  { version: 8, name: 'account page indexes', sql: MIGRATION_0008_ACCOUNT_PAGE_INDEXES },
  { version: 9, name: 'actions by time', sql: MIGRATION_0009_ACTIONS_BY_TIME },
];

/** The schema version this code writes and reads. A database above it is refused at start. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
