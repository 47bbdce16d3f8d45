import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import type { MetadataCacheRow } from '../indexdb';

/**
 * `--metadata-fetch`: off-chain TEP-64 documents fetched in the background (never on a request's
 * path: a request only reads the cache and asks for what it lacks), bounded as toncenter's
 * metadata fetcher bounds them and more: http and https only, a deadline over connect, redirects
 * (at most 3) and body, a body size limit, a fixed number of fetches at once, a bounded queue,
 * and no loopback, private, link-local or multicast address (each name is resolved once here and
 * the connection goes to the address that was checked, so a second lookup cannot rebind it) unless
 * `--metadata-fetch-private` allows them.
 */

export interface MetadataFetchOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly concurrency: number;
  readonly allowPrivate: boolean;
}

/** Most URIs waiting; more are dropped (asked again by a later request). */
const MAX_QUEUE = 10_000;
/** Longest URI fetched. */
const MAX_URI = 2048;
const MAX_REDIRECTS = 3;
/** A document is kept a week (toncenter's EXPIRATION_PERIOD), a failure an hour. */
const VALID_FOR_S = 7 * 24 * 3600;
const FAILED_FOR_S = 3600;

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a fetch may not reach by default (IPv4-mapped IPv6 read as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class MetadataFetchError extends Error {}

/** The one address a host is reached at, checked. */
async function addressOf(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const resolved = isIP(literal) ? [{ address: literal, family: isIP(literal) }] : await lookup(literal, { all: true });
  if (resolved.length === 0) throw new MetadataFetchError(`no addresses resolved for host: ${literal}`);
  if (!allowPrivate) {
    for (const { address } of resolved)
      if (isPrivateAddress(address)) throw new MetadataFetchError(`blocked request to private IP: ${address}`);
  }
  return resolved[0]!;
}

interface Answer {
  readonly status: number;
  readonly location?: string;
  readonly body: Buffer;
}

/** `work`, or a rejection as soon as `signal` aborts (a name lookup does not take the signal itself). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new MetadataFetchError('aborted'));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new MetadataFetchError('aborted'));
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function getOnce(url: URL, options: MetadataFetchOptions, signal: AbortSignal): Promise<Answer> {
  return untilAborted(addressOf(url.hostname, options.allowPrivate), signal).then(
    (target) =>
      new Promise<Answer>((resolve, reject) => {
        // The connection goes to the checked address whatever a new lookup would say.
        const pinned: LookupFunction = (_host, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all)
            (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          else callback(null, target.address, target.family);
        };
        const request = (url.protocol === 'https:' ? https : http).get(
          url,
          { lookup: pinned, signal, headers: { accept: 'application/json' } },
          (response) => {
            const status = response.statusCode ?? 0;
            if (status >= 300 && status < 400 && response.headers.location) {
              response.resume();
              resolve({ status, location: response.headers.location, body: Buffer.alloc(0) });
              return;
            }
            const declared = Number(response.headers['content-length']);
            if (Number.isFinite(declared) && declared > options.maxBytes) {
              response.destroy();
              reject(new MetadataFetchError(`document larger than ${options.maxBytes} bytes`));
              return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > options.maxBytes) {
                response.destroy();
                reject(new MetadataFetchError(`document larger than ${options.maxBytes} bytes`));
                return;
              }
              chunks.push(chunk);
            });
            response.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
      }),
  );
}

/** One document: its JSON object, or a MetadataFetchError saying why not. */
export async function fetchMetadataDocument(uri: string, options: MetadataFetchOptions): Promise<Record<string, unknown>> {
  if (uri.length > MAX_URI) throw new MetadataFetchError(`URI longer than ${MAX_URI} characters`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new MetadataFetchError(`invalid URL: ${uri}`);
  }
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new MetadataFetchError(`unsupported protocol: ${url.protocol.replace(/:$/, '')}`);
      const answer = await getOnce(url, options, signal);
      if (answer.location !== undefined) {
        if (redirects >= MAX_REDIRECTS) throw new MetadataFetchError('too many redirects');
        url = new URL(answer.location, url);
        continue;
      }
      if (answer.status < 200 || answer.status >= 300) throw new MetadataFetchError(`non-OK HTTP status: ${answer.status}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.body.toString('utf8'));
      } catch {
        throw new MetadataFetchError('the document is not JSON');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new MetadataFetchError('the document is not a JSON object');
      return parsed as Record<string, unknown>;
    }
  } catch (err) {
    if (signal.aborted) throw new MetadataFetchError(`timed out after ${options.timeoutMs} ms`);
    if (err instanceof MetadataFetchError) throw err;
    throw new MetadataFetchError(err instanceof Error ? err.message : String(err));
  }
}

/** What the v3 answers ask of the fetcher (src/v3 RouteContext.metadataFetch). */
export interface MetadataRequests {
  /** Queues URIs not cached (or expired); returns at once. */
  request(uris: readonly string[]): void;
}

/** The background fetcher: a bounded queue, `concurrency` workers, each result written to the cache. */
export class MetadataFetcher implements MetadataRequests {
  private readonly queue: string[] = [];
  private readonly waiting = new Set<string>();
  private running = 0;
  private stopped = false;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly options: MetadataFetchOptions,
    private readonly write: (row: MetadataCacheRow) => Promise<void>,
    private readonly logger: Pick<Logger, 'warn' | 'debug'>,
  ) {}

  request(uris: readonly string[]): void {
    for (const uri of uris) {
      if (this.stopped || this.waiting.has(uri) || this.waiting.size >= MAX_QUEUE) continue;
      this.waiting.add(uri);
      this.queue.push(uri);
    }
    while (this.running < this.options.concurrency && this.queue.length > 0) void this.work();
  }

  /** Resolves when nothing is queued or being fetched (tests, shutdown). */
  settled(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const uri of this.queue.splice(0)) this.waiting.delete(uri);
    await this.settled();
  }

  private async work(): Promise<void> {
    this.running++;
    try {
      for (let uri = this.queue.shift(); uri !== undefined; uri = this.stopped ? undefined : this.queue.shift()) {
        const now = Math.floor(Date.now() / 1000);
        let row: MetadataCacheRow;
        try {
          const content = await fetchMetadataDocument(uri, this.options);
          row = { uri, valid: true, content, error: null, fetched_at: now, expires_at: now + VALID_FOR_S };
        } catch (err) {
          const error = err instanceof Error ? err.message : String(err);
          this.logger.debug({ uri, err: error }, 'metadata fetch failed');
          row = { uri, valid: false, content: null, error, fetched_at: now, expires_at: now + FAILED_FOR_S };
        }
        try {
          await this.write(row);
        } catch (err) {
          // The index away (503 time): the URI is asked again by a later request.
          this.logger.warn({ uri, err: err instanceof Error ? err.message : String(err) }, 'metadata cache write failed');
        }
        this.waiting.delete(uri);
      }
    } finally {
      this.running--;
      if (this.waiting.size === 0) {
        const resolvers = [...this.idle];
        this.idle.clear();
        for (const resolve of resolvers) resolve();
      }
    }
  }
}
