/**
 * Migration 9: `actions` in the order a time-filtered page reads them.
 *
 * GetActions orders by the trace's end: by `trace_end_lt` (with `actions_trace_end_lt`), or by
 * `trace_end_utime` when `start_utime` or `end_utime` is given (crud_actions_v2's order_by_now,
 * sql/actions.ts). Nothing indexed the second order, so every time-filtered request read the whole
 * table and sorted what passed: a page of 100 of the last minute's actions took 212-265 ms on the
 * v3 bench's fill of 100 312 actions (a sequential scan), 26 ms with this index; on a network's
 * history the scan grows with the table. toncenter's schema has no such index either (its
 * `actions_index_4` is `trace_end_lt` alone); ours answers the route it serves.
 *
 * Its write cost, one more b-tree entry per action: inserting the fill's 100 312 actions with it
 * and without it took the same time within the runs' spread (1.55-2.12 s).
 */
export const MIGRATION_0009_ACTIONS_BY_TIME = `
create index actions_trace_end_utime on actions (trace_end_utime, trace_id, end_utime, action_id);
`;
