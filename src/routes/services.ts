import type { Logger } from 'pino';
import type { AccessControl } from '../auth';
import type { ResponseCache } from '../cache';
import type { AppConfig } from '../config';
import type { HandlerTable } from '../methods';
import type { IndexService } from '../indexer';
import type { LiteGateway } from '../liteclient';
import type { LocalnetControlApi } from '../localnet';
import type { AnswerAssembler, IndexHeadSource, V3Database } from '../v3';
import type { StreamingService } from '../streaming';
import type { PendingTraceStore } from '../emulate';

/** What the HTTP app is built from; main.ts assembles it, tests build their own. */
export interface AppServices {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly table: HandlerTable;
  /** The lite-server pool; absent only in tests of methods that need no chain. */
  readonly lite?: LiteGateway;
  /** API keys and rate limits (src/auth); absent = every request passes unchecked. */
  readonly access?: AccessControl;
  /** Answers by (method, parameters, block) (src/cache); absent = --cache-size 0. */
  readonly cache?: ResponseCache;
  /** The embedded chain's developer controls (`/localnet/*`); absent with external lite servers. */
  readonly localnet?: LocalnetControlApi;
  /** The streaming API (`/api/streaming/*`); absent in tests of the v2 app alone. */
  readonly streaming?: StreamingService;
  /** The block index behind v3 (src/indexer); absent with --index off. v3 routes check `index.health()`. */
  readonly index?: IndexService;
  /**
   * Reads of the index's tables for the indexed v3 routes (src/v3); absent = they answer 503.
   * Built from `index`'s store by the server; tests may give their own database.
   */
  readonly indexReads?: V3Database;
  /**
   * The cache at the index's head for v3 (`--v3-head-cache`): the head read from `indexReads`'
   * database and the largest answer kept; absent = off (or no response cache, or no index).
   */
  readonly v3Head?: { readonly source: IndexHeadSource; readonly maxAnswerBytes: number };
  /** Where v3's large answers are assembled (`--v3-answer-threads`, src/v3/answers); absent = on the event loop. */
  readonly v3Answers?: AnswerAssembler;
  /**
   * Traces of the messages sent through this server, emulated at once and kept until the index
   * commits them (src/emulate/pending.ts); absent with the index off.
   */
  readonly pending?: PendingTraceStore;
}
