/**
 * The index's store: PostgreSQL (`--database-url`) or the embedded PGlite, the schema's
 * migrations, the writer of one masterchain block's rows with the checkpoint, the writer election,
 * rollback and retention. The pipeline that fills it is src/indexer.
 */
export { IndexStore, redactedUrl, type IndexStoreKind, type IndexStoreOptions, type StoreHealth } from './store';
export { IndexStoreError } from './errors';
export { SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations';
export { insertMcBlockRows, beginAtCheckpoint, readCheckpoint, advanceBackfill, CheckpointMovedError, blockIdArrayLiteral, type WrittenRows, type CheckpointMove } from './writer';
export { rollbackTo, pruneBefore } from './rollback';
export { tryAcquireWriter, WRITER_LOCK_KEY, type WriterLease } from './election';
export { insertTokenStates, insertTokenEvents, readCodeInterfaces } from './tokens';
export { writeMetadataCache, type MetadataCacheRow } from './metadataCache';
export type * from './tokens';
export type * from './multisigVesting';
export type * from './rows';
