import { LiteProtocolError } from '../../src/localnet';
import { AdnlServer } from '../../src/localnet/adnlServer/server';
import { createLiteDispatcher, type LiteHandlers } from '../../src/localnet/liteserver/dispatcher';
import type { BlockIdExt } from '../../src/tl';
import { decodeLiteServerQueryFully } from '../../src/tl/envelope';
import type { PooledServer } from '../../src/liteclient';

/**
 * A real ADNL/TCP lite server (the project's own server and dispatcher) whose answers a test
 * scripts: its masterchain seqno, whether it answers at all, and which seqnos it still has.
 * Used to drive the pool through failures a healthy local chain never shows. Its blocks are made
 * up and carry no proofs, so a server over it needs `--trust-liteservers`.
 */
export class ScriptedLiteServer {
  seqno = 100;
  /** While true, queries are accepted but never answered. */
  silent = false;
  /** Added to every answer of getMasterchainInfo, to keep a request in flight. */
  delayMs = 0;
  /** Added to every lookupBlock answer (keeps identical requests in flight together). */
  lookupDelayMs = 0;
  /** Lowest seqno this server can look up (a non-archival server forgets old blocks). */
  oldestSeqno = 1;
  /** Query kinds (`liteServer.lookupBlock`) answered with bytes that do not decode (cut short). */
  readonly malformed = new Set<string>();
  /** Connections accepted so far (a dropped connection shows as a new one). */
  connections = 0;
  readonly calls: string[] = [];
  /** What sendMessage answers: accept (status 1), reject (liteServer.error), status0, or silent (no answer). */
  sendVerdict: 'accept' | 'reject' | 'status0' | 'silent' = 'accept';
  /** Delay before the sendMessage verdict, ms. */
  sendDelayMs = 0;
  /** Bodies of the messages this server accepted. */
  readonly accepted: Buffer[] = [];
  private server: AdnlServer | undefined;
  port = 0;
  readonly seed: Buffer;

  constructor(readonly name: string) {
    this.seed = Buffer.alloc(32, name.charCodeAt(0));
  }

  private blockId(seqno: number): BlockIdExt {
    const hash = Buffer.alloc(32, seqno & 255);
    return { kind: 'tonNode.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno, rootHash: hash, fileHash: hash };
  }

  private handlers(): LiteHandlers {
    const hang = <T>() => new Promise<T>(() => undefined);
    return {
      'liteServer.getMasterchainInfo': async () => {
        this.calls.push('getMasterchainInfo');
        if (this.silent) return hang();
        if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
        return {
          kind: 'liteServer.masterchainInfo',
          last: this.blockId(this.seqno),
          stateRootHash: Buffer.alloc(32, 7),
          init: { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) },
        };
      },
      'liteServer.getTime': async () => {
        this.calls.push('getTime');
        if (this.silent) return hang();
        return { kind: 'liteServer.currentTime', now: 1700000000 };
      },
      'liteServer.sendMessage': async (query) => {
        this.calls.push('sendMessage');
        if (this.sendDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.sendDelayMs));
        if (this.sendVerdict === 'silent') return hang();
        if (this.sendVerdict === 'reject')
          throw new LiteProtocolError(0, `cannot apply external message to current state : rejected by ${this.name}`);
        if (this.sendVerdict === 'status0') return { kind: 'liteServer.sendMsgStatus', status: 0 };
        this.accepted.push(query.body);
        return { kind: 'liteServer.sendMsgStatus', status: 1 };
      },
      'liteServer.lookupBlock': async (query) => {
        this.calls.push(`lookupBlock:${query.id.seqno}`);
        if (this.silent) return hang();
        if (this.lookupDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.lookupDelayMs));
        if (query.id.seqno < this.oldestSeqno || query.id.seqno > this.seqno) throw new LiteProtocolError(651, 'block not found');
        return { kind: 'liteServer.blockHeader', id: this.blockId(query.id.seqno), mode: query.mode, headerProof: Buffer.alloc(0) };
      },
    };
  }

  private readonly dispatch = createLiteDispatcher({ handlers: this.handlers(), waitForMasterchainSeqno: async () => true });
  private readonly seenConnections = new Set<unknown>();

  private async answer(query: Buffer, connection: Parameters<typeof this.dispatch>[1]): Promise<Buffer> {
    if (!this.seenConnections.has(connection.id)) {
      this.seenConnections.add(connection.id);
      this.connections++;
    }
    const answer = await this.dispatch(query, connection);
    let kind: string | undefined;
    try {
      kind = decodeLiteServerQueryFully(query).query.kind;
    } catch {
      kind = undefined;
    }
    // The constructor id stays, the fields are cut off: a TL decode error on the client.
    return kind !== undefined && this.malformed.has(kind) ? answer.subarray(0, 6) : answer;
  }

  async start(port = this.port): Promise<void> {
    this.server = new AdnlServer({
      seed: this.seed,
      port,
      onQuery: (query, connection) => this.answer(query, connection),
    });
    this.port = (await this.server.listen()).port;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  /** A global config file naming this server, as `--liteservers` takes. */
  globalConfig(extra: Record<string, unknown> = {}): object {
    return {
      '@type': 'config.global',
      liteservers: [{ ip: 2130706433, port: this.port, id: { '@type': 'pub.ed25519', key: this.publicKey.toString('base64') }, ...extra }],
    };
  }

  get publicKey(): Buffer {
    return this.server!.publicKey;
  }

  endpoint(extra: Partial<PooledServer> = {}): PooledServer {
    return { host: '127.0.0.1', port: this.port, publicKey: this.publicKey, archival: false, weight: 1, ...extra };
  }
}
