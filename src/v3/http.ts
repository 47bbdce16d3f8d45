import { Router, type Request, type Response } from 'express';
import { canonicalParams, responseKey, type ResponseCache } from '../cache';
import { ApiError } from '../errors';
import { masterchainRootHash } from './sql/blocks';
import { httpRequestDuration, httpRequests, v3HeadCacheRequests } from '../metrics';
import { IndexUnavailableError, type V3Database } from './db';
import type { IndexHead, IndexHeadSource } from './head';
import { V3Query } from './params/query';
import { toBool } from './params/rules';
import type { AnswerAssembler } from './answers/pool';
import { answerBytes, JsonBytes, type AnyRoute, type RequestSettings, type RouteContext } from './routes/route';

/** The version ton-index-go reports in X-API-Version (its OpenAPI `info.version`). */
export const V3_API_VERSION = '1.2.6';

export interface V3RouterOptions {
  /** The response cache (src/cache) for answers pinned to a past masterchain block. */
  readonly cache?: ResponseCache;
  /** The index's tables; absent (index off) = every route answers 503 after its validation. */
  readonly database?: V3Database;
  readonly testnet: boolean;
  /** Pending traces (src/emulate) for the pending routes; absent: they answer none. */
  readonly pending?: RouteContext['pending'];
  /** The off-chain metadata fetcher (src/indexer), when `--metadata-fetch` is on. */
  readonly metadataFetch?: RouteContext['metadataFetch'];
  /**
   * The cache at the index's head: every other answer (a route not `notIndexed`, no pin) is kept
   * under a key holding the head the read database shows (head.ts) and so is valid until the next
   * commit. Absent: only pinned answers are cached.
   */
  readonly head?: {
    readonly source: IndexHeadSource;
    /** Larger answers are served and not kept, bytes. */
    readonly maxAnswerBytes: number;
  };
  /** Where heavy answers are assembled (answers/pool.ts); absent: on the event loop. */
  readonly answers?: AnswerAssembler;
  /** Writes an error answer (`{"error": text}`, logging what is ours to fix). */
  readonly sendError: (req: Request, res: Response, err: unknown) => void;
}

/** ExtractParam: the header when present, else the query form; a value ParseBool refuses is ignored. */
function flag(req: Request, query: V3Query, header: string, queryName: string): boolean {
  const fromHeader = req.get(header);
  const value = fromHeader !== undefined && fromHeader !== '' ? fromHeader : query.single(queryName);
  return (value !== undefined && toBool(value)) || false;
}

export function requestSettings(req: Request, query: V3Query, testnet: boolean): RequestSettings {
  return {
    noAddressBook: flag(req, query, 'X-No-Address-Book', 'x_no_address_book'),
    noMetadata: flag(req, query, 'X-No-Metadata', 'x_no_metadata'),
    testnet,
    actionsVersion: req.get('X-Actions-Version') || undefined,
  };
}

/**
 * The indexed v3 routes on a router (mounted under /api/v3 after the v3 intake: keys, buckets,
 * URL limits). Parameters are validated before the database is touched; metrics by route.
 */
export function createIndexedRouter(routes: readonly AnyRoute[], options: V3RouterOptions): Router {
  const router = Router();
  for (const route of routes) {
    const label = `v3${route.path}`;
    router.get(route.path, async (req: Request, res: Response) => {
      const started = performance.now();
      res.once('finish', () => {
        httpRequests.inc({ method: label, mode: 'rest', status: String(res.statusCode) });
        httpRequestDuration.observe({ method: label, mode: 'rest' }, (performance.now() - started) / 1000);
      });
      try {
        const query = new V3Query(req.query as Record<string, unknown>);
        const params: unknown = route.parse(query);
        if (!options.database) throw new IndexUnavailableError();
        const context: RouteContext = { db: options.database, settings: requestSettings(req, query, options.testnet), ...(options.pending ? { pending: options.pending } : {}), ...(options.metadataFetch ? { metadataFetch: options.metadataFetch } : {}), ...(options.answers ? { answers: options.answers } : {}) };
        const pinned = options.cache ? route.immutableAt?.(params, context.settings) : undefined;
        const rootHash = pinned === undefined ? undefined : await masterchainRootHash(context.db, pinned);
        if (options.cache && rootHash) {
          // The raw query (sorted) and the settings make the key; the block's root hash pins it.
          const key = responseKey(label, { query: canonicalParams(req.query), settings: context.settings }, rootHash);
          const { answer, hit } = await options.cache.lookup(key, async () => ({
            status: 200,
            bytes: answerBytes(await route.run(context, params)),
          }));
          res.status(200).type('application/json').set('X-Cache', hit ? 'hit' : 'miss').send(answer.bytes);
          return;
        }
        if (options.cache && options.head && pinned === undefined && !route.notIndexed) {
          await sendAtHead(res, label, req, route, context, params, options.cache, options.head);
          return;
        }
        sendAnswer(res, await route.run(context, params));
      } catch (err) {
        options.sendError(req, res, err);
      }
    });
    router.all(route.path, (req, res) => options.sendError(req, res, new ApiError('methodNotAllowed', 'Method Not Allowed')));
  }
  return router;
}

/**
 * An answer cached at the index's head. The head is taken BEFORE the route runs, and the key holds
 * it: the rows the route reads are then at least that head's (a commit landing meanwhile can only
 * add newer ones), so no key ever holds an answer older than its head. The head changes with the
 * next commit (seen at once when this process's index commits, within `--v3-head-poll` when
 * another's does), and the answers kept under the old one are never asked for again (the LRU
 * drops them). Unknown head (database away, a commit just reported): not looked up at all.
 *
 * With `--v3-head-warm`, a newer head is published only once the keys read at the published one
 * are computed for it (head.ts), at most that long: meanwhile a key the published head's entries
 * hold is answered from them (a committed head's answer, at most the bound behind), and any other
 * is computed and kept under the newer head (its rows are at least that head's: it was read first).
 */
async function sendAtHead(
  res: Response,
  label: string,
  req: Request,
  route: AnyRoute,
  context: RouteContext,
  params: unknown,
  cache: ResponseCache,
  head: NonNullable<V3RouterOptions['head']>,
): Promise<void> {
  const at = await head.source.current();
  if (!at) {
    v3HeadCacheRequests.inc({ outcome: 'no_head' });
    sendAnswer(res, await route.run(context, params));
    return;
  }
  const query = canonicalParams(req.query);
  const keyAt = (of: IndexHead) => responseKey(`${label}@head`, { query, settings: context.settings, head: of.token }, of.rootHash);
  const compute = async () => {
    let offIndex = false;
    const answer = await route.run({ ...context, offIndex: () => (offIndex = true) }, params);
    const bytes = answerBytes(answer);
    return { status: 200, bytes, keep: !offIndex && bytes.length <= head.maxAnswerBytes };
  };
  const newer = head.source.warming?.();
  const published = newer ? cache.memoryResult(keyAt(at)) : undefined;
  const { answer, hit, kept } = published ? { answer: published, hit: true, kept: true } : await cache.lookup(keyAt(newer ?? at), compute);
  v3HeadCacheRequests.inc({ outcome: hit ? 'hit' : kept === false ? 'not_kept' : 'miss' });
  if (kept !== false && head.source.readAt) {
    // Warmed at the next head before it is published: the same computation under that head's key.
    head.source.readAt(`${label}|${query}|${canonicalParams(context.settings)}`, async (next) => {
      try {
        return (await cache.lookup(keyAt(next), compute)).kept !== false;
      } catch {
        return false;
      }
    });
  }
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').set('Content-Length', String(answer.bytes.length));
  // An answer not kept carries no X-Cache, as an answer of a route that is never cached.
  if (kept !== false) res.set('X-Cache', hit ? 'hit' : 'miss');
  res.end(answer.bytes);
}

/**
 * An answer's JSON (or its bytes already written: routes/route.ts's JsonBytes) as `res.json` writes it (the same bytes and Content-Type), without Express's
 * ETag: res.send hashes the whole body with SHA-1 for it (a 1 000-transaction page is 2.8 MB), and
 * ton-index-go sends none. (A response cache hit has none either: docs/serving.md.)
 */
function sendAnswer(res: Response, answer: unknown): void {
  const body = answer instanceof JsonBytes ? answer.bytes : JSON.stringify(answer);
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').set('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}
