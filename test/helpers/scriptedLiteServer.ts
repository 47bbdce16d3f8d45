import { LiteServerError } from '../../src/errors';
import { AdnlServer } from '../../src/localnet/adnl/server';
import { createLiteDispatcher, type LiteHandlers } from '../../src/localnet/liteserver/dispatcher';
import type { BlockIdExt } from '../../src/tl';
import type { PooledServer } from '../../src/liteclient/pool';

/**
 * A real ADNL/TCP lite server (the project's own server and dispatcher) whose answers a test
 * scripts: its masterchain seqno, whether it answers at all, and which seqnos it still has.
 * Used to drive the pool through failures a healthy local chain never shows.
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
  readonly calls: string[] = [];
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
      'liteServer.lookupBlock': async (query) => {
        this.calls.push(`lookupBlock:${query.id.seqno}`);
        if (this.silent) return hang();
        if (this.lookupDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.lookupDelayMs));
        if (query.id.seqno < this.oldestSeqno || query.id.seqno > this.seqno) throw new LiteServerError(651, 'block not found');
        return { kind: 'liteServer.blockHeader', id: this.blockId(query.id.seqno), mode: query.mode, headerProof: Buffer.alloc(0) };
      },
    };
  }

  async start(port = this.port): Promise<void> {
    this.server = new AdnlServer({
      seed: this.seed,
      port,
      onQuery: createLiteDispatcher({ handlers: this.handlers(), waitForMasterchainSeqno: async () => true }),
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
