import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { LiteServerError } from '../../src/errors';
import { AdnlServer } from '../../src/localnet/adnlServer/server';
import { AdnlClientConnection } from '../../src/liteclient/connection';
import type { PooledServer } from '../../src/liteclient';
import { trustAnchorOf } from '../../src/liteclient/trust';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { startServer, type RunningServer } from '../../src/server';
import { decodeLiteServerQuery, encodeLiteServerError, encodeLiteServerQuery } from '../../src/tl/envelope';
import { TL_IDS } from '../../src/tl/ids';
import {
  decodeLiteAnswer,
  decodeLiteQuery,
  encodeLiteAnswer,
  type LiteAnswerMap,
  type LiteQueryKind,
  type LiteQueryOf,
} from '../../src/tl/functions';

/** Alters one decoded answer; gets the query it answers. May be async (e.g. to re-query upstream). */
export type AnswerTamper<K extends LiteQueryKind> = (
  answer: LiteAnswerMap[K],
  query: LiteQueryOf<K>,
) => LiteAnswerMap[K] | Promise<LiteAnswerMap[K]>;

type Tampers = { [K in LiteQueryKind]?: AnswerTamper<K> };

/**
 * A lying lite server for tests: it terminates ADNL/TCP with the local chain's own key (so a
 * client pinning that key cannot tell it apart), forwards every query as is to the real local
 * chain over our lite client, and lets a test rewrite the decoded answer per query kind. Without a
 * tamper it is a transparent relay, so a test can turn lying on and off on one server.
 */
export class TamperingLiteServer {
  private readonly tampers: Tampers = {};
  private readonly replacements = new Map<LiteQueryKind, (query: LiteQueryOf<LiteQueryKind>) => Promise<LiteAnswerMap[LiteQueryKind]>>();
  private server: AdnlServer | undefined;
  private upstream: Promise<AdnlClientConnection> | undefined;
  port = 0;
  /** Query kinds seen, in order (`liteServer.getAccountState`...). */
  readonly calls: LiteQueryKind[] = [];
  /** How many answers a tamper rewrote. */
  tampered = 0;
  /** Tampers that threw (the client got a liteServer.error instead). */
  readonly tamperErrors: string[] = [];

  /**
   * @param localnet the real chain to forward to.
   * @param seed the local chain's 32-byte ADNL seed (start it with `--localnet-key`/`seed`), so
   *   this server proves the same key; another seed makes it a distinct server.
   */
  constructor(
    private readonly localnet: Pick<Localnet, 'host' | 'port' | 'publicKey'>,
    private readonly seed: Buffer,
  ) {}

  /** Rewrites every answer of `kind` with `tamper` from now on (replaces an earlier one). */
  tamper<K extends LiteQueryKind>(kind: K, tamper: AnswerTamper<K>): this {
    (this.tampers as Record<string, unknown>)[kind] = tamper;
    return this;
  }

  /**
   * Answers every query of `kind` with `answer` instead of asking the chain (for lies about blocks
   * the chain does not have, which it would refuse). Counts as tampering.
   */
  replace<K extends LiteQueryKind>(kind: K, answer: (query: LiteQueryOf<K>) => Promise<LiteAnswerMap[K]>): this {
    this.replacements.set(kind, answer as unknown as (query: LiteQueryOf<LiteQueryKind>) => Promise<LiteAnswerMap[LiteQueryKind]>);
    return this;
  }

  /** Answers honestly again (every tamper removed). */
  honest(): this {
    this.replacements.clear();
    for (const kind of Object.keys(this.tampers)) delete (this.tampers as Record<string, unknown>)[kind];
    return this;
  }

  /** The real chain, through our own client; reconnects when the connection dropped. */
  private async connection(): Promise<AdnlClientConnection> {
    const current = this.upstream ? await this.upstream.catch(() => undefined) : undefined;
    if (current?.isOpen) return current;
    this.upstream = AdnlClientConnection.connect(
      { host: this.localnet.host, port: this.localnet.port, publicKey: this.localnet.publicKey },
      5000,
    );
    return this.upstream;
  }

  /** Asks the real chain directly (a tamper building its lie out of true answers uses this). */
  async upstreamQuery<K extends LiteQueryKind>(query: LiteQueryOf<K>): Promise<LiteAnswerMap[K]> {
    const answer = await (await this.connection()).query(encodeLiteServerQuery(query), 20_000);
    return decodeLiteAnswer(query.kind as K, answer);
  }

  /** Forwards one `liteServer.query` (wait prefix included) and returns the possibly altered answer bytes. */
  private async answer(queryBytes: Buffer): Promise<Buffer> {
    let kind: LiteQueryKind;
    let query: LiteQueryOf<LiteQueryKind>;
    try {
      let functionData = decodeLiteServerQuery(queryBytes).functionData;
      // A `waitMasterchainSeqno seqno timeout` prefix (the head tracker's long poll): the query follows it.
      if (functionData.length >= 12 && functionData.readUInt32LE(0) === TL_IDS['liteServer.waitMasterchainSeqno']) functionData = functionData.subarray(12);
      query = decodeLiteQuery(functionData) as LiteQueryOf<LiteQueryKind>;
      kind = query.kind;
    } catch (err) {
      return encodeLiteServerError(621, `cannot parse query: ${(err as Error).message}`);
    }
    this.calls.push(kind);
    const replacement = this.replacements.get(kind);
    if (replacement) {
      try {
        const answer = await replacement(query);
        this.tampered++;
        return encodeLiteAnswer(kind, answer);
      } catch (err) {
        this.tamperErrors.push(`${kind}: ${(err as Error).message}`);
        return encodeLiteServerError(-400, `replacement failed: ${(err as Error).message}`);
      }
    }
    let answer: Buffer;
    try {
      answer = await (await this.connection()).query(queryBytes, 20_000);
    } catch (err) {
      if (err instanceof LiteServerError) return encodeLiteServerError(err.liteCode, err.liteMessage);
      return encodeLiteServerError(-400, `upstream failed: ${(err as Error).message}`);
    }
    const tamper = this.tampers[kind] as AnswerTamper<LiteQueryKind> | undefined;
    if (!tamper) return answer;
    try {
      const altered = await tamper(decodeLiteAnswer(kind, answer), query);
      this.tampered++;
      return encodeLiteAnswer(kind, altered);
    } catch (err) {
      // A broken tamper is a bug of the test: keep it visible instead of hanging the client.
      this.tamperErrors.push(`${kind}: ${(err as Error).message}`);
      return encodeLiteServerError(-400, `tamper failed: ${(err as Error).message}`);
    }
  }

  async start(port = this.port): Promise<void> {
    this.server = new AdnlServer({ seed: this.seed, port, onQuery: (query) => this.answer(query) });
    this.port = (await this.server.listen()).port;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
    const upstream = this.upstream ? await this.upstream.catch(() => undefined) : undefined;
    upstream?.destroy('tampering server stopped');
    this.upstream = undefined;
  }

  get publicKey(): Buffer {
    return this.server!.publicKey;
  }

  /** This server as a pool entry (archival like the local chain it relays). */
  endpoint(extra: Partial<PooledServer> = {}): PooledServer {
    return { host: '127.0.0.1', port: this.port, publicKey: this.publicKey, archival: true, weight: 1, ...extra };
  }
}

/**
 * The API over a local chain with a tampering server in its pool: alone (`honest: false`) or
 * beside the chain's own honest server. Both prove the chain's key.
 */
export interface TamperedStack {
  api: string;
  localnet: Localnet;
  liar: TamperingLiteServer;
  server: RunningServer;
  /** Seals `count` blocks and waits until every server's proven head is the chain's newest block. */
  seal(count: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startTamperedStack(options: { honest: boolean; flags?: string[] }): Promise<TamperedStack> {
  const seed = randomBytes(32);
  const { config } = loadConfig(
    [
      '--port',
      '0',
      '--metrics-port',
      '0',
      '--keyless-rps',
      '0',
      '--health-interval',
      '200',
      '--block-interval',
      '0',
      '--cache-size',
      '0',
      ...(options.flags ?? []),
    ],
    {},
  );
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const localnet = await startLocalnet({ seed, accounts: 1, blockIntervalMs: 0, shards: 2 });
  const liar = new TamperingLiteServer(localnet, seed);
  await liar.start();
  const honest: PooledServer = { host: localnet.host, port: localnet.port, publicKey: localnet.publicKey, archival: true, weight: 1 };
  const servers = options.honest ? [liar.endpoint(), honest] : [liar.endpoint()];
  // Proven from the chain's own zero state, as the API proves any chain's head.
  const anchor = trustAnchorOf(localnet.globalConfig, 'local chain', undefined);
  const server = await startServer(config, logger, { servers, anchor, saveKeyBlock: false, stop: async () => undefined });
  // With --index on the embedded store opens in the background: the stack is ready once it is open.
  await server.services.index?.ready;
  return {
    api: `${server.url}/api/v2`,
    localnet,
    liar,
    server,
    seal: async (count) => {
      for (let i = 0; i < count; i++) await localnet.chain.seal();
      const last = localnet.chain.lastMasterchainBlock().id.seqno;
      const deadline = Date.now() + 10_000;
      // Heads are proven in the background (a getBlockProof each): reads use them once proven.
      while (servers.some((_, index) => server.pool.heads.headOf(index)?.last.seqno !== last)) {
        if (Date.now() > deadline) throw new Error('the pool did not prove the new head in time');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    stop: async () => {
      await server.stop();
      await liar.stop();
      await localnet.stop();
    },
  };
}
