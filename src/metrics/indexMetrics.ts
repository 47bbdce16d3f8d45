import { Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/**
 * The index pipeline's Prometheus metrics, in a registry of their own: in `npm start` the pipeline
 * runs in its own worker thread (src/indexer/indexThread.ts), whose copy of this module is the one
 * that counts; the API's endpoint then shows the thread's values (`useRemoteIndexMetrics`) where
 * this thread's would stay at zero.
 */
export const indexMetricsRegistry = new Registry();

/** The JSON form of a registry's metrics (what a thread sends and tests read). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Where the index metrics come from when not from this thread's registry. */
export interface IndexMetricsSource {
  text(): Promise<string>;
}

let remoteSource: IndexMetricsSource | null = null;

/**
 * The index metrics of another thread (the index thread) replace this thread's in
 * `indexMetricsText`; the returned function gives this thread's back (unless another source
 * replaced this one meanwhile).
 */
export function useRemoteIndexMetrics(source: IndexMetricsSource): () => void {
  remoteSource = source;
  return () => {
    if (remoteSource === source) remoteSource = null;
  };
}

/** The index metrics in Prometheus text: the index thread's when one runs, else this thread's. */
export async function indexMetricsText(): Promise<string> {
  return remoteSource ? remoteSource.text() : indexMetricsRegistry.metrics();
}

/** The index pipeline's metrics. */
export const indexMetrics = {
  lagBlocks: new Gauge({
    name: 'ton_bridge_index_lag_blocks',
    help: 'Masterchain blocks between the verified head and the last committed one',
    registers: [indexMetricsRegistry],
  }),
  lagSeconds: new Gauge({
    name: 'ton_bridge_index_lag_seconds',
    help: 'Time from the last committed masterchain block being generated (gen_utime) to now',
    registers: [indexMetricsRegistry],
  }),
  committedSeqno: new Gauge({
    name: 'ton_bridge_index_committed_mc_seqno',
    help: 'The last masterchain block committed to the index',
    registers: [indexMetricsRegistry],
  }),
  firstSeqno: new Gauge({
    name: 'ton_bridge_index_first_mc_seqno',
    help: 'The first masterchain block in the index (the backfill\'s first once it committed one)',
    registers: [indexMetricsRegistry],
  }),
  backfillRemaining: new Gauge({
    name: 'ton_bridge_index_backfill_remaining_blocks',
    help: 'Masterchain blocks the --index-from backfill has still to fill below the first live one (0: none)',
    registers: [indexMetricsRegistry],
  }),
  batches: new Counter({
    name: 'ton_bridge_index_batches_total',
    help: 'Masterchain blocks committed (one database transaction each)',
    registers: [indexMetricsRegistry],
  }),
  rows: new Counter({
    name: 'ton_bridge_index_rows_total',
    help: 'Rows written, by table',
    labelNames: ['table'] as const,
    registers: [indexMetricsRegistry],
  }),
  writeSeconds: new Histogram({
    name: 'ton_bridge_index_write_seconds',
    help: 'Time of one masterchain block commit (the database transaction)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [indexMetricsRegistry],
  }),
  sealToCommitSeconds: new Histogram({
    name: 'ton_bridge_index_seal_to_commit_seconds',
    help: 'From a masterchain block being generated (gen_utime, 1 s resolution) to its rows being committed',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [indexMetricsRegistry],
  }),
  fetchQueue: new Gauge({
    name: 'ton_bridge_index_fetch_queue',
    help: 'Masterchain blocks being fetched ahead of the commit',
    registers: [indexMetricsRegistry],
  }),
  threadNice: new Gauge({
    name: 'ton_bridge_index_thread_nice',
    help: 'The nice value the index thread runs at: raised while it catches up or backfills, the process\'s own at the head',
    registers: [indexMetricsRegistry],
  }),
  yieldedBatches: new Counter({
    name: 'ton_bridge_index_yielded_batches_total',
    help: 'Batches a catch-up prepared and committed one stage at a time because the API was serving requests',
    registers: [indexMetricsRegistry],
  }),
  writer: new Gauge({
    name: 'ton_bridge_index_writer',
    help: '1 while this instance is the index writer (holds the advisory lock), 0 otherwise',
    registers: [indexMetricsRegistry],
  }),
  refusedBlocks: new Counter({
    name: 'ton_bridge_index_refused_blocks_total',
    help: 'Blocks a lite server sent that failed the file/root hash check (refused, asked elsewhere)',
    registers: [indexMetricsRegistry],
  }),
  analyzes: new Counter({
    name: 'ton_bridge_index_analyzes_total',
    help: "ANALYZEs of the index's tables the writer ran (planner statistics, as the tables grow), by group",
    labelNames: ['group'] as const,
    registers: [indexMetricsRegistry],
  }),
  vacuums: new Counter({
    name: 'ton_bridge_index_vacuums_total',
    help: "VACUUMs of the index's transactions and messages tables the writer ran where autovacuum does not (their visibility maps, for index-only scans), by table",
    labelNames: ['table'] as const,
    registers: [indexMetricsRegistry],
  }),
  rollbacks: new Counter({
    name: 'ton_bridge_index_rollbacks_total',
    help: 'Rollbacks to the last common masterchain block after the embedded chain was rewound',
    registers: [indexMetricsRegistry],
  }),
  accountStates: new Counter({
    name: 'ton_bridge_index_account_states_total',
    help: "Account states indexed, by source: the block's own state update, or a proven lite-server read",
    labelNames: ['source'] as const,
    registers: [indexMetricsRegistry],
  }),
};
