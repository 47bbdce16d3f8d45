/**
 * Migration 7: two indexes every block's insert paid for and no read needs.
 *
 * - `transactions_index_6 (hash)`: the primary key `(hash, lt)` begins with `hash`, so every
 *   lookup by hash (transactions?hash=, adjacentTransactions, traces?tx_hash=, the message joins)
 *   is already an index scan of the key.
 * - `messages_index_10 (mc_seqno)`: only the rollback of a rewound local chain and the retention
 *   prune filtered messages by masterchain block; they now find them through their transactions
 *   (`transactions_index_8 (mc_block_seqno, lt)`, then the messages' primary key, which begins
 *   with `(tx_hash, tx_lt)`).
 *
 * Every transaction and message row wrote to them, inside the commit, which is the ingest's
 * critical path: 2 of the 21 indexes a block's transactions and messages update (docs/benchmarks.md,
 * "The index").
 */
export const MIGRATION_0007_FEWER_WRITE_INDEXES = `
drop index if exists transactions_index_6;
drop index if exists messages_index_10;
`;
