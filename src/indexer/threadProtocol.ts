import type { AppConfig } from '../config';
import type { IndexHealth } from './service';

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
  | { readonly type: 'stop' }
  /** Makes the thread fail as an uncaught exception would (the recovery's test; `IndexThreadHandle.crash`). */
  | { readonly type: 'crash' };

export type FromIndexThread =
  /** The store is open; `temporaryPaths`: its files for the API's thread to remove if this thread dies without closing it. */
  | { readonly type: 'opened'; readonly temporaryPaths: readonly string[] }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'health'; readonly health: IndexHealth }
  /** A committed masterchain block (CommittedMcBlock in toTransferable form). */
  | { readonly type: 'block'; readonly block: unknown }
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
