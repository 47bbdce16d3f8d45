/**
 * toncenter's Emulate API over state read from lite servers: whole traces of external messages,
 * run in the TVM worker pool on proven account states. Above src/chain and src/tvm, below the
 * routes (src/routes/emulate.ts), which mount the records.
 */
import type { EmulateRecord } from './record';
import { emulateTonConnectRecord } from './records/emulateTonConnect';
import { emulateTraceRecord } from './records/emulateTrace';

export type { EmulateContext, EmulateRecord } from './record';
export { toEmulateTraceResponse, traceTree, type EmulateTraceResponseJson, type TraceNodeJson } from './response';
export { emulateTraceAt, MAX_TRACE_DEPTH, MAX_TRACE_TRANSACTIONS, type EmulatedTrace, type EmulatedTransaction } from './trace';

/** Every route of the Emulate API. */
export const EMULATE_RECORDS: readonly EmulateRecord<unknown>[] = [
  emulateTraceRecord as EmulateRecord<unknown>,
  emulateTonConnectRecord as EmulateRecord<unknown>,
];
export { PendingTraces } from './pending';
export { RedisPendingTraces, type RedisPendingOptions } from './pendingRedis';
export {
  PENDING_DEFAULTS,
  PENDING_REDIS_ENTRY_BYTES,
  type CommittedRows,
  type PendingListener,
  type PendingOptions,
  type PendingStats,
  type PendingTrace,
  type PendingTraceStore,
} from './pendingEntry';
