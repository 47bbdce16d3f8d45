/**
 * Migration 8: the indexes one account's pages are read by hold every column of their keys, so
 * those keys are read from the index alone (an index-only scan) once the table's visibility map is
 * set (autovacuum, or the writer's VACUUM where there is none: src/indexer/statistics.ts).
 *
 * - `transactions?account=A` (sql/transactions.ts) takes its page's keys (hash, lt) in the
 *   account's lt order: `transactions_index_4 (account, lt)` and `_5 (account, now, lt)` now
 *   include `hash`. Without it each key cost a read of its heap row, and PostgreSQL's cost model
 *   (random_page_cost 4) preferred walking `transactions_index_2 (lt)` backwards and dropping the
 *   other accounts' rows: every newer transaction of the whole table was read for a deep page.
 * - `messages?source=` / `destination=` (sql/messages.ts) take their page of hashes in
 *   (created_lt, msg_hash) order: `messages_index_2 (source, created_lt)` and `_3 (destination,
 *   created_lt)` now end with `msg_hash`, so the index gives that whole order; before, PostgreSQL
 *   walked `messages_index_7 (created_lt, msg_hash)` backwards and dropped the rows of other
 *   sources.
 *
 * Measured on the v3 bench's fill (104 387 transactions; the busiest wallet has 3 295 of them and
 * sent 13 600 messages, each a row at both ends), PostgreSQL's time for a page of 100
 * (docs/benchmarks.md, "Deep pages of one account"): the transactions page's keys at offset 1 500
 * read 49 000 rows for 100 (11.6-13.2 ms), after 0.9 ms; `messages?source=` at offsets 0 / 3 000 /
 * 10 000 took 9.9 / 21.7 / 55.2 ms, after 5.8 / 7.0 / 10.2 ms. On a network's history the
 * difference grows with the table. The entries grow by the 32-byte hash; a block's insert updates
 * as many indexes as before.
 */
export const MIGRATION_0008_ACCOUNT_PAGE_INDEXES = `
drop index if exists transactions_index_4;
create index transactions_index_4 on transactions (account, lt) include (hash);
drop index if exists transactions_index_5;
create index transactions_index_5 on transactions (account, now, lt) include (hash);
drop index if exists messages_index_2;
create index messages_index_2 on messages (source, created_lt, msg_hash);
drop index if exists messages_index_3;
create index messages_index_3 on messages (destination, created_lt, msg_hash);
`;
