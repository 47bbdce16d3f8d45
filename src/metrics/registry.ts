import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics: one registry and the named metrics every part of the server
 * records into. To add one, declare it here with `registers: [metricsRegistry]` and import it
 * where the event happens, e.g.
 *
 *   export const cacheLookups = new Counter({ name: 'ton_bridge_cache_lookups_total',
 *     help: 'Response cache lookups by result', labelNames: ['result'] as const, registers: [metricsRegistry] });
 *   cacheLookups.inc({ result: 'hit' });
 *
 * Labels only ever take values from a fixed set (method names of the handler table, server
 * indices, outcome words), never raw client input, so a client cannot grow the series count.
 */
export const metricsRegistry = new Registry();

collectDefaultMetrics({ register: metricsRegistry, prefix: 'ton_bridge_' });

export const httpRequests = new Counter({
  name: 'ton_bridge_requests_total',
  help: 'API calls by method (unknown for names outside the table), mode (rest, jsonrpc) and HTTP status; a JSON-RPC batch counts each element',
  labelNames: ['method', 'mode', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'ton_bridge_request_duration_seconds',
  help: 'Time from the request to the answer by method and mode (batch elements get the batch time)',
  labelNames: ['method', 'mode'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const rateLimitDecisions = new Counter({
  name: 'ton_bridge_rate_limit_decisions_total',
  help: 'Access-gate decisions: allowed, limited (429), unlimited (no bucket), unknown_key (401), wrong_network (403), store_unavailable_open, store_unavailable_closed (503)',
  labelNames: ['decision'] as const,
  registers: [metricsRegistry],
});

export const liteServerUp = new Gauge({
  name: 'ton_bridge_liteserver_up',
  help: '1 when the lite server is in rotation (state up and connected), 0 otherwise',
  labelNames: ['server', 'address'] as const,
  registers: [metricsRegistry],
});

export const liteServerState = new Gauge({
  name: 'ton_bridge_liteserver_state',
  help: '1 for the current state of each lite server (starting, up, down, lagging, unverified), 0 for the others',
  labelNames: ['server', 'address', 'state'] as const,
  registers: [metricsRegistry],
});

export const liteServerLag = new Gauge({
  name: 'ton_bridge_liteserver_lag_blocks',
  help: 'Masterchain blocks the lite server is behind the best one (absent until probed)',
  labelNames: ['server', 'address'] as const,
  registers: [metricsRegistry],
});

export const liteServerSeqno = new Gauge({
  name: 'ton_bridge_liteserver_masterchain_seqno',
  help: 'Last masterchain seqno the lite server reported',
  labelNames: ['server', 'address'] as const,
  registers: [metricsRegistry],
});

export const liteServerProbeDuration = new Histogram({
  name: 'ton_bridge_liteserver_probe_duration_seconds',
  help: 'Health probe (getMasterchainInfo) round trip by lite server, failures included',
  labelNames: ['server', 'address'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export const liteServerErrors = new Counter({
  name: 'ton_bridge_liteserver_errors_total',
  help: 'Lite-server failures by server and source: probe (a failed health probe), query (a request query with a transport failure)',
  labelNames: ['server', 'address', 'source'] as const,
  registers: [metricsRegistry],
});

export const tvmQueueLength = new Gauge({
  name: 'ton_bridge_tvm_queue_length',
  help: 'TVM tasks waiting for a worker thread (set whenever a task is submitted or ends)',
  registers: [metricsRegistry],
});

export const tvmRuns = new Counter({
  name: 'ton_bridge_tvm_runs_total',
  help: 'TVM worker tasks by kind (getMethod, transaction, externalMessage, queryMessage, warm) and outcome: ok, deadline (504), busy (queue full, 503), trapped (emulator reset), rejected (input refused by the worker), failed (worker died)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const tvmRunDuration = new Histogram({
  name: 'ton_bridge_tvm_run_duration_seconds',
  help: 'Time from submitting a TVM task to its answer (queue wait included), by kind',
  labelNames: ['kind'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const tvmWorkerReplacements = new Counter({
  name: 'ton_bridge_tvm_worker_replacements_total',
  help: 'TVM worker threads that ended under a task (aborted at its deadline, a crash); the next task starts another',
  registers: [metricsRegistry],
});

export const tvmThreads = new Gauge({
  name: 'ton_bridge_tvm_threads',
  help: 'TVM worker threads alive (started when a task needs one, ended after --tvm-idle-timeout without a task)',
  registers: [metricsRegistry],
});

export const responseCacheHits = new Counter({
  name: 'ton_bridge_response_cache_hits_total',
  help: 'Response cache lookups answered without computing, by level: memory, redis (the shared second level), inflight (joined an identical computation already running)',
  labelNames: ['level'] as const,
  registers: [metricsRegistry],
});

export const responseCacheMisses = new Counter({
  name: 'ton_bridge_response_cache_misses_total',
  help: 'Response cache lookups that computed the answer (one per single-flight computation)',
  registers: [metricsRegistry],
});

export const v3AnswerTasks = new Counter({
  name: 'ton_bridge_v3_answer_tasks_total',
  help: 'v3 answers assembled (PostgreSQL\'s JSON parsed, converted, written) by where: inline (the event loop: small answers, or --v3-answer-threads 0), thread, thread_read (the page read by the thread itself: a transactions page on a PostgreSQL server), or refused (never assembled); and outcome: ok, busy (queue full: 503), failed (the thread died or the task threw: 500), too_large (past --v3-answer-max: 422), read_failed (the thread\'s read failed: 503/504 as on the event loop)',
  labelNames: ['where', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const v3AnswerQueueLength = new Gauge({
  name: 'ton_bridge_v3_answer_queue_length',
  help: 'v3 answer tasks waiting for an answer thread (set whenever a task is submitted or ends)',
  registers: [metricsRegistry],
});

export const v3HeadCacheRequests = new Counter({
  name: 'ton_bridge_v3_head_cache_requests_total',
  help: "v3 answers by what the cache at the index's head did: hit, miss (computed and kept), not_kept (computed, too large or made of off-chain documents), no_head (the read database's head unknown: not looked up)",
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const v3HeadWarmKeys = new Counter({
  name: 'ton_bridge_v3_head_warm_keys_total',
  help: "v3 keys computed again for a newer index head before it is published (--v3-head-warm), by outcome: kept, not_kept (too large, off-chain documents, or failed: no longer warmed)",
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const v3HeadPublishDelay = new Histogram({
  name: 'ton_bridge_v3_head_publish_delay_seconds',
  help: "v3: from a newer index head reported (this process's commit) or read (another's) to its publication as the head answers are keyed by, by why: warm (its hot keys computed), deadline (--v3-head-warm passed first), at_once (nothing to warm, warming off, or the chain went back)",
  labelNames: ['why'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.5, 1],
  registers: [metricsRegistry],
});

export const responseCacheBytes = new Gauge({
  name: 'ton_bridge_response_cache_bytes',
  help: 'Bytes held by the in-memory response cache (answers, keys and per-entry bookkeeping), bounded by --cache-size',
  registers: [metricsRegistry],
});

export const responseCacheEntries = new Gauge({
  name: 'ton_bridge_response_cache_entries',
  help: 'Answers held by the in-memory response cache',
  registers: [metricsRegistry],
});

export const fastPathRequests = new Counter({
  name: 'ton_bridge_fast_path_requests_total',
  help: 'REST calls of cached methods taken by the fast path ahead of the Express app, by outcome: hit (answered from the in-memory cache), refused (by the access gate), handed_over (to the app: a miss, an error)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
