import {
  LandedTraces,
  landedDifferently,
  newestFirst,
  pendingEntry,
  type CommittedRows,
  type PendingListener,
  type PendingOptions,
  type PendingStats,
  type PendingTrace,
  type PendingTraceStore,
} from './pendingEntry';
import { PendingEmulations } from './pendingQueue';
import type { EmulatedTrace } from './trace';

/**
 * Pending traces: every external message sent through this server, emulated at once (its whole
 * trace, in the TVM pool, on the verified head) and kept until the index commits it, so v3's
 * pending* routes and the streaming API can show what it is doing before its block exists, as
 * toncenter's trace emulator does with its Redis of emulated traces.
 *
 * Keyed by the normalized external hash (TEP-467; ton-index-go's trace key), also found by the
 * plain hash and by every account a transaction of the trace ran on. The send never waits for any
 * of it: `track` queues the message and returns. A trace leaves the store when the index commits
 * its trace complete (`committed`; listeners hear `invalidated` first when it landed with another
 * shape than emulated), when it expires (the wallet's `valid_until` when the message is a known
 * wallet's, else `ttlMs` after it was sent; the sooner) — then listeners hear `invalidated`
 * unless its external message landed —, or when the bounds evict the oldest.
 *
 * This process's memory, the default. With --redis-url, RedisPendingTraces (pendingRedis.ts)
 * shares them among instances instead.
 */

/** How often expiry is checked, ms. */
export const SWEEP_MS = 500;
/** External hashes the index committed, remembered so an emulation ending after the block is not kept. */
const LANDED_MEMORY = 4096;

interface Entry extends PendingTrace {
  readonly landed: Set<string>;
  rootLanded: boolean;
}

const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

export class PendingTraces implements PendingTraceStore {
  private readonly entries = new Map<string, Entry>();
  /** Plain external hash (hex) -> normalized (hex). */
  private readonly byPlain = new Map<string, string>();
  /** Raw upper-case account -> normalized hashes (hex) of the traces it ran in. */
  private readonly byAccount = new Map<string, Set<string>>();
  private readonly landedHashes = new Set<string>();
  private readonly landedTraces = new LandedTraces();
  private readonly listeners = new Set<PendingListener>();
  private readonly emulations: PendingEmulations;
  private bytesValue = 0;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private sweeping = false;
  private readonly now: () => number;

  constructor(private readonly options: PendingOptions) {
    this.now = options.now ?? Date.now;
    this.emulations = new PendingEmulations(options, (trace) => this.add(trace));
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  listen(listener: PendingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): PendingStats {
    const { queued, running, dropped, failed } = this.emulations;
    return { traces: this.entries.size, bytes: this.bytesValue, queued, running, dropped, failed };
  }

  track(boc: Buffer): void {
    if (!this.closed) this.emulations.track(boc);
  }

  add(trace: EmulatedTrace): Promise<void> {
    this.addNow(trace);
    return Promise.resolve();
  }

  private addNow(trace: EmulatedTrace): void {
    const key = hexOf(trace.externalHashNorm);
    if (this.closed || this.entries.has(key) || this.landedHashes.has(key) || this.landedHashes.has(hexOf(trace.externalHash))) return;
    const entry: Entry = { ...pendingEntry(trace, this.now(), this.options.ttlMs, this.options.logger), landed: new Set(), rootLanded: false };
    this.entries.set(key, entry);
    this.byPlain.set(hexOf(trace.externalHash), key);
    for (const tx of trace.transactions) {
      const set = this.byAccount.get(tx.json.account) ?? new Set();
      set.add(key);
      this.byAccount.set(tx.json.account, set);
    }
    this.bytesValue += entry.bytes;
    // Bounds: the oldest leave first (Map keeps insertion order).
    while (this.entries.size > 1 && (this.entries.size > this.options.maxTraces || this.bytesValue > this.options.maxBytes)) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest, true);
    }
    if (!this.entries.has(key)) return;
    for (const listener of this.listeners) listener.added(entry);
  }

  findByExternalHash(hashes: readonly Buffer[]): Promise<PendingTrace[]> {
    const found = new Set<Entry>();
    for (const hash of hashes) {
      const hex = hash.toString('hex');
      const entry = this.entries.get(hex) ?? this.entries.get(this.byPlain.get(hex) ?? '');
      if (entry) found.add(entry);
    }
    return Promise.resolve(newestFirst(found));
  }

  findByAccount(accounts: readonly string[]): Promise<PendingTrace[]> {
    const found = new Set<Entry>();
    for (const account of accounts) {
      for (const key of this.byAccount.get(account) ?? []) {
        const entry = this.entries.get(key);
        if (entry) found.add(entry);
      }
    }
    return Promise.resolve(newestFirst(found));
  }

  /**
   * Transactions whose inbound message the index holds are no longer pending; a trace the index
   * holds complete leaves the store (its events are the index's now), `invalidated` first when it
   * landed otherwise than emulated. Synchronous inside: the invalidation reaches the streams
   * before the index's events of the same block, which the follower builds after reading them.
   */
  committed(rows: CommittedRows): Promise<void> {
    const done = this.landedTraces.observe(rows);
    for (const message of rows.messages) {
      if (message.direction !== 'in') continue;
      const hex = message.msg_hash.toString('hex');
      const key = this.entries.has(hex) ? hex : this.byPlain.get(hex);
      const root = key === undefined ? undefined : this.entries.get(key);
      if (root) {
        root.rootLanded = true;
        root.landed.add(root.trace.transactions[0]!.hash);
      }
      this.rememberLanded(hex);
    }
    for (const trace of rows.traces) {
      const norm = trace.external_hash_norm?.toString('hex');
      const plain = trace.external_hash?.toString('hex');
      const key = norm !== undefined && this.entries.has(norm) ? norm : plain !== undefined ? this.byPlain.get(plain) : undefined;
      if (norm !== undefined) this.rememberLanded(norm);
      if (key === undefined) continue;
      const entry = this.entries.get(key)!;
      entry.rootLanded = true;
      if (trace.state !== 'complete') continue;
      const landed = done.get(trace.trace_id.toString('hex'));
      const differs = landed !== undefined && landedDifferently(entry.trace, landed);
      this.remove(key, false);
      if (differs) {
        this.options.logger.debug({ externalHashNorm: entry.trace.externalHashNorm }, 'pending: a trace landed otherwise than emulated');
        for (const listener of this.listeners) listener.invalidated(entry.trace.externalHashNorm);
      }
    }
    return Promise.resolve();
  }

  private rememberLanded(hex: string): void {
    this.landedHashes.add(hex);
    if (this.landedHashes.size > LANDED_MEMORY) this.landedHashes.delete(this.landedHashes.values().next().value as string);
  }

  async sweep(): Promise<void> {
    if (this.sweeping) return;
    const now = this.now();
    const expired = [...this.entries].filter(([, entry]) => entry.expiresAt <= now);
    if (expired.length === 0) return;
    this.sweeping = true;
    try {
      const check = this.options.landedInIndex;
      const unsure = expired.filter(([, entry]) => !entry.rootLanded);
      if (check && unsure.length > 0) {
        try {
          const landed = await check(unsure.map(([, entry]) => Buffer.from(entry.trace.externalHash, 'base64')));
          for (const [, entry] of unsure) if (landed.has(hexOf(entry.trace.externalHash))) entry.rootLanded = true;
        } catch (err) {
          // The index is away: keep them one more round rather than invalidate what may have landed.
          this.options.logger.debug({ err }, 'pending: could not ask the index whether expired messages landed');
          return;
        }
      }
      for (const [key] of expired) this.remove(key, true);
    } finally {
      this.sweeping = false;
    }
  }

  private remove(key: string, notify: boolean): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.byPlain.delete(hexOf(entry.trace.externalHash));
    for (const tx of entry.trace.transactions) {
      const set = this.byAccount.get(tx.json.account);
      set?.delete(key);
      if (set && set.size === 0) this.byAccount.delete(tx.json.account);
    }
    this.bytesValue -= entry.bytes;
    if (notify && !entry.rootLanded) {
      for (const listener of this.listeners) listener.invalidated(entry.trace.externalHashNorm);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.emulations.close();
    return Promise.resolve();
  }
}
