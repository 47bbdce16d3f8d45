/**
 * Server configuration from CLI flags and environment variables. Every option has one flag
 * (`--body-limit`) and one variable (`TON_BRIDGE_BODY_LIMIT`); a flag wins over the variable.
 * The option list below is also what `--help` shows and what docs/configuration.md documents
 * (test/docs/configuration.test.ts fails when the two differ).
 */

import { availableParallelism } from 'node:os';

type OptionKind = 'string' | 'int' | 'bool' | 'bytes';

interface OptionSpec {
  readonly flag: string;
  readonly kind: OptionKind;
  readonly defaultValue: string | number | boolean | undefined;
  readonly description: string;
  readonly choices?: readonly string[];
  /** Inclusive range of a numeric option, checked at start so a typo never runs (-1 ms timeouts). */
  readonly min?: number;
  readonly max?: number;
}

const PORT = { min: 0, max: 65535 } as const;
/** A duration in ms: at least 1 ms, at most a day (setTimeout overflows past 2^31 - 1). */
const DURATION = { min: 1, max: 86_400_000 } as const;

export const OPTIONS = {
  port: { flag: 'port', kind: 'int', defaultValue: 8081, description: 'HTTP port of the v2 API', ...PORT },
  host: { flag: 'host', kind: 'string', defaultValue: '127.0.0.1', description: 'HTTP listen address (0.0.0.0 for all)' },
  logLevel: {
    flag: 'log-level',
    kind: 'string',
    defaultValue: 'info',
    description: 'pino log level',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  },
  bodyLimit: {
    flag: 'body-limit',
    kind: 'bytes',
    defaultValue: 1024 * 1024,
    description: 'largest accepted request body (bytes, or 512kb / 2mb)',
    min: 1,
    max: 1024 ** 3,
  },
  maxBatch: {
    flag: 'max-batch',
    kind: 'int',
    defaultValue: 100,
    description: 'most calls in one JSON-RPC batch (422 above)',
    min: 1,
    max: 10000,
  },
  network: {
    flag: 'network',
    kind: 'string',
    defaultValue: 'local',
    description: 'local (embedded chain), mainnet or testnet (official global config)',
    choices: ['local', 'mainnet', 'testnet'],
  },
  liteservers: {
    flag: 'liteservers',
    kind: 'string',
    defaultValue: undefined,
    description: 'path of a global config JSON with the lite servers to use',
  },
  configCacheDir: {
    flag: 'config-cache-dir',
    kind: 'string',
    defaultValue: '.cache',
    description: 'where downloaded global configs are cached',
  },
  requestTimeout: {
    flag: 'request-timeout',
    kind: 'int',
    defaultValue: 10000,
    description: 'overall deadline of one HTTP request, ms',
    ...DURATION,
  },
  queryTimeout: {
    flag: 'query-timeout',
    kind: 'int',
    defaultValue: 5000,
    description: 'timeout of one lite-server query attempt, ms (a retry elsewhere gets the rest of the deadline)',
    ...DURATION,
  },
  healthInterval: {
    flag: 'health-interval',
    kind: 'int',
    defaultValue: 1000,
    description: 'lite-server health probe period, ms',
    min: 10,
    max: 3_600_000,
  },
  maxLag: {
    flag: 'max-lag',
    kind: 'int',
    defaultValue: 3,
    description: 'a lite server more masterchain blocks behind the best than this is taken out',
    min: 0,
    max: 1_000_000,
  },
  shutdownGrace: {
    flag: 'shutdown-grace',
    kind: 'int',
    defaultValue: 10000,
    description: 'on SIGTERM, how long requests in flight may take to finish, ms',
    min: 0,
    max: 86_400_000,
  },
  localnetHost: {
    flag: 'localnet-host',
    kind: 'string',
    defaultValue: '127.0.0.1',
    description: 'listen address of the local chain lite server',
  },
  localnetPort: {
    flag: 'localnet-port',
    kind: 'int',
    defaultValue: 0,
    description: 'lite-server port of the local chain (0 = any free port)',
    ...PORT,
  },
  localnetKey: {
    flag: 'localnet-key',
    kind: 'string',
    defaultValue: undefined,
    description: 'ed25519 seed (64 hex or base64) of the local lite server; random if absent',
  },
  mnemonic: {
    flag: 'mnemonic',
    kind: 'string',
    defaultValue: undefined,
    description: '24 words for the funded local wallets (a documented default otherwise)',
  },
  accounts: {
    flag: 'accounts',
    kind: 'int',
    defaultValue: 10,
    description: 'funded local wallets of each version (v4r2, v5r1)',
    min: 0,
    max: 100_000,
  },
  blockInterval: {
    flag: 'block-interval',
    kind: 'int',
    defaultValue: 1000,
    description: 'local chain block interval, ms; 0 = blocks only on messages and POST /localnet/mine',
    min: 0,
    max: 3_600_000,
  },
  // The local chain splits its basechain in block 1 into a power of two shards (SHARD_COUNTS in the
  // chain; a test keeps the two equal).
  shards: {
    flag: 'shards',
    kind: 'int',
    defaultValue: 2,
    description: 'basechain shards of the local chain (1, 2, 4 or 8)',
    choices: ['1', '2', '4', '8'],
    min: 1,
    max: 8,
  },
  crossShardDelay: {
    flag: 'cross-shard-delay',
    kind: 'int',
    defaultValue: 0,
    description:
      "local chain: blocks a message of a client's cascade waits before it reaches another shard (as on a busy network); 0 = the whole cascade in one block",
    min: 0,
    max: 16,
  },
  keepBlocks: {
    flag: 'keep-blocks',
    kind: 'int',
    defaultValue: 1000,
    description:
      'local chain: masterchain blocks (with their shard blocks and states) kept; older ones answer 651 like a non-archival node',
    min: 16,
    max: 100_000_000,
  },
  saveInterval: {
    flag: 'save-interval',
    kind: 'int',
    defaultValue: 60,
    description: 'local chain: with --state-file, also save it (atomically) every this many seconds; 0 = only on exit',
    min: 0,
    max: 86_400,
  },
  localnetMaxConnections: {
    flag: 'localnet-max-connections',
    kind: 'int',
    defaultValue: 256,
    description: 'local chain lite server: most client connections at once (more are closed)',
    min: 1,
    max: 65_536,
  },
  stateFile: {
    flag: 'state-file',
    kind: 'string',
    defaultValue: undefined,
    description: 'save the local chain here (and journal every block to <file>.journal) and resume from it on start',
  },
  configOut: {
    flag: 'config-out',
    kind: 'string',
    defaultValue: undefined,
    description: 'localnet command: write the global config JSON of the local chain here',
  },
  keysFile: {
    flag: 'keys-file',
    kind: 'string',
    defaultValue: undefined,
    description: 'API keys file (YAML or JSON); reloaded on SIGHUP; without it API keys are ignored',
  },
  keylessRps: {
    flag: 'keyless-rps',
    kind: 'int',
    defaultValue: 1,
    description: 'requests per second per client IP without an API key (0 = no limit)',
    min: 0,
    max: 1_000_000,
  },
  trustProxy: {
    flag: 'trust-proxy',
    kind: 'bool',
    defaultValue: false,
    description: 'take the client IP from X-Forwarded-For as set by the one proxy in front',
  },
  redisUrl: {
    flag: 'redis-url',
    kind: 'string',
    defaultValue: undefined,
    description: 'Redis shared by all instances for rate limits and pending traces (redis://host:port/db); memory (this instance only) if absent',
  },
  redisFailurePolicy: {
    flag: 'redis-failure-policy',
    kind: 'string',
    defaultValue: 'open',
    description: 'while Redis is unreachable: open (serve without limits) or closed (answer 503)',
    choices: ['open', 'closed'],
  },
  redisTimeout: {
    flag: 'redis-timeout',
    kind: 'int',
    defaultValue: 500,
    description: 'longest wait for one Redis rate-limit answer before the failure policy applies, ms',
    ...DURATION,
  },
  tvmWorkers: {
    flag: 'tvm-workers',
    kind: 'int',
    defaultValue: availableParallelism(),
    description: 'worker threads running the TVM (get-methods, estimateFee, getTokenData, dnsResolve); default: the cores',
    min: 1,
    max: 256,
  },
  tvmIdleTimeout: {
    flag: 'tvm-idle-timeout',
    kind: 'int',
    defaultValue: 60000,
    description:
      'a TVM thread without a task for this long ends (threads start when a task needs one), ms; 0 = all --tvm-workers start with the server and stay',
    min: 0,
    max: 86_400_000,
  },
  tvmNewerNetwork: {
    flag: 'tvm-newer-network',
    kind: 'string',
    defaultValue: 'run',
    description: "when the network's TVM global version (ConfigParam 8) is above the emulator's: refuse get-methods, fee estimates and emulation (501) or run them anyway",
    choices: ['refuse', 'run'],
  },
  getMethodGas: {
    flag: 'get-method-gas',
    kind: 'int',
    defaultValue: 4_000_000,
    description: 'gas limit of one get-method run (toncenter: 4000000)',
    min: 1,
    max: 1_000_000_000,
  },
  limiterPrefix: {
    flag: 'limiter-prefix',
    kind: 'string',
    defaultValue: 'ton-http-bridge:ratelimit:',
    description: 'prefix of the rate-limit keys in Redis',
  },
  metricsPort: {
    flag: 'metrics-port',
    kind: 'int',
    defaultValue: 8082,
    description: 'port of the Prometheus metrics server (/metrics, /stats) on --host; 0 = off',
    ...PORT,
  },
  sendFanout: {
    flag: 'send-fanout',
    kind: 'int',
    defaultValue: 3,
    description: 'healthy lite servers each sendBoc/sendQuery goes to at once; ok at the first acceptance',
    min: 1,
    max: 64,
  },
  startTimeout: {
    flag: 'start-timeout',
    kind: 'int',
    defaultValue: 30000,
    description: 'at start, how long to wait for a usable lite server before exiting with the reasons, ms',
    ...DURATION,
  },
  keepAliveTimeout: {
    flag: 'keep-alive-timeout',
    kind: 'int',
    defaultValue: 65000,
    description: 'idle HTTP keep-alive connections are closed after this, ms (above load-balancer idle timeouts)',
    ...DURATION,
  },
  cacheSize: {
    flag: 'cache-size',
    kind: 'bytes',
    defaultValue: 64 * 1024 * 1024,
    description: 'response cache keyed by block, bytes or 64mb (0 = off)',
    min: 0,
    max: 64 * 1024 ** 3,
  },
  v3HeadCache: {
    flag: 'v3-head-cache',
    kind: 'bool',
    defaultValue: true,
    description: 'v3: keep answers in the response cache until the index commits its next masterchain block (keyed by the head the read database shows); needs --cache-size > 0',
  },
  v3HeadPoll: {
    flag: 'v3-head-poll',
    kind: 'int',
    defaultValue: 100,
    description: "v3: how often the index's head is read from the read database for --v3-head-cache, ms (the longest a cached answer outlives a commit of another process)",
    min: 10,
    max: 60_000,
  },
  v3HeadWarm: {
    flag: 'v3-head-warm',
    kind: 'int',
    defaultValue: 200,
    description: "v3: after a commit, the keys read at the index's previous head are computed again before the new head is published (answered from the previous head's entries meanwhile), at most this long, ms (0 = publish at once, each key computed at its first request)",
    min: 0,
    max: 10_000,
  },
  v3HeadWarmKeys: {
    flag: 'v3-head-warm-keys',
    kind: 'int',
    defaultValue: 512,
    description: 'v3: most keys --v3-head-warm remembers to compute again (the most recently read)',
    min: 1,
    max: 100_000,
  },
  v3HeadWarmConcurrency: {
    flag: 'v3-head-warm-concurrency',
    kind: 'int',
    defaultValue: 4,
    description: "v3: keys --v3-head-warm computes at once (each waits for its database round trip; their CPU runs between the requests' turns of the event loop)",
    min: 1,
    max: 64,
  },
  v3AnswerThreads: {
    flag: 'v3-answer-threads',
    kind: 'int',
    defaultValue: 2,
    description: "v3: worker threads that assemble large answers (parse PostgreSQL's JSON, convert, write the answer's JSON) off the event loop; 0 = all on the event loop",
    min: 0,
    max: 64,
  },
  v3AnswerQueue: {
    flag: 'v3-answer-queue',
    kind: 'int',
    defaultValue: 64,
    description: 'v3: answer tasks waiting for a --v3-answer-threads thread; past it a request is answered 503 at once',
    min: 1,
    max: 100_000,
  },
  v3AnswerNice: {
    flag: 'v3-answer-nice',
    kind: 'int',
    defaultValue: 10,
    description: "v3: nice value of the --v3-answer-threads threads (Linux, per thread): the event loop's thread wins a core from them (0 = the process's priority)",
    min: 0,
    max: 19,
  },
  v3AnswerInlineBelow: {
    flag: 'v3-answer-inline-below',
    kind: 'bytes',
    defaultValue: 16 * 1024,
    description: "v3: answers whose PostgreSQL JSON is smaller than this are assembled on the event loop (the hop to a thread costs about as much, and they never wait behind large pages), bytes or 16kb",
    min: 0,
    max: 1024 ** 3,
  },
  v3AnswerMax: {
    flag: 'v3-answer-max',
    kind: 'bytes',
    defaultValue: 48 * 1024 * 1024,
    description: "v3: the most PostgreSQL JSON one answer may hold; past it the request is answered 422 (ask for fewer rows), never assembled, bytes or 48mb",
    min: 1024,
    max: 256 * 1024 * 1024,
  },
  v3HeadCacheMaxAnswer: {
    flag: 'v3-head-cache-max-answer',
    kind: 'bytes',
    defaultValue: 1024 * 1024,
    description: 'v3: answers larger than this are not kept by --v3-head-cache, bytes or 1mb',
    min: 0,
    max: 1024 ** 3,
  },
  trustedBlock: {
    flag: 'trusted-block',
    kind: 'string',
    defaultValue: undefined,
    description: 'a masterchain block trusted besides the global config init_block: wc:shard:seqno:root_hash:file_hash',
  },
  trustLiteservers: {
    flag: 'trust-liteservers',
    kind: 'bool',
    defaultValue: false,
    description: 'skip proof checks of lite-server answers (only when every lite server is your own node)',
  },
  cacheRedis: {
    flag: 'cache-redis',
    kind: 'string',
    defaultValue: undefined,
    description: 'Redis shared by all instances as a second response cache (redis://host:port/db); off if absent',
  },
  streamKeylessConnections: {
    flag: 'stream-keyless-connections',
    kind: 'int',
    defaultValue: 10,
    description: 'streaming API: open streams per client IP without an API key (0 = no limit; --keyless-rps 0 lifts it too)',
    min: 0,
    max: 1_000_000,
  },
  streamKeylessAddresses: {
    flag: 'stream-keyless-addresses',
    kind: 'int',
    defaultValue: 100,
    description: 'streaming API: addresses in one subscription of a client without an API key (0 = no limit up to 1024)',
    min: 0,
    max: 1024,
  },
  streamQueue: {
    flag: 'stream-queue',
    kind: 'bytes',
    defaultValue: 1024 * 1024,
    description: 'streaming API: bytes of events that may wait for one slow client before it is disconnected',
    min: 1024,
    max: 1024 ** 3,
  },
  streamWindow: {
    flag: 'stream-window',
    kind: 'int',
    defaultValue: 10000,
    description: 'streaming API: newest events kept in memory for resume (older ones are rebuilt from the index)',
    min: 1,
    max: 10_000_000,
  },
  streamWindowBytes: {
    flag: 'stream-window-bytes',
    kind: 'bytes',
    defaultValue: 64 * 1024 * 1024,
    description: 'streaming API: most bytes of events kept in memory for resume (with --index off the window is all a resume can reach)',
    min: 64 * 1024,
    max: 16 * 1024 ** 3,
  },
  pendingTtl: {
    flag: 'pending-ttl',
    kind: 'int',
    defaultValue: 60000,
    description: 'longest a sent message stays a pending trace (v3 pending*, pending streaming events) before it is dropped as invalidated, ms; a wallet message\'s valid_until may end it sooner',
    min: 1000,
    max: 3_600_000,
  },
  pendingTraces: {
    flag: 'pending-traces',
    kind: 'int',
    defaultValue: 2000,
    description: 'most pending traces kept (in memory also at most 64 MiB together; in Redis with --redis-url at most 1 MiB each); 0: sent messages are not emulated',
    min: 0,
    max: 100_000,
  },
  pendingPrefix: {
    flag: 'pending-prefix',
    kind: 'string',
    defaultValue: 'ton-http-bridge:pending:',
    description: 'prefix of the pending-trace keys and channel in Redis (with --redis-url)',
  },
  databaseUrl: {
    flag: 'database-url',
    kind: 'string',
    defaultValue: undefined,
    description: 'PostgreSQL 14+ holding the index (postgres://user:pass@host:port/db), shared by all instances; the embedded database if absent',
  },
  databaseReadUrl: {
    flag: 'database-read-url',
    kind: 'string',
    defaultValue: undefined,
    description: 'a PostgreSQL replica for index reads (default: --database-url)',
  },
  index: {
    flag: 'index',
    kind: 'string',
    defaultValue: undefined,
    description: 'the block index behind v3: on or off (default: on with the embedded chain (embedded PGlite, opened in the background) and with --database-url, off otherwise)',
    choices: ['on', 'off'],
  },
  indexDir: {
    flag: 'index-dir',
    kind: 'string',
    defaultValue: undefined,
    description: 'directory of the embedded index database (default: beside --state-file, else in memory)',
  },
  indexFrom: {
    flag: 'index-from',
    kind: 'int',
    defaultValue: undefined,
    description: 'masterchain seqno an empty index starts at (default: genesis on the embedded chain, the head otherwise)',
    min: 1,
    max: 2 ** 32 - 1,
  },
  indexRetention: {
    flag: 'index-retention',
    kind: 'int',
    defaultValue: 0,
    description: 'delete indexed masterchain blocks older than this many days before the newest indexed block (0 = keep all)',
    min: 0,
    max: 100_000,
  },
  dnsCollections: {
    flag: 'dns-collections',
    kind: 'string',
    defaultValue: undefined,
    description: "comma-separated NFT collections whose items the index reads as TON DNS items, besides toncenter's .ton and .t.me roots of the network",
  },
  metadataFetch: {
    flag: 'metadata-fetch',
    kind: 'bool',
    defaultValue: false,
    description: 'fetch off-chain TEP-64 metadata (http and https URIs) in the background for the metadata answers, cached in the index',
  },
  metadataFetchTimeout: {
    flag: 'metadata-fetch-timeout',
    kind: 'int',
    defaultValue: 10000,
    description: 'deadline of one off-chain metadata fetch (connect, redirects and body), ms',
    ...DURATION,
  },
  metadataFetchMaxBytes: {
    flag: 'metadata-fetch-max-bytes',
    kind: 'bytes',
    defaultValue: 1024 * 1024,
    description: 'largest off-chain metadata document read (bytes, or 512kb / 2mb); a larger one is a failed fetch',
    min: 1,
    max: 64 * 1024 ** 2,
  },
  metadataFetchConcurrency: {
    flag: 'metadata-fetch-concurrency',
    kind: 'int',
    defaultValue: 4,
    description: 'off-chain metadata fetches at once',
    min: 1,
    max: 256,
  },
  metadataFetchPrivate: {
    flag: 'metadata-fetch-private',
    kind: 'bool',
    defaultValue: false,
    description: 'let metadata fetches reach loopback, private and link-local addresses (refused by default)',
  },
} as const satisfies Record<string, OptionSpec>;

type OptionKey = keyof typeof OPTIONS;
type ValueOf<K extends OptionKey> = (typeof OPTIONS)[K]['kind'] extends 'int' | 'bytes'
  ? number
  : (typeof OPTIONS)[K]['kind'] extends 'bool'
    ? boolean
    : string;

export type AppConfig = {
  readonly [K in OptionKey]: (typeof OPTIONS)[K]['defaultValue'] extends undefined ? ValueOf<K> | undefined : ValueOf<K>;
} & {
  readonly network: 'local' | 'mainnet' | 'testnet';
  readonly redisFailurePolicy: 'open' | 'closed';
  readonly tvmNewerNetwork: 'refuse' | 'run';
  readonly index: 'on' | 'off' | undefined;
};

export const ENV_PREFIX = 'TON_BRIDGE_';

export function envName(flag: string): string {
  return ENV_PREFIX + flag.toUpperCase().replace(/-/g, '_');
}

export class ConfigError extends Error {}

export interface ParsedCommandLine {
  readonly command: 'serve' | 'localnet' | 'index' | 'help';
  readonly config: AppConfig;
}

const BYTES_PATTERN = /^(\d+)\s*(b|kb|mb|gb)?$/i;
const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function inRange(spec: OptionSpec, value: number, source: string): number {
  const min = spec.min ?? Number.MIN_SAFE_INTEGER;
  const max = spec.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${source} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function convert(spec: OptionSpec, text: string, source: string): string | number | boolean {
  switch (spec.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(text)) throw new ConfigError(`${source} expects an integer, got '${text}'`);
      const value = inRange(spec, Number(text), source);
      // A range can hold values the option cannot run (--shards 3): those are refused here too.
      if (spec.choices && !spec.choices.includes(String(value))) {
        throw new ConfigError(`${source} must be one of ${spec.choices.join(', ')}, got ${value}`);
      }
      return value;
    }
    case 'bytes': {
      const match = BYTES_PATTERN.exec(text.trim());
      if (!match) throw new ConfigError(`${source} expects a size such as 1048576 or 1mb, got '${text}'`);
      return inRange(spec, Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]!, source);
    }
    case 'bool': {
      const word = text.toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(word)) return true;
      if (['0', 'false', 'no', 'off'].includes(word)) return false;
      throw new ConfigError(`${source} expects true or false, got '${text}'`);
    }
    case 'string':
      if (spec.choices && !spec.choices.includes(text)) {
        throw new ConfigError(`${source} must be one of ${spec.choices.join(', ')}, got '${text}'`);
      }
      return text;
  }
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function suggestFlag(unknown: string): string {
  const flags = Object.values(OPTIONS).map((spec) => spec.flag);
  const best = flags.map((flag) => ({ flag, distance: editDistance(unknown, flag) })).sort((x, y) => x.distance - y.distance)[0];
  return best && best.distance <= 3 ? ` (did you mean --${best.flag}?)` : ' (see --help)';
}

/**
 * Parses argv (without node and script) and the environment. Unknown flags are errors with a
 * hint rather than being ignored, so a typo never silently runs with defaults.
 */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedCommandLine {
  const specByFlag = new Map<string, [OptionKey, OptionSpec]>(
    (Object.entries(OPTIONS) as [OptionKey, OptionSpec][]).map(([key, spec]) => [spec.flag, [key, spec]]),
  );
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(OPTIONS) as [OptionKey, OptionSpec][]) {
    const fromEnv = env[envName(spec.flag)];
    if (fromEnv !== undefined && fromEnv !== '') values[key] = convert(spec, fromEnv, envName(spec.flag));
    else values[key] = spec.defaultValue;
  }
  let command: ParsedCommandLine['command'] = 'serve';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      command = 'help';
      continue;
    }
    if (!arg.startsWith('--')) {
      if (i === 0 && (arg === 'localnet' || arg === 'serve' || arg === 'index')) {
        command = arg;
        continue;
      }
      throw new ConfigError(`unexpected argument '${arg}' (see --help)`);
    }
    const [flag, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const entry = specByFlag.get(flag);
    if (!entry) throw new ConfigError(`unknown option --${flag}${suggestFlag(flag)}`);
    const [key, spec] = entry;
    let text = inline;
    if (text === undefined) {
      if (spec.kind === 'bool' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--'))) {
        text = 'true';
      } else {
        text = argv[++i];
        if (text === undefined) throw new ConfigError(`option --${flag} needs a value`);
      }
    }
    values[key] = convert(spec, text, `--${flag}`);
  }
  return { command, config: values as AppConfig };
}

export function helpText(): string {
  const lines = [
    'Usage: ton-http-bridge [serve|localnet|index] [options]',
    '',
    '  serve     (default) the TON HTTP API v2 on --host:--port',
    '  localnet  only the local chain lite server; writes its global config to --config-out',
    '  index     only the block indexer (no HTTP API): fills --database-url (or --index-dir) from the lite servers',
    '',
    'Options (each also as an environment variable):',
  ];
  for (const spec of Object.values(OPTIONS) as OptionSpec[]) {
    const defaultText = spec.defaultValue === undefined ? '' : ` (default: ${spec.defaultValue})`;
    lines.push(`  --${spec.flag.padEnd(18)} ${envName(spec.flag).padEnd(32)} ${spec.description}${defaultText}`);
  }
  lines.push('  --help, -h');
  return lines.join('\n');
}
