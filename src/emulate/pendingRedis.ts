import { Redis } from 'ioredis';
import type { ActionJson } from '../actions';
import type { V3TransactionJson } from '../converters';
import { ApiError } from '../errors';
import { SWEEP_MS } from './pending';
import {
  LandedTraces,
  landedDifferently,
  newestFirst,
  pendingEntry,
  PENDING_REDIS_ENTRY_BYTES,
  type CommittedRows,
  type PendingListener,
  type PendingOptions,
  type PendingStats,
  type PendingTrace,
  type PendingTraceStore,
} from './pendingEntry';
import { PendingEmulations } from './pendingQueue';
import type { EmulatedTrace, IncompleteReason } from './trace';

/**
 * Pending traces shared by every instance on one Redis (--redis-url): a send emulated on one
 * instance is served by all of them, leaves all of them when the index's writer commits it, and
 * its `pending`/`trace_invalidated` streaming events reach the streams of every instance (Redis
 * pub/sub: every instance, the sender included, hears the store's channel and tells its
 * listeners).
 *
 * Keys under the prefix (hex hashes):
 *   e:<norm>      the entry (JSON), expiring when the trace does (PX = its expiry)
 *   p:<plain>     the normalized hash of a plain one, same expiry
 *   l:<norm>      its root's message is in a committed block (the index will serve it)
 *   a:<ACCOUNT>   sorted set of the norms with a transaction on the account, scored by expiry
 *   exp, all      sorted sets of `<norm>:<plain>` by expiry and by age: the expiry sweep and the
 *                 count cap; removing a member from `exp` is the claim that makes exactly one
 *                 instance announce an expiry or an eviction
 *   events        the pub/sub channel
 * Bounds: an entry's keys expire with it, at most `maxTraces` entries (the oldest leave first,
 * invalidated), an entry above PENDING_REDIS_ENTRY_BYTES is not kept. Scripts name keys they
 * build from the prefix: one Redis (or a primary), not a cluster.
 */

export interface RedisPendingOptions extends PendingOptions {
  readonly url: string;
  /** Prepended to every key and to the channel: deployments (and test runs) share a Redis apart. */
  readonly keyPrefix: string;
  /** Longest wait for one Redis answer, ms. */
  readonly timeoutMs: number;
}

const ADD_SCRIPT = `
local p = ARGV[1]
local norm = ARGV[2]
local plain = ARGV[3]
local entry = ARGV[4]
local ttl = tonumber(ARGV[5])
local expiresAt = tonumber(ARGV[6])
local addedAt = tonumber(ARGV[7])
local maxTraces = tonumber(ARGV[8])
local retain = tonumber(ARGV[9])
if redis.call('EXISTS', p .. 'e:' .. norm) == 1 or redis.call('EXISTS', p .. 'l:' .. norm) == 1 then return 0 end
local member = norm .. ':' .. plain
redis.call('SET', p .. 'e:' .. norm, entry, 'PX', ttl)
redis.call('SET', p .. 'p:' .. plain, norm, 'PX', ttl)
redis.call('ZADD', p .. 'exp', expiresAt, member)
redis.call('ZADD', p .. 'all', addedAt, member)
redis.call('PEXPIRE', p .. 'exp', retain)
redis.call('PEXPIRE', p .. 'all', retain)
for i = 10, #ARGV do
  local key = p .. 'a:' .. ARGV[i]
  redis.call('ZADD', key, expiresAt, norm)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
redis.call('PUBLISH', p .. 'events', '{"t":"a","e":' .. entry .. '}')
while redis.call('ZCARD', p .. 'all') > maxTraces do
  local oldest = redis.call('ZRANGE', p .. 'all', 0, 0)[1]
  local n = string.sub(oldest, 1, 64)
  local pl = string.sub(oldest, 66)
  redis.call('ZREM', p .. 'all', oldest)
  local claimed = redis.call('ZREM', p .. 'exp', oldest)
  local landed = redis.call('EXISTS', p .. 'l:' .. n)
  redis.call('DEL', p .. 'e:' .. n, p .. 'p:' .. pl, p .. 'l:' .. n)
  if claimed == 1 and landed == 0 then
    redis.call('PUBLISH', p .. 'events', '{"t":"i","h":"' .. n .. '"}')
  end
end
return 1
`;

/**
 * Removes an entry; returns 1 on the one instance that claimed it. ARGV[4] '1': announce
 * trace_invalidated (when claimed); ARGV[5] '1': even though its root landed (it landed otherwise).
 */
const REMOVE_SCRIPT = `
local p = ARGV[1]
local norm = ARGV[2]
local plain = ARGV[3]
local member = norm .. ':' .. plain
local claimed = redis.call('ZREM', p .. 'exp', member)
redis.call('ZREM', p .. 'all', member)
local landed = redis.call('EXISTS', p .. 'l:' .. norm)
redis.call('DEL', p .. 'e:' .. norm, p .. 'p:' .. plain, p .. 'l:' .. norm)
if claimed == 1 and ARGV[4] == '1' and (ARGV[5] == '1' or landed == 0) then
  redis.call('PUBLISH', p .. 'events', '{"t":"i","h":"' .. norm .. '"}')
end
return claimed
`;

/** How long the sorted sets outlive their newest member, and the root-landed marker its entry, ms. */
const RETAIN_MARGIN_MS = 60_000;
/** Expired members claimed per sweep. */
const SWEEP_BATCH = 256;
/** External hashes the index committed, remembered so an emulation ending after the block is not kept. */
const LANDED_MEMORY = 4096;

interface StoredEntry {
  readonly trace: {
    readonly mcBlockSeqno: number;
    readonly externalHash: string;
    readonly externalHashNorm: string;
    readonly randSeed: string;
    readonly isIncomplete: boolean;
    readonly incompleteReason?: IncompleteReason;
    readonly transactions: readonly {
      readonly hash: string;
      readonly account: string;
      readonly inMsgHash: string;
      readonly parentHash: string | null;
      readonly depth: number;
      readonly boc: string;
      readonly json: V3TransactionJson;
    }[];
  };
  readonly actions: readonly ActionJson[];
  readonly addedAt: number;
  readonly expiresAt: number;
  readonly bytes: number;
}

type PubSubMessage = { readonly t: 'a'; readonly e: StoredEntry } | { readonly t: 'i'; readonly h: string };

const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

function encode(entry: Omit<PendingTrace, 'landed'>): string {
  const { trace } = entry;
  const stored: StoredEntry = {
    trace: {
      mcBlockSeqno: trace.mcBlockSeqno,
      externalHash: trace.externalHash,
      externalHashNorm: trace.externalHashNorm,
      randSeed: trace.randSeed.toString('base64'),
      isIncomplete: trace.isIncomplete,
      ...(trace.incompleteReason ? { incompleteReason: trace.incompleteReason } : {}),
      transactions: trace.transactions.map((tx) => ({ ...tx, boc: Buffer.from(tx.boc).toString('base64') })),
    },
    actions: entry.actions,
    addedAt: entry.addedAt,
    expiresAt: entry.expiresAt,
    bytes: entry.bytes,
  };
  return JSON.stringify(stored);
}

function decode(stored: StoredEntry, rootLanded: boolean): PendingTrace {
  const { trace } = stored;
  const transactions = trace.transactions.map((tx) => ({ ...tx, boc: Buffer.from(tx.boc, 'base64') }));
  const emulated: EmulatedTrace = {
    mcBlockSeqno: trace.mcBlockSeqno,
    externalHash: trace.externalHash,
    externalHashNorm: trace.externalHashNorm,
    randSeed: Buffer.from(trace.randSeed, 'base64'),
    transactions,
    isIncomplete: trace.isIncomplete,
    ...(trace.incompleteReason ? { incompleteReason: trace.incompleteReason } : {}),
    codeCells: new Map(),
    dataCells: new Map(),
  };
  const root = transactions[0]?.hash;
  return {
    trace: emulated,
    actions: stored.actions,
    addedAt: stored.addedAt,
    expiresAt: stored.expiresAt,
    bytes: stored.bytes,
    landed: new Set(rootLanded && root ? [root] : []),
  };
}

export class RedisPendingTraces implements PendingTraceStore {
  private readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new Set<PendingListener>();
  private readonly emulations: PendingEmulations;
  private readonly landedTraces = new LandedTraces();
  private readonly landedHashes = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly channel: string;
  private closed = false;
  private sweeping = false;
  private tracesSeen = 0;
  private tooBig = 0;

  constructor(private readonly options: RedisPendingOptions) {
    this.now = options.now ?? Date.now;
    this.channel = `${options.keyPrefix}events`;
    const common = {
      lazyConnect: true,
      // Never queue while disconnected: a read fails at once (503) rather than wait.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: Math.max(options.timeoutMs, 2000),
      connectTimeout: Math.max(1000, options.timeoutMs),
      retryStrategy: (attempt: number) => Math.min(100 * attempt, 2000),
      disconnectTimeout: 200,
    };
    this.client = new Redis(options.url, { ...common, connectionName: 'ton-http-bridge-pending' });
    // The subscriber waits on its channel: no command timeout; it subscribes again at every connect.
    this.subscriber = new Redis(options.url, { ...common, commandTimeout: undefined, autoResubscribe: false, connectionName: 'ton-http-bridge-pending-events' });
    let reported = false;
    const onError = (err: Error) => {
      if (reported || this.closed) return;
      reported = true;
      options.logger.warn({ err: err.message }, 'pending: Redis unreachable; pending traces are not shared until it is back');
    };
    this.client.on('error', onError);
    this.subscriber.on('error', onError);
    this.client.on('ready', () => (reported = false));
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(this.channel).catch((err: Error) => onError(err));
    });
    this.subscriber.on('message', (_channel: string, text: string) => this.heard(text));
    this.emulations = new PendingEmulations(options, (trace) => this.add(trace));
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** Connects both connections; resolves either way (an absent Redis is retried, not fatal). */
  async connect(): Promise<void> {
    await Promise.all(
      [this.client, this.subscriber].map((connection) =>
        connection.connect().catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message }, 'pending: cannot connect to Redis; retrying')),
      ),
    );
    // The subscription is made on 'ready'; wait for it so a send right after start is heard.
    if (this.subscriber.status === 'ready') await this.subscriber.subscribe(this.channel).catch(() => undefined);
  }

  listen(listener: PendingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `traces`: the shared count at the last sweep; `bytes`: not tracked across instances (0). */
  stats(): PendingStats {
    const { queued, running, dropped, failed } = this.emulations;
    return { traces: this.tracesSeen, bytes: 0, queued, running, dropped: dropped + this.tooBig, failed };
  }

  track(boc: Buffer): void {
    if (!this.closed) this.emulations.track(boc);
  }

  private heard(text: string): void {
    let message: PubSubMessage;
    try {
      message = JSON.parse(text) as PubSubMessage;
    } catch {
      return;
    }
    if (message.t === 'a') {
      const entry = decode(message.e, false);
      for (const listener of this.listeners) listener.added(entry);
    } else if (message.t === 'i' && /^[0-9a-f]{64}$/.test(message.h)) {
      const norm = Buffer.from(message.h, 'hex').toString('base64');
      for (const listener of this.listeners) listener.invalidated(norm);
    }
  }

  async add(trace: EmulatedTrace): Promise<void> {
    if (this.closed) return;
    const norm = hexOf(trace.externalHashNorm);
    const plain = hexOf(trace.externalHash);
    if (this.landedHashes.has(norm) || this.landedHashes.has(plain)) return;
    const now = this.now();
    const entry = pendingEntry(trace, now, this.options.ttlMs, this.options.logger);
    const limit = Math.min(PENDING_REDIS_ENTRY_BYTES, this.options.maxBytes);
    if (entry.bytes > limit) {
      this.tooBig += 1;
      this.options.logger.warn({ bytes: entry.bytes, limit }, 'pending: an emulated trace is too big to share; not shown as pending');
      return;
    }
    const ttl = Math.floor(entry.expiresAt - now);
    if (ttl <= 0) return;
    // The index's writer may have committed it while it was emulated here (it only marks entries it finds).
    if (this.options.landedInIndex) {
      const landed = await this.options.landedInIndex([Buffer.from(plain, 'hex')]).catch(() => new Set<string>());
      if (landed.has(plain)) return;
    }
    const accounts = [...new Set(trace.transactions.map((tx) => tx.json.account))];
    await this.client.eval(
      ADD_SCRIPT,
      0,
      this.options.keyPrefix,
      norm,
      plain,
      encode(entry),
      ttl,
      entry.expiresAt,
      entry.addedAt,
      this.options.maxTraces,
      this.options.ttlMs + RETAIN_MARGIN_MS,
      ...accounts,
    );
  }

  private unavailable(err: unknown): ApiError {
    return new ApiError('unavailable', `pending traces unavailable: Redis: ${(err as Error).message}`);
  }

  /** Entries by normalized hash (hex), with their root-landed markers; missing ones left out. */
  private async entriesOf(norms: readonly string[]): Promise<Map<string, PendingTrace>> {
    const found = new Map<string, PendingTrace>();
    if (norms.length === 0) return found;
    const p = this.options.keyPrefix;
    const values = await this.client.mget(...norms.map((n) => `${p}e:${n}`), ...norms.map((n) => `${p}l:${n}`));
    norms.forEach((norm, i) => {
      const text = values[i];
      if (!text) return;
      try {
        found.set(norm, decode(JSON.parse(text) as StoredEntry, values[norms.length + i] !== null));
      } catch (err) {
        this.options.logger.debug({ err }, 'pending: an entry in Redis could not be read');
      }
    });
    return found;
  }

  async findByExternalHash(hashes: readonly Buffer[]): Promise<PendingTrace[]> {
    if (hashes.length === 0) return [];
    const hexes = [...new Set(hashes.map((h) => h.toString('hex')))];
    try {
      const norms = await this.client.mget(...hexes.map((h) => `${this.options.keyPrefix}p:${h}`));
      const candidates = new Set([...hexes, ...norms.filter((n): n is string => n !== null)]);
      return newestFirst((await this.entriesOf([...candidates])).values());
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  async findByAccount(accounts: readonly string[]): Promise<PendingTrace[]> {
    if (accounts.length === 0) return [];
    const now = this.now();
    const p = this.options.keyPrefix;
    try {
      const norms = new Set<string>();
      for (const account of new Set(accounts)) {
        const key = `${p}a:${account}`;
        const [[, members]] = (await this.client.multi().zrangebyscore(key, now, '+inf').zremrangebyscore(key, '-inf', now).exec()) as [[Error | null, string[]]];
        for (const member of members) norms.add(member);
      }
      const found = await this.entriesOf([...norms]);
      // Members whose entry left (evicted, committed) go at the next read of the account.
      const gone = [...norms].filter((n) => !found.has(n));
      if (gone.length > 0) for (const account of new Set(accounts)) void this.client.zrem(`${p}a:${account}`, ...gone).catch(() => undefined);
      return newestFirst(found.values());
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  async committed(rows: CommittedRows): Promise<void> {
    const done = this.landedTraces.observe(rows);
    const p = this.options.keyPrefix;
    try {
      // Roots whose external message landed: marked for every instance (their transaction is no longer pending).
      const externals = rows.messages.filter((m) => m.direction === 'in' && m.source === null).map((m) => m.msg_hash.toString('hex'));
      for (const hex of externals) this.rememberLanded(hex);
      if (externals.length > 0) {
        const norms = await this.client.mget(...externals.map((h) => `${p}p:${h}`));
        const marks = norms.filter((n): n is string => n !== null);
        if (marks.length > 0) {
          const batch = this.client.multi();
          for (const norm of marks) batch.set(`${p}l:${norm}`, '1', 'PX', this.options.ttlMs + RETAIN_MARGIN_MS);
          await batch.exec();
        }
      }
      const complete = rows.traces.filter((t) => t.state === 'complete' && t.external_hash !== null);
      for (const t of rows.traces) if (t.external_hash_norm) this.rememberLanded(t.external_hash_norm.toString('hex'));
      if (complete.length === 0) return;
      const plains = complete.map((t) => t.external_hash!.toString('hex'));
      const viaPlain = await this.client.mget(...plains.map((h) => `${p}p:${h}`));
      const norms = complete.map((t, i) => viaPlain[i] ?? t.external_hash_norm?.toString('hex') ?? '');
      const entries = await this.entriesOf(norms.filter((n) => n !== ''));
      for (const [i, t] of complete.entries()) {
        const entry = entries.get(norms[i]!);
        if (!entry) continue;
        const landed = done.get(t.trace_id.toString('hex'));
        const differs = landed !== undefined && landedDifferently(entry.trace, landed);
        if (differs) this.options.logger.debug({ externalHashNorm: entry.trace.externalHashNorm }, 'pending: a trace landed otherwise than emulated');
        await this.client.eval(REMOVE_SCRIPT, 0, p, norms[i]!, hexOf(entry.trace.externalHash), differs ? '1' : '0', '1');
      }
    } catch (err) {
      // The entries expire on their own; a landed one is then found in the index and dropped quietly.
      this.options.logger.warn({ err: (err as Error).message }, 'pending: could not drop committed traces from Redis');
    }
  }

  private rememberLanded(hex: string): void {
    this.landedHashes.add(hex);
    if (this.landedHashes.size > LANDED_MEMORY) this.landedHashes.delete(this.landedHashes.values().next().value as string);
  }

  async sweep(): Promise<void> {
    if (this.sweeping || this.closed || this.client.status !== 'ready') return;
    this.sweeping = true;
    const p = this.options.keyPrefix;
    try {
      const [[, members], [, count]] = (await this.client
        .multi()
        .zrangebyscore(`${p}exp`, '-inf', this.now(), 'LIMIT', 0, SWEEP_BATCH)
        .zcard(`${p}all`)
        .exec()) as [[Error | null, string[]], [Error | null, number]];
      this.tracesSeen = count;
      const expired = members.filter((m) => /^[0-9a-f]{64}:[0-9a-f]{64}$/.test(m)).map((m) => ({ norm: m.slice(0, 64), plain: m.slice(65) }));
      if (expired.length === 0) return;
      let landed: ReadonlySet<string> = new Set();
      if (this.options.landedInIndex) {
        try {
          landed = await this.options.landedInIndex(expired.map((e) => Buffer.from(e.plain, 'hex')));
        } catch (err) {
          // The index is away: keep them one more round rather than invalidate what may have landed.
          this.options.logger.debug({ err }, 'pending: could not ask the index whether expired messages landed');
          return;
        }
      }
      for (const { norm, plain } of expired) {
        await this.client.eval(REMOVE_SCRIPT, 0, p, norm, plain, landed.has(plain) ? '0' : '1', '0');
      }
    } catch (err) {
      this.options.logger.debug({ err }, 'pending: the expiry sweep could not reach Redis');
    } finally {
      this.sweeping = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.emulations.close();
    this.subscriber.disconnect();
    this.client.disconnect();
    await Promise.resolve();
  }
}
