import type { PendingTraceStore } from '../../emulate';
import type { AnswerAssembler } from '../answers/pool';
import type { V3Database } from '../db';
import type { V3Query } from '../params/query';

/** What ton-index-go's GetRequestSettings reads from headers (or their query forms). */
export interface RequestSettings {
  readonly noAddressBook: boolean;
  readonly noMetadata: boolean;
  /** Friendly forms with the test-only flag (ton-index-go's `--testnet`). */
  readonly testnet: boolean;
  /** `X-Actions-Version` (header only, as ton-index-go reads it): replaces supported_action_types. */
  readonly actionsVersion?: string;
}

export interface RouteContext {
  readonly db: V3Database;
  readonly settings: RequestSettings;
  /** Traces of messages sent through this server, emulated, not yet indexed (the pending routes). */
  readonly pending?: Pick<PendingTraceStore, 'findByAccount' | 'findByExternalHash'>;
  /** The off-chain metadata fetcher (`--metadata-fetch`): asked, never awaited, for URIs the cache lacks. */
  readonly metadataFetch?: { request(uris: readonly string[]): void };
  /**
   * Told when the answer reads rows a commit does not make: the off-chain documents of
   * `metadata_cache`, written by the metadata fetcher whenever a fetch ends. Such an answer is not
   * kept by the cache at the index's head (http.ts).
   */
  readonly offIndex?: () => void;
  /** Where heavy answers are assembled (answers/pool.ts: threads); absent: on the event loop. */
  readonly answers?: AnswerAssembler;
}

/**
 * An answer already written as JSON (its UTF-8 bytes: answers/pool.ts assembles large pages in a
 * thread): sent as it is, where any other answer is JSON.stringify'd.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** An answer's JSON bytes. */
export function answerBytes(answer: unknown): Buffer {
  return answer instanceof JsonBytes ? answer.bytes : Buffer.from(JSON.stringify(answer));
}

/**
 * One v3 route: its path, its parameters read and validated before any I/O (a client mistake is
 * a 422 with ton-index-go's text), and a short run function over the index's tables.
 */
export interface V3Route<Params> {
  readonly path: string;
  readonly summary: string;
  /** Query parameters (for the OpenAPI document): name, type, whether a list. */
  readonly parameters: readonly RouteParameter[];
  parse(query: V3Query): Params;
  run(context: RouteContext, params: Params): Promise<unknown>;
  /**
   * The masterchain block whose rows alone make the answer, when it is one: the answer never
   * changes once that block is indexed, so it is cached keyed by the block's root hash (a local
   * chain rewound to another block there gets another key). Undefined: never cached.
   */
  immutableAt?(params: Params, settings: RequestSettings): number | undefined;
  /**
   * true: the answer is made of what the index does not commit (the pending routes: this server's
   * emulated traces in memory), so the cache at the index's head never keeps it. Every other
   * route's answer is a function of the committed rows (and of `offIndex`'s reads, reported at run
   * time).
   */
  readonly notIndexed?: true;
}

export interface RouteParameter {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'boolean';
  readonly list?: boolean;
  readonly required?: boolean;
  readonly description?: string;
}

/** Declares a route with its parameter type inferred from parse. */
export function defineRoute<Params>(route: V3Route<Params>): V3Route<Params> {
  return route;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list of routes
export type AnyRoute = V3Route<any>;
