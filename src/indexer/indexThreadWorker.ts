/**
 * The index thread (see indexThread.ts): the whole pipeline (block fetches through a lite pool of
 * its own, BoC decoding, parsing, account states, token detection in a TVM pool of its own, row
 * building, commits) runs here, `startIndex` as the `index` command runs it, so none of it is on
 * the API's event loop. It tells the API's thread what the API needs: the index's health on every
 * change, each committed block, each rollback; and it answers the reads the API sends it (the
 * embedded database serves one connection, this thread's: see indexThread.ts).
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { createLitePool, type LiteServerSet } from '../liteclient';
import { indexMetrics, indexMetricsRegistry } from '../metrics';
import { closeTvm, configureTvm, DEFAULT_TVM_IDLE_TIMEOUT_MS } from '../tvm';
import { startIndex } from './startIndex';
import { CommitNotices } from './commitNotices';
import { ApiActivityView } from './apiActivity';
import { IndexThreadPriority, type ThreadPriorityState } from './threadPriority';
import {
  committedBlockRows,
  fromTransferable,
  INDEX_THREAD_NICE,
  toTransferable,
  type FromIndexThread,
  type IndexThreadData,
  type StartStreamingInThread,
  type StreamingInThread,
  type StreamingThreadEvents,
  type ToIndexThread,
} from './threadProtocol';

/** How often the health is compared with the last one sent, ms (a change is sent at the next look). */
const HEALTH_LOOK_MS = 100;
/** Longest a changed lag alone waits before it is sent. */
const HEALTH_LAG_REFRESH_MS = 1000;

/**
 * The index's TVM threads end after this long without a task (or --tvm-idle-timeout, if shorter).
 * A thread is 25-55 MB (docs/emulate.md, "TVM threads") and token detection comes in bursts (the
 * blocks of a catch-up, a new contract now and then when live): a busy index keeps its threads, a
 * quiet one gives them back soon, and restarting one costs the index ~0.3 s, no request waits on
 * it. At 60 s the index's thread of `npm start` was still alive (docs/benchmarks.md, "The index").
 */
const INDEX_TVM_IDLE_TIMEOUT_MS = 10_000;

/**
 * Committed blocks are told to the API's thread at most once per this long (commitNotices.ts): live
 * blocks (one every 400 ms or more) still go at once, a catch-up's go ~10 a message. The API's
 * listeners (the pending traces, the v3 head cache) learn of a commit at most this much later.
 */
const COMMIT_NOTICE_MS = 100;

/** Longest the re-read of the heads after a rewind may take, ms. */
const REWIND_REFRESH_MS = 10_000;

if (!parentPort) throw new Error('the index thread runs in a worker thread');
const port = parentPort;
const data = workerData as IndexThreadData;
/**
 * The API counts as serving when a request came in within this: a client that asks one thing after
 * another (or one a second) keeps the catch-up yielding between its requests too.
 */
const API_RECENT_MS = 1000;
const send = (message: FromIndexThread): void => port.postMessage(message);

/** This thread's id in the kernel (Linux), null elsewhere. */
function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) ? tid : null;
  } catch {
    return null;
  }
}

/** This thread's nice value now (the process's, inherited), 0 when it cannot be read. */
function ownNice(): number {
  try {
    return getPriority();
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const { config } = data;
  const logger = pino({ level: data.logLevel }).child({ thread: 'index' });
  // At the process's priority until it catches up (threadPriority.ts); the threads it starts
  // (PGlite's, its TVM threads) inherit the priority it has when it starts them.
  const tid = threadId();
  const report = (state: ThreadPriorityState): void => {
    indexMetrics.threadNice.set(state.nice);
    send({ type: 'priority', tid, nice: state.nice, reason: state.reason });
  };
  const priority = new IndexThreadPriority((nice) => setPriority(nice), ownNice(), INDEX_THREAD_NICE, (state, refused) => {
    report(state);
    if (refused && state.reason === 'cannot_raise') {
      logger.info(
        { nice: state.nice, err: refused.message },
        "the index thread stays at its catch-up priority: raising a thread's priority back needs CAP_SYS_NICE (e.g. docker run --cap-add SYS_NICE) or a high enough RLIMIT_NICE",
      );
    } else if (refused) {
      logger.warn({ err: refused.message }, 'cannot lower the index thread priority');
    }
  });
  report(priority.state);
  // Token detection runs get-methods: in TVM threads of this thread's own, started on demand and
  // ended when idle (whatever --tvm-idle-timeout keeps warm for the API), so the index's tasks never
  // queue before the API's get-methods nor take their threads, and an idle index holds none.
  configureTvm({
    workers: config.tvmWorkers,
    idleTimeoutMs: Math.min(config.tvmIdleTimeout > 0 ? config.tvmIdleTimeout : DEFAULT_TVM_IDLE_TIMEOUT_MS, INDEX_TVM_IDLE_TIMEOUT_MS),
    getMethodGas: BigInt(config.getMethodGas),
    newerNetwork: config.tvmNewerNetwork,
  });
  const pool = createLitePool(fromTransferable<LiteServerSet>(data.liteServers), config, logger, data.keyBlock);
  await pool.start();
  // The off-chain metadata fetcher answers v3's reads: the API's thread runs it.
  const apiActivity = data.apiActivity ? new ApiActivityView(data.apiActivity, API_RECENT_MS) : undefined;
  const index = await startIndex({ ...config, metadataFetch: false }, pool, logger, data.embeddedChain, { background: true, ...(apiActivity ? { apiActivity } : {}) });
  index.ready.then(
    (open) => send({ type: 'opened', temporaryPaths: open.store.temporaryPaths }),
    (err: unknown) => send({ type: 'failed', message: err instanceof Error ? err.message : String(err) }),
  );
  // Only what the API's thread uses crosses: the rows pending traces match, when it listens.
  let blockRows = data.blockRows;
  const notices = new CommitNotices<unknown>(COMMIT_NOTICE_MS, (notice) => send({ type: 'committed', seqno: notice.seqno, blocks: notice.blocks }));
  index.onBlock((block) => notices.committed(block.mcSeqno, blockRows ? toTransferable(committedBlockRows(block)) : undefined));
  let streaming: StreamingThreadEvents | undefined;
  const startStreaming = (asked: StreamingInThread) => {
    if (streaming) return;
    // streaming is above the index in the layers (it reads the index through v3): named by the
    // API's thread, loaded here by its path.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(asked.module) as { startInIndexThread: StartStreamingInThread };
    streaming = loaded.startInIndexThread({ config, logger, index, after: asked.after, wants: asked.wants, send });
  };
  if (data.streaming) startStreaming(data.streaming);
  index.onRollback((common) => {
    // The blocks committed before the rollback reach the API's thread before it.
    notices.flush();
    send({ type: 'rollback', common });
  });
  let lastHealth = '';
  let lastSentAt = 0;
  const lookAtHealth = () => {
    const health = index.health();
    const backfill = health.status.backfill;
    priority.follow(health.status.state === 'catching_up' || (backfill !== null && backfill.next <= backfill.until));
    // The lag in ms moves at every look while live: alone, it is sent once a second, so the API's
    // loop gets a message per change of state, not ten a second.
    const text = JSON.stringify({ ...health, status: { ...health.status, lagMs: null } });
    const now = Date.now();
    if (text === lastHealth && now - lastSentAt < HEALTH_LAG_REFRESH_MS) return;
    lastHealth = text;
    lastSentAt = now;
    send({ type: 'health', health });
  };
  lookAtHealth();
  const healthTimer = setInterval(lookAtHealth, HEALTH_LOOK_MS);
  let stopping = false;
  port.on('message', (message: ToIndexThread) => {
    switch (message.type) {
      case 'query': {
        const open = index.opened();
        if (!open) {
          send({ type: 'reply', id: message.id, error: { message: 'the index is starting (its database is opening)', code: '57P03' } });
          return;
        }
        const target = message.read ? open.store.readPool : open.store.pool;
        target.query(message.text, fromTransferable<unknown[]>(message.values)).then(
          (result) => send({ type: 'reply', id: message.id, result: { rows: toTransferable(result.rows), rowCount: result.rowCount, command: result.command } }),
          (err: unknown) => {
            const code = (err as { code?: unknown } | null)?.code;
            send({ type: 'reply', id: message.id, error: { message: err instanceof Error ? err.message : String(err), ...(typeof code === 'string' ? { code } : {}) } });
          },
        );
        return;
      }
      case 'metrics': {
        const reading = message.format === 'text' ? indexMetricsRegistry.metrics() : indexMetricsRegistry.getMetricsAsJSON();
        reading.then(
          (result) => send({ type: 'reply', id: message.id, result }),
          (err: unknown) => send({ type: 'reply', id: message.id, error: { message: err instanceof Error ? err.message : String(err) } }),
        );
        return;
      }
      case 'chainRewound':
        pool.chainRewound(message.seqno);
        void pool.refreshHeads(Date.now() + REWIND_REFRESH_MS).catch(() => undefined);
        return;
      case 'streaming':
        startStreaming(message.streaming);
        return;
      case 'streamingWants':
        streaming?.wants(message.wants);
        return;
      case 'blockRows':
        blockRows = true;
        return;
      case 'liteServers':
        send({ type: 'reply', id: message.id, result: pool.status() });
        return;
      case 'crash':
        setImmediate(() => {
          throw new Error('the index thread was made to fail (a test of its recovery)');
        });
        return;
      case 'stop':
        if (stopping) return;
        stopping = true;
        void (async () => {
          clearInterval(healthTimer);
          try {
            await streaming?.stop();
            await index.stop();
            notices.flush();
            pool.close();
            await closeTvm();
          } finally {
            send({ type: 'stopped' });
            port.close();
          }
        })();
        return;
    }
  });
}

main().catch((err: unknown) => send({ type: 'failed', message: err instanceof Error ? err.message : String(err) }));
