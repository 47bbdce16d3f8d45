import { Router, type Request, type Response } from 'express';
import { ApiError, ConflictError, ValidationError } from '../errors';
import type { LegacyStackEntryJson } from '../converters';
import {
  toV3AddressInformation,
  toV3EstimateFee,
  toV3SendMessageResult,
  toV3Stack,
  toV3WalletInformation,
  type V2AddressInformationLike,
  type V2WalletInformationLike,
  type V3StatusWords,
  createIndexedRouter,
  createV3Database,
  IndexUnavailableError,
  v3DatabaseOf,
  runDecode,
  V3_ROUTES,
  type V3Database,
} from '../v3';
import type { AppConfig } from '../config';
import type { IndexService } from '../indexer';
import type { AppServices } from './services';
import { bodyObject, callV2, missingParameter, sendV3Error, v3Pipeline } from './v3Pipeline';

/**
 * toncenter v3's legacy endpoints, served from our own v2 handler table as ton-index-go serves
 * them from a v2 server (`index/proxy.go`): same paths and aliases, request fields, shapes, status
 * words, required-parameter errors and `{error, code}` errors; same keys and limits as v2.
 */

type Endpoint = (services: AppServices, req: Request) => Promise<unknown>;

function queryString(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** `use_v2` (Go's strconv.ParseBool words): v2's status words instead of the indexer's. */
function statusWords(req: Request): V3StatusWords {
  const raw = queryString(req, 'use_v2');
  if (raw === undefined || raw === '') return 'index';
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(raw)) return 'v2';
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(raw)) return 'index';
  throw new ValidationError(`failed to parse use_v2: '${raw}'`);
}

function requiredAddress(req: Request): string {
  const address = queryString(req, 'address');
  if (!address) throw missingParameter('address of account is required');
  return address;
}

const addressInformation: Endpoint = async (services, req) => {
  const words = statusWords(req);
  const info = await callV2(services, req, 'getAddressInformation', { address: requiredAddress(req) }, 'get');
  return toV3AddressInformation(info as V2AddressInformationLike, words);
};

const walletInformation: Endpoint = async (services, req) => {
  const words = statusWords(req);
  const info = await callV2(services, req, 'getWalletInformation', { address: requiredAddress(req) }, 'get');
  const wallet = toV3WalletInformation(info as V2WalletInformationLike, words);
  if (!wallet) throw new ConflictError('not a wallet');
  return wallet;
};

const sendMessage: Endpoint = async (services, req) => {
  const boc = bodyObject(req)['boc'];
  if (boc === undefined || boc === null || boc === '') throw missingParameter('boc is required');
  const info = await callV2(services, req, 'sendBocReturnHash', { boc }, 'post');
  return toV3SendMessageResult(info as { hash: string; hash_norm: string });
};

const runGetMethod: Endpoint = async (services, req) => {
  const body = bodyObject(req);
  const { address, method } = body;
  if (address === undefined || address === null || address === '') throw missingParameter('address is required');
  if (method === undefined || method === null || method === '') throw missingParameter('method is required');
  if (typeof method !== 'string') throw new ValidationError('method must be a string');
  const stack = body['stack'] ?? [];
  if (!Array.isArray(stack)) throw new ValidationError('stack must be an array');
  // v2 runGetMethod reads v3 {type, value} entries itself (the same mapping ton-index-go applies).
  const result = (await callV2(services, req, 'runGetMethod', { address, method, stack }, 'post')) as {
    gas_used: number;
    exit_code: number;
    stack: LegacyStackEntryJson[];
  };
  return { gas_used: result.gas_used, exit_code: result.exit_code, stack: toV3Stack(result.stack) };
};

const estimateFee: Endpoint = async (services, req) => {
  const body = bodyObject(req);
  // ton-index-go forwards its struct: absent strings as "", absent ignore_chksig as false.
  const params: Record<string, unknown> = { ignore_chksig: body['ignore_chksig'] ?? false };
  for (const name of ['address', 'body', 'init_code', 'init_data']) {
    const value = body[name];
    if (value !== undefined && value !== null && value !== '') params[name] = value;
  }
  if (params['body'] === undefined) params['body'] = '';
  const result = await callV2(services, req, 'estimateFee', params, 'post');
  return toV3EstimateFee(result as Parameters<typeof toV3EstimateFee>[0]);
};

/** `decode` reads its two lists from the query string (repeated keys) or from a JSON object. */
const decodeFromQuery: Endpoint = async (_services, req) => {
  const query = req.query as Record<string, unknown>;
  return runDecode(query['opcodes'], query['bodies']);
};

const decodeFromBody: Endpoint = async (_services, req) => {
  const body = bodyObject(req);
  return runDecode(body['opcodes'], body['bodies']);
};

/**
 * The indexed routes' reads: the services' own (tests), else the running index's database: a
 * pool of their own with the statement timeout on a PostgreSQL server (its replica when given),
 * the store's one connection on the embedded database. While the index says its database is away
 * (or the index stopped) they answer 503 with its reason.
 */
function indexReadsOf(services: AppServices): V3Database | undefined {
  if (services.indexReads) return services.indexReads;
  return services.index ? createIndexReads(services.config, services.index) : undefined;
}

/** The PostgreSQL server the index's reads go to (`--database-read-url` when given); undefined for the embedded store. */
export function indexServerUrl(config: AppConfig, index: IndexService): string | undefined {
  return index.kind === 'postgres' ? (config.databaseReadUrl ?? config.databaseUrl) : undefined;
}

/** Throws the 503 with the index's reason while it cannot be read (its database away, stopped, starting). */
export function indexReadGate(index: IndexService): () => void {
  return () => {
    const health = index.health();
    if (!health.available) throw new IndexUnavailableError(health.reason ?? undefined);
  };
}

/**
 * The reads of the indexed routes over `index` (the server builds them once: the routes and the
 * head of the cache at the index's head read the same database, `--database-read-url` when given).
 */
export function createIndexReads(config: AppConfig, index: IndexService): V3Database {
  const url = indexServerUrl(config, index);
  // The embedded store opens in the background: its pool exists only once it is open.
  let reads: V3Database | undefined = url ? createV3Database(url, { allowExitOnIdle: true }) : undefined;
  const gate = indexReadGate(index);
  return {
    async query(text, values) {
      gate();
      reads ??= v3DatabaseOf(index.store.readPool);
      return reads.query(text, values);
    },
    async queryTextBytes(text, values) {
      gate();
      reads ??= v3DatabaseOf(index.store.readPool);
      // The embedded store has no such reads: its strings, which the answer's assembly reads alike.
      return reads.queryTextBytes ? reads.queryTextBytes(text, values) : reads.query(text, values);
    },
  };
}

export function createV3Router(services: AppServices): Router {
  const router = Router();
  router.use(v3Pipeline(services));
  // The indexed routes (src/v3) beside the legacy ones, behind the same intake.
  router.use(
    createIndexedRouter(V3_ROUTES, {
      database: indexReadsOf(services),
      cache: services.cache,
      ...(services.v3Head ? { head: services.v3Head } : {}),
      ...(services.v3Answers ? { answers: services.v3Answers } : {}),
      testnet: services.config.network === 'testnet',
      ...(services.pending ? { pending: services.pending } : {}),
      ...(services.index?.metadata ? { metadataFetch: services.index.metadata } : {}),
      sendError: (req, res, err) => sendV3Error(req, res, err, services),
    }),
  );
  const serve = (endpoint: Endpoint) => async (req: Request, res: Response) => {
    try {
      res.status(200).json(await endpoint(services, req));
    } catch (err) {
      sendV3Error(req, res, err, services);
    }
  };
  const wrongVerb = (req: Request, res: Response) => sendV3Error(req, res, new ApiError('methodNotAllowed', 'Method Not Allowed'), services);
  // decode answers both verbs; every other legacy path takes one.
  router.get('/decode', serve(decodeFromQuery));
  router.post('/decode', serve(decodeFromBody));
  router.all('/decode', wrongVerb);
  const routes: [string, 'get' | 'post', Endpoint][] = [
    ['/addressInformation', 'get', addressInformation],
    ['/account', 'get', addressInformation],
    ['/walletInformation', 'get', walletInformation],
    ['/wallet', 'get', walletInformation],
    ['/message', 'post', sendMessage],
    ['/runGetMethod', 'post', runGetMethod],
    ['/estimateFee', 'post', estimateFee],
  ];
  for (const [path, verb, endpoint] of routes) {
    router[verb](path, serve(endpoint));
    router.all(path, wrongVerb);
  }
  return router;
}
