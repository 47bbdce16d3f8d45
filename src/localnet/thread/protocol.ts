/**
 * Messages between the API's thread and the local chain's worker thread (localnetThread.ts and
 * worker.ts): plain data only, as a MessagePort carries it.
 */
import type { ClockChange } from '../controls';
import type { LocalnetGlobalConfig } from '../localnet';

/** What the worker starts the chain with: StartLocalnetOptions without the logger (the worker makes its own). */
export interface WorkerStartOptions {
  mnemonic?: readonly string[] | string;
  accounts?: number;
  blockIntervalMs?: number;
  shards?: number;
  host?: string;
  port?: number;
  seed?: Uint8Array | string;
  stateFile?: string;
  saveIntervalSec?: number;
  keepBlocks?: number;
  maxConnections?: number;
  getMethodGasLimit?: bigint;
  crossShardDelay?: number;
  /** Post a `sealed` message for every masterchain block (a bench times seal to index commit with it). */
  reportSeals?: boolean;
  /**
   * Make the thread's full collections between blocks, once the readers of a seal are answered
   * (quietCollections.ts). Default true (its thresholds: 1.2x and 64 MB); false leaves them to V8
   * (a bench compares the two); other thresholds make them come sooner (a test).
   */
  quietCollections?: boolean | { growthFactor: number; minGrowthMb: number };
}

export interface WorkerData {
  options: WorkerStartOptions;
  logLevel: string;
  /** Make a full collection once the chain is restored, before it serves (localnetThread.ts). */
  collectAfterStart: boolean;
}

/** The full collection the chain's thread made after its start, before serving (null: none). */
export interface StartCollection {
  ms: number;
  /** That thread's heap in use before and after it, MB. */
  heapBeforeMb: number;
  heapAfterMb: number;
}

export type ControlRequest =
  | { op: 'fund'; address: string; amount: bigint }
  | { op: 'mine' }
  | { op: 'moveClock'; change: ClockChange }
  | { op: 'snapshot' }
  | { op: 'restore'; id: string }
  | { op: 'status' }
  | { op: 'stop' };

/** An error of a control, by the kind the API maps to a status. */
export interface ControlError {
  kind: 'invalid' | 'notFound' | 'other';
  message: string;
}

export type FromWorker =
  | {
      type: 'ready';
      host: string;
      port: number;
      publicKey: Uint8Array;
      globalConfig: LocalnetGlobalConfig;
      globalConfigJson: string;
      description: string;
      startCollection: StartCollection | null;
    }
  | { type: 'failed'; message: string }
  /**
   * A masterchain block became visible; `at`: performance.timeOrigin + performance.now() of the
   * chain's thread (ms); `gcMs`: the garbage collector's pauses on that thread since it started (ms),
   * `majorGcMs` the part of them in full (mark-compact) collections; `heapMb`: that thread's heap in
   * use at the seal (MB): a major collection's pause grows with it; `quietCollections`: the full
   * collections the thread made between blocks so far (quietCollections.ts).
   */
  | { type: 'sealed'; seqno: number; at: number; gcMs: number; majorGcMs: number; heapMb: number; quietCollections: number }
  | { type: 'reply'; id: number; result?: unknown; error?: ControlError };

export type ToWorker = { id: number; request: ControlRequest };
