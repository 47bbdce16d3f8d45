import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/** The index pipeline's Prometheus metrics (in the process's one registry). */
export const indexMetrics = {
  lagBlocks: new Gauge({
    name: 'ton_bridge_index_lag_blocks',
    help: 'Masterchain blocks between the verified head and the last committed one',
    registers: [metricsRegistry],
  }),
  lagSeconds: new Gauge({
    name: 'ton_bridge_index_lag_seconds',
    help: 'Time from the last committed masterchain block being generated (gen_utime) to now',
    registers: [metricsRegistry],
  }),
  committedSeqno: new Gauge({
    name: 'ton_bridge_index_committed_mc_seqno',
    help: 'The last masterchain block committed to the index',
    registers: [metricsRegistry],
  }),
  firstSeqno: new Gauge({
    name: 'ton_bridge_index_first_mc_seqno',
    help: 'The first masterchain block in the index (the backfill\'s first once it committed one)',
    registers: [metricsRegistry],
  }),
  backfillRemaining: new Gauge({
    name: 'ton_bridge_index_backfill_remaining_blocks',
    help: 'Masterchain blocks the --index-from backfill has still to fill below the first live one (0: none)',
    registers: [metricsRegistry],
  }),
  batches: new Counter({
    name: 'ton_bridge_index_batches_total',
    help: 'Masterchain blocks committed (one database transaction each)',
    registers: [metricsRegistry],
  }),
  rows: new Counter({
    name: 'ton_bridge_index_rows_total',
    help: 'Rows written, by table',
    labelNames: ['table'] as const,
    registers: [metricsRegistry],
  }),
  writeSeconds: new Histogram({
    name: 'ton_bridge_index_write_seconds',
    help: 'Time of one masterchain block commit (the database transaction)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [metricsRegistry],
  }),
  sealToCommitSeconds: new Histogram({
    name: 'ton_bridge_index_seal_to_commit_seconds',
    help: 'From a masterchain block being generated (gen_utime, 1 s resolution) to its rows being committed',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [metricsRegistry],
  }),
  fetchQueue: new Gauge({
    name: 'ton_bridge_index_fetch_queue',
    help: 'Masterchain blocks being fetched ahead of the commit',
    registers: [metricsRegistry],
  }),
  writer: new Gauge({
    name: 'ton_bridge_index_writer',
    help: '1 while this instance is the index writer (holds the advisory lock), 0 otherwise',
    registers: [metricsRegistry],
  }),
  refusedBlocks: new Counter({
    name: 'ton_bridge_index_refused_blocks_total',
    help: 'Blocks a lite server sent that failed the file/root hash check (refused, asked elsewhere)',
    registers: [metricsRegistry],
  }),
  rollbacks: new Counter({
    name: 'ton_bridge_index_rollbacks_total',
    help: 'Rollbacks to the last common masterchain block after the embedded chain was rewound',
    registers: [metricsRegistry],
  }),
  accountStates: new Counter({
    name: 'ton_bridge_index_account_states_total',
    help: "Account states indexed, by source: the block's own state update, or a proven lite-server read",
    labelNames: ['source'] as const,
    registers: [metricsRegistry],
  }),
};
