import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import type { CommittedMcBlock } from './indexer';
import type { CommittedBlockRows, IndexHealth, LocalIndexService } from './service';
import type { ThreadPriorityState } from './threadPriority';

/**
 * The messages between the API's thread and the index thread (indexThread.ts, indexThreadWorker.ts).
 * Everything crosses as a structured clone, which turns a Buffer into a plain Uint8Array and copies
 * the whole ArrayBuffer under a view: a 32-byte hash sliced from a block's BoC would carry the
 * BoC along. `toTransferable` copies each Buffer into a buffer of its own size on the sending
 * side; `fromTransferable` makes Buffers (views, no copy) of them again on the receiving side.
 */

/** What the thread starts from (workerData). */
export interface IndexThreadData {
  readonly config: AppConfig;
  /** The lite servers and trust anchor of the API's pool (toTransferable form). */
  readonly liteServers: unknown;
  /** Start from the key block the API's pool saved in --config-cache-dir ('read'), or not (false). */
  readonly keyBlock: 'read' | false;
  readonly embeddedChain: boolean;
  readonly logLevel: string;
  /** The API's thread listens to committed blocks (IndexService.onBlock): send their CommittedBlockRows. */
  readonly blockRows: boolean;
  /** The streaming events to build here, when the API's thread asked for them (a restarted thread: at once). */
  readonly streaming?: StreamingInThread;
  /** The API's request counter (apiActivity.ts's ApiActivityBoard), which a catch-up yields to. */
  readonly apiActivity?: SharedArrayBuffer;
}

/** Which annotations of the streaming events are looked up (streaming's WantedAnnotations). */
export interface AnnotationsWanted {
  readonly addressBook: boolean;
  readonly metadata: boolean;
}

/**
 * The streaming events of committed blocks, built in the index thread so that the API's thread
 * only fans them out (their reads of the index and their JSON were the API loop's largest cost per
 * block during a catch-up). The builder is streaming's (src/streaming/threadEvents.ts), above the
 * index in the layers: the thread loads it by `module`, its path, as the API's thread names it.
 */
export interface StreamingInThread {
  readonly module: string;
  /** The newest block whose events the API's thread has (a restarted thread goes on after it); null: none yet. */
  readonly after: number | null;
  readonly wants: AnnotationsWanted;
}

/** What the streaming module gets in the index thread. */
export interface StreamingThreadHost {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly index: LocalIndexService;
  readonly after: number | null;
  readonly wants: AnnotationsWanted;
  send(message: FromIndexThread): void;
}

/** The streaming module's side in the index thread. */
export interface StreamingThreadEvents {
  /** Connections' annotations changed (the API's thread tells). */
  wants(wanted: AnnotationsWanted): void;
  stop(): Promise<void>;
}

/** The function the streaming module exports as `startInIndexThread`. */
export type StartStreamingInThread = (host: StreamingThreadHost) => StreamingThreadEvents;

/** What the API's thread needs of a committed block (CommittedBlockRows), cut from the whole one. */
export function committedBlockRows(block: CommittedMcBlock): CommittedBlockRows {
  return {
    mcSeqno: block.mcSeqno,
    transactions: block.transactions.map((t) => ({
      trace_id: t.trace_id,
      account: t.account,
      aborted: t.aborted,
      compute_skipped: t.compute_skipped,
      compute_exit_code: t.compute_exit_code,
    })),
    messages: block.messages
      .filter((m) => m.direction === 'in')
      .map((m) => ({ msg_hash: m.msg_hash, direction: m.direction, source: m.source })),
    traces: block.traces.map((t) => ({
      trace_id: t.trace_id,
      external_hash: t.external_hash,
      external_hash_norm: t.external_hash_norm,
      state: t.state,
      nodes_: t.nodes_,
    })),
  };
}

/** pg's failure as the reader needs it: the SQLSTATE decides 503/504/500 (src/v3/db.ts). */
export interface QueryFailure {
  readonly message: string;
  readonly code?: string;
}

export type ToIndexThread =
  | { readonly type: 'query'; readonly id: number; readonly read: boolean; readonly text: string; readonly values: unknown }
  | { readonly type: 'metrics'; readonly id: number; readonly format: 'text' | 'json' }
  /** The thread's lite pool's servers (ServerStatus[]). */
  | { readonly type: 'liteServers'; readonly id: number }
  /** The embedded chain was put back to block `seqno` (its controls): the thread's pool forgets the blocks above. */
  | { readonly type: 'chainRewound'; readonly seqno: number }
  /** Build the streaming events here (StreamingInThread). */
  | { readonly type: 'streaming'; readonly streaming: StreamingInThread }
  | { readonly type: 'streamingWants'; readonly wants: AnnotationsWanted }
  /** The API's thread listens to committed blocks from now on. */
  | { readonly type: 'blockRows' }
  | { readonly type: 'stop' }
  /** Makes the thread fail as an uncaught exception would (the recovery's test; `IndexThreadHandle.crash`). */
  | { readonly type: 'crash' };

export type FromIndexThread =
  /** The store is open; `temporaryPaths`: its files for the API's thread to remove if this thread dies without closing it. */
  | { readonly type: 'opened'; readonly temporaryPaths: readonly string[] }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'health'; readonly health: IndexHealth }
  /** The thread's nice value, at its start and at each change (threadPriority.ts); `tid` its kernel thread id (Linux). */
  | { readonly type: 'priority'; readonly tid: number | null; readonly nice: number; readonly reason: ThreadPriorityState['reason'] }
  /**
   * Masterchain blocks committed since the last such message, up to `seqno` (always sent: the v3
   * cache at the head re-reads it); `blocks`: each one's CommittedBlockRows in toTransferable form,
   * in order, when the API's thread listens (else empty). At most one per 100 ms (commitNotices.ts).
   */
  | { readonly type: 'committed'; readonly seqno: number; readonly blocks: readonly unknown[] }
  /** A block's streaming events (streaming's SourceBlock: strings and Maps of strings, no Buffers). */
  | { readonly type: 'events'; readonly block: unknown }
  /** The streaming events above `seqno` are no more (a rollback). */
  | { readonly type: 'eventsRewind'; readonly seqno: number }
  /** The events of block `seqno` could not be built (the follower retries): counted on the API's thread. */
  | { readonly type: 'eventsFailed'; readonly seqno: number }
  /** Token metadata URIs the events' lookups found missing: for the API's --metadata-fetch fetcher. */
  | { readonly type: 'metadataFetch'; readonly uris: readonly string[] }
  | { readonly type: 'rollback'; readonly common: number }
  | { readonly type: 'reply'; readonly id: number; readonly result?: unknown; readonly error?: QueryFailure }
  | { readonly type: 'stopped' };

/**
 * The kind of a value by its tag, not `instanceof`: a received clone is made in the thread's main
 * realm, which is not the realm of code run in a vm context (jest's), whose Map and Uint8Array
 * differ.
 */
function tagOf(value: object): string {
  return Object.prototype.toString.call(value);
}

function isPlainObject(value: object): boolean {
  if (tagOf(value) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A deep copy of plain data (objects, arrays, Maps) with every Buffer as a Uint8Array of its own. */
export function toTransferable(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Buffer.isBuffer(value)) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map(toTransferable);
  if (tagOf(value) === '[object Map]') {
    const copy = new Map<unknown, unknown>();
    for (const [key, item] of value as Map<unknown, unknown>) copy.set(key, toTransferable(item));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = toTransferable(item);
  return copy;
}

/** The received value with its Uint8Arrays as Buffers again (in place: the clone is the receiver's own). */
export function fromTransferable<T>(value: unknown): T {
  return revive(value) as T;
}

function revive(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (tagOf(value) === '[object Uint8Array]') {
    const bytes = value as Uint8Array;
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
    return value;
  }
  if (tagOf(value) === '[object Map]') {
    const map = value as Map<unknown, unknown>;
    for (const [key, item] of map) map.set(key, revive(item));
    return map;
  }
  if (!isPlainObject(value)) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = revive(record[key]);
  return record;
}

/**
 * The index thread's nice value while it catches up or backfills (threadPriority.ts; at the head it
 * runs at the process's own). On a machine whose cores are all busy (a catch-up keeps this thread,
 * the database and the chain at work) the scheduler would hand the API's thread a core only at
 * its turn among them (Linux CFS: slices of up to ~24 ms with several runnable threads); a lower
 * priority for the index lets the API's thread run as soon as a request comes. Linux keeps the nice
 * value per thread (setpriority of "the calling process" changes the calling thread), and threads
 * started from the index thread inherit what it has then (PGlite's starts with it at the process's
 * priority, as PostgreSQL's backends run; TVM threads started during a catch-up get it); Node's own threads,
 * which run the index's garbage collection and compiles, are given it by the server
 * (src/platformThreads.ts).
 */
export const INDEX_THREAD_NICE = 10;
