import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { responseCacheBytes, responseCacheEntries, responseCacheHits, responseCacheMisses } from '../metrics';

/**
 * Answers computed at a masterchain block, kept as the bytes sent to clients. A block's answer
 * never changes, so entries need no TTL: "latest" reads key by the head they resolved, and a new
 * head simply makes them miss. Bounded by bytes (lru-cache's size accounting), optionally backed
 * by Redis so several instances share their work; concurrent identical misses compute once.
 */

/** An answer as it is cached: status 200 with the serialised `result`, or a deterministic 4xx with its text. */
export interface CachedAnswer {
  readonly status: number;
  /** 200: the JSON of `result`; 4xx: the error text (UTF-8). */
  readonly bytes: Buffer;
}

export interface CacheLookup {
  readonly answer: CachedAnswer;
  readonly hit: boolean;
  /** false: the answer was computed and not kept (its computation said so: `ComputedAnswer.keep`). */
  readonly kept?: boolean;
}

/** What a lookup's computation gives: the answer, and whether it may be kept (default yes). */
export interface ComputedAnswer extends CachedAnswer {
  /** false: serve it to this lookup (and the ones waiting on it) but keep it nowhere, e.g. an answer too large or made of data the key does not pin. */
  readonly keep?: boolean;
}

export interface ResponseCacheOptions {
  readonly maxBytes: number;
  /** A Redis URL shared by instances; absent = memory only. */
  readonly redisUrl?: string | undefined;
  /** Longest wait for Redis per lookup, ms; past it the lookup counts as a miss. */
  readonly redisTimeoutMs?: number;
  /** Seconds an entry lives in Redis (latest reads go stale with their head anyway). */
  readonly redisTtlSeconds?: number;
  readonly redisPrefix?: string;
  readonly logger: Logger;
}

/** Bookkeeping per entry besides key and bytes (lru-cache's node, the object itself). */
const ENTRY_OVERHEAD = 96;

export class ResponseCache {
  private readonly memory: LRUCache<string, CachedAnswer>;
  private readonly inflight = new Map<string, Promise<CacheLookup>>();
  private readonly redis: Redis | undefined;
  private readonly redisPrefix: string;
  private readonly redisTtl: number;
  private redisDownLogged = false;
  /** What this cache last added to the bytes/entries gauges (several caches may share a process). */
  private reportedBytes = 0;
  private reportedEntries = 0;

  constructor(private readonly options: ResponseCacheOptions) {
    this.memory = new LRUCache<string, CachedAnswer>({
      maxSize: options.maxBytes,
      sizeCalculation: (answer, key) => answer.bytes.length + key.length + ENTRY_OVERHEAD,
    });
    this.redisPrefix = options.redisPrefix ?? 'ton-http-bridge:cache:';
    this.redisTtl = options.redisTtlSeconds ?? 300;
    if (options.redisUrl) {
      const timeout = options.redisTimeoutMs ?? 100;
      this.redis = new Redis(options.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        autoResendUnfulfilledCommands: false,
        commandTimeout: timeout,
        connectTimeout: Math.max(1000, timeout),
        retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
        connectionName: 'ton-http-bridge-cache',
        disconnectTimeout: 200,
      });
      this.redis.on('error', (err: Error) => this.redisFailed(err));
      this.redis.on('ready', () => {
        if (this.redisDownLogged) options.logger.warn('Redis response cache reachable again');
        this.redisDownLogged = false;
      });
    }
  }

  /** Connects to Redis if configured; an absent Redis only means a memory-only cache. */
  async connect(): Promise<void> {
    await this.redis?.connect().catch((err: unknown) => this.redisFailed(err instanceof Error ? err : new Error(String(err))));
  }

  private redisFailed(err: Error): void {
    if (this.redisDownLogged) return;
    this.redisDownLogged = true;
    this.options.logger.error({ err: err.message }, 'Redis response cache unreachable; serving from memory only');
  }

  /** Bytes held in memory (keys and bookkeeping included). */
  get size(): number {
    return this.memory.calculatedSize;
  }

  get entries(): number {
    return this.memory.size;
  }

  /** The cached answer, from memory only (the hot path: no promise, no allocation). */
  peek(key: string): CachedAnswer | undefined {
    return this.memory.get(key);
  }

  /**
   * A result (status 200) held in memory under `key`, counted as a memory hit when there is one:
   * the fast path's lookup. It never waits (no Redis, no single flight), so what it does not find
   * goes to `lookup`, which counts it then.
   */
  memoryResult(key: string): CachedAnswer | undefined {
    const answer = this.memory.get(key);
    if (answer?.status !== 200) return undefined;
    responseCacheHits.inc({ level: 'memory' });
    return answer;
  }

  /**
   * The answer under `key`: from memory, then Redis, else computed by `compute` (which throws
   * for an answer that must not be cached, such as a 5xx). Concurrent calls for one key share a
   * single computation.
   */
  lookup(key: string, compute: () => Promise<ComputedAnswer>): Promise<CacheLookup> {
    const inMemory = this.memory.get(key);
    if (inMemory) {
      responseCacheHits.inc({ level: 'memory' });
      return Promise.resolve({ answer: inMemory, hit: true });
    }
    // A follower waited for the computation like its leader: it reports what the leader got.
    const running = this.inflight.get(key);
    if (running) {
      responseCacheHits.inc({ level: 'inflight' });
      return running;
    }
    const loading = this.load(key, compute);
    this.inflight.set(key, loading);
    const forget = () => this.inflight.delete(key);
    loading.then(forget, forget);
    return loading;
  }

  private async load(key: string, compute: () => Promise<ComputedAnswer>): Promise<CacheLookup> {
    const shared = await this.fromRedis(key);
    if (shared) {
      responseCacheHits.inc({ level: 'redis' });
      this.remember(key, shared);
      return { answer: shared, hit: true };
    }
    responseCacheMisses.inc();
    const computed = await compute();
    const answer: CachedAnswer = { status: computed.status, bytes: computed.bytes };
    if (computed.keep === false) return { answer, hit: false, kept: false };
    this.remember(key, answer);
    this.toRedis(key, answer);
    return { answer, hit: false };
  }

  /** Stores an answer in memory (evicting the least recently used past the bound) and updates the gauges. */
  private remember(key: string, answer: CachedAnswer): void {
    this.memory.set(key, answer);
    this.reportSize();
  }

  private reportSize(): void {
    const bytes = this.memory.calculatedSize;
    const entries = this.memory.size;
    responseCacheBytes.inc(bytes - this.reportedBytes);
    responseCacheEntries.inc(entries - this.reportedEntries);
    this.reportedBytes = bytes;
    this.reportedEntries = entries;
  }

  private redisKey(key: string): string {
    // Keys hold whole parameter lists (a get-method stack can be long): Redis gets their digest.
    return this.redisPrefix + createHash('sha256').update(key).digest('base64url');
  }

  private async fromRedis(key: string): Promise<CachedAnswer | undefined> {
    if (!this.redis || this.redis.status !== 'ready') return undefined;
    try {
      const stored = await this.redis.getBuffer(this.redisKey(key));
      if (!stored || stored.length < 2) return undefined;
      return { status: stored.readUInt16BE(0), bytes: stored.subarray(2) };
    } catch {
      return undefined;
    }
  }

  private toRedis(key: string, answer: CachedAnswer): void {
    if (!this.redis || this.redis.status !== 'ready') return;
    const status = Buffer.alloc(2);
    status.writeUInt16BE(answer.status, 0);
    this.redis.set(this.redisKey(key), Buffer.concat([status, answer.bytes]), 'EX', this.redisTtl).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.memory.clear();
    this.reportSize();
    if (this.redis) {
      this.redis.disconnect();
    }
  }
}
