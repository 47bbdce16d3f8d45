/**
 * The local chain in its own worker thread (worker.ts), as `npm start` runs it: the API's event
 * loop never executes or seals (a valid 8 190-cell message costs the chain a few hundred ms of
 * CPU, every seal tens of ms). The API talks to the chain's lite server over ADNL/TCP as before;
 * this handle carries the `/localnet/*` controls over the thread's message port, with the same
 * answers and errors as the controls on the chain's own thread.
 */
import { Address } from '@ton/core';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { ClockChange, FundAnswer, LocalnetControlApi, LocalnetStatus, SnapshotInfo } from '../controls';
import type { LocalnetGlobalConfig } from '../localnet';
import { ControlRefusedError } from '../ledger/errors';
import type { ControlError, ControlRequest, FromWorker, StartCollection, ToWorker, WorkerData, WorkerStartOptions } from './protocol';

/**
 * The chain thread's young generation (V8's nursery), MB. Serving an index's catch-up (getBlock,
 * account states for every block) grows a worker's nursery to V8's 32 MB of new space and the
 * thread keeps it: 32 MB 60 s after `npm start` with the index, 4 MB with `--index off`. Capped at
 * 12 MB (4 MB semi-spaces; with the index thread's cap, `npm start` 308 -> 289 MB RSS at rest,
 * docs/benchmarks.md, "The index").
 */
const CHAIN_THREAD_YOUNG_GENERATION_MB = 12;

/**
 * A chain restored from a large state file gets a larger nursery. On a heap of ~1 GB (the
 * 4000-transfer bench chain) each scavenge has a fixed cost of ~5 ms besides its copying
 * (`--trace-gc-nvp`: of 7.0 ms a scavenge, 1.5 ms parallel copying and 0.9 ms array-buffer
 * sweeping), so at 12 MB the collector took ~40 % of the chain's thread at 50 transfers/s; at 48
 * MB it scavenges a quarter as often: the chain's cost per transfer 17.7 -> 14.7 ms, its collector
 * 3.83 -> 1.40 s for 600 transfers (docs/benchmarks.md, helper `livep99`). A fresh or small chain
 * (`npm start` as shipped) keeps the 12 MB cap and its RSS at rest.
 */
const LARGE_CHAIN_YOUNG_GENERATION_MB = 48;
/** A state file from this size up is a large chain (the 4000-transfer bench chain's is 197 MB). */
const LARGE_CHAIN_STATE_BYTES = 32 * 1024 * 1024;

function isLargeChain(stateFileBytes: number | null): boolean {
  return stateFileBytes !== null && stateFileBytes >= LARGE_CHAIN_STATE_BYTES;
}

/** The chain thread's nursery for a chain restored from a state file of `stateFileBytes` (null: none). */
export function chainThreadYoungGenerationMb(stateFileBytes: number | null): number {
  return isLargeChain(stateFileBytes) ? LARGE_CHAIN_YOUNG_GENERATION_MB : CHAIN_THREAD_YOUNG_GENERATION_MB;
}

/**
 * Whether the chain's thread makes a full collection once restored, before it serves: for a chain
 * restored from a large state file, whose restore leaves ~20 % of the heap garbage (the
 * 4000-transfer bench chain: 1 043-1 069 -> 824 MB, 0.7-1.5 s). Without it V8's first full
 * collection came while the chain sealed under traffic and held seals 0.9-1.5 s: the live bench's
 * slow blocks among its first six; with it p99 457 / 551 -> 375 / 433 ms, the next full collection
 * still inside the bench's window (docs/benchmarks.md, helper `live300e`). A fresh or small chain
 * (`npm start` as shipped) starts as before.
 */
export function chainThreadCollectsAfterStart(stateFileBytes: number | null): boolean {
  return isLargeChain(stateFileBytes);
}

function stateFileBytes(file: string | undefined): number | null {
  if (file === undefined) return null;
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

/** What a `sealed` report carries besides the collector's total (protocol.ts). */
export interface SealFigures {
  /** Full (mark-compact) collections' pauses on the chain's thread since it started, ms. */
  majorGcMs: number;
  /** The chain thread's heap in use at the seal, MB. */
  heapMb: number;
  /** Full collections the chain's thread made between blocks so far (quietCollections.ts). */
  quietCollections: number;
}

export class LocalnetThread implements LocalnetControlApi {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private exited = false;
  private readonly sealListeners = new Set<(seqno: number, at: number, gcMs: number, more: SealFigures) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly host: string,
    readonly port: number,
    readonly publicKey: Buffer,
    readonly globalConfig: LocalnetGlobalConfig,
    readonly globalConfigJson: string,
    /** What a developer needs to use the chain (describeLocalnet's text). */
    readonly description: string,
    /** The full collection the chain's thread made once restored, before serving (null: none). */
    readonly startCollection: StartCollection | null,
    private readonly logger: Logger,
  ) {
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'sealed') {
        for (const listener of this.sealListeners) listener(message.seqno, message.at, message.gcMs, { majorGcMs: message.majorGcMs, heapMb: message.heapMb, quietCollections: message.quietCollections });
        return;
      }
      if (message.type !== 'reply') return;
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.error) waiter.reject(errorOf(message.error));
      else waiter.resolve(message.result);
    });
    worker.on('exit', (code) => {
      this.exited = true;
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`the local chain thread exited (${code})`));
      this.waiting.clear();
    });
    worker.on('error', (err) => this.logger.error({ err }, 'localnet: the chain thread failed'));
  }

  /** Starts the chain in a new worker thread; resolves once its lite server listens. */
  static start(options: WorkerStartOptions, logLevel: string, logger: Logger): Promise<LocalnetThread> {
    const bytes = stateFileBytes(options.stateFile);
    const workerData: WorkerData = { options, logLevel, collectAfterStart: chainThreadCollectsAfterStart(bytes) };
    const worker = new Worker(path.join(__dirname, 'workerEntry.js'), {
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: chainThreadYoungGenerationMb(bytes) },
    });
    return new Promise<LocalnetThread>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the local chain thread exited during its start (${code})`));
      const onError = (err: Error) => reject(err);
      worker.once('exit', onExit);
      worker.once('error', onError);
      worker.once('message', (message: FromWorker) => {
        worker.off('exit', onExit);
        worker.off('error', onError);
        if (message.type === 'ready') {
          const { host, port, publicKey, globalConfig, globalConfigJson, description, startCollection } = message;
          resolve(new LocalnetThread(worker, host, port, Buffer.from(publicKey), globalConfig, globalConfigJson, description, startCollection, logger));
        } else {
          void worker.terminate();
          reject(new Error(message.type === 'failed' ? message.message : 'the local chain thread did not start'));
        }
      });
    });
  }

  /**
   * Each masterchain block as it becomes visible, with the chain thread's clock at that moment
   * (performance.timeOrigin + performance.now(), ms: comparable across threads). Only with the
   * `reportSeals` start option; `gcMs`: the garbage collector's pauses on the chain's thread since
   * it started (ms), `more` the full collections' part of them and that thread's heap. Returns the
   * unsubscribe.
   */
  onSealed(listener: (seqno: number, at: number, gcMs: number, more: SealFigures) => void): () => void {
    this.sealListeners.add(listener);
    return () => this.sealListeners.delete(listener);
  }

  /** The chain thread's event-loop utilization (Node's `performance.eventLoopUtilization`, since `since`). */
  threadLoop(since?: EventLoopUtilization): EventLoopUtilization {
    return this.worker.performance.eventLoopUtilization(since);
  }

  fund(destination: Address, amount: bigint): Promise<FundAnswer> {
    return this.call({ op: 'fund', address: destination.toRawString(), amount }) as Promise<FundAnswer>;
  }

  mine(): Promise<{ seqno: number; utime: number }> {
    return this.call({ op: 'mine' }) as Promise<{ seqno: number; utime: number }>;
  }

  moveClock(change: ClockChange): Promise<{ now: number; clock_offset: number }> {
    return this.call({ op: 'moveClock', change }) as Promise<{ now: number; clock_offset: number }>;
  }

  snapshot(): Promise<SnapshotInfo> {
    return this.call({ op: 'snapshot' }) as Promise<SnapshotInfo>;
  }

  restore(id: string): Promise<{ id: string; seqno: number; utime: number }> {
    return this.call({ op: 'restore', id }) as Promise<{ id: string; seqno: number; utime: number }>;
  }

  status(): Promise<LocalnetStatus> {
    return this.call({ op: 'status' }) as Promise<LocalnetStatus>;
  }

  /** Stops the chain (its last save included) and ends the thread. */
  async stop(): Promise<void> {
    if (this.exited) return;
    try {
      await this.call({ op: 'stop' });
    } finally {
      await this.worker.terminate();
    }
  }

  private call(request: ControlRequest): Promise<unknown> {
    if (this.exited) return Promise.reject(new Error('the local chain thread has exited'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const message: ToWorker = { id, request };
      this.worker.postMessage(message);
    });
  }
}

/** The control's error as it was on the chain's thread (the routes map it). */
function errorOf(error: ControlError): Error {
  if (error.kind === 'other') return new Error(error.message);
  return new ControlRefusedError(error.kind, error.message);
}
