/**
 * Migration 6: the backfill of `--index-from` on a remote network. The index starts at the head
 * (first_mc_seqno) and a second lane fills the blocks below it, from `backfill_from` upwards;
 * `backfill_next` is the next one it commits (blocks backfill_from .. backfill_next - 1 are in),
 * moved in the transaction of each block it writes, so a restart resumes with no gap and no
 * duplicate. When the lane reaches first_mc_seqno, first_mc_seqno becomes backfill_from and both
 * are cleared.
 */
export const MIGRATION_0006_BACKFILL = `
alter table index_checkpoint add column backfill_from integer, add column backfill_next integer;
`;
