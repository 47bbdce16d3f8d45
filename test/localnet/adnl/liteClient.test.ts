/**
 * The ADNL server and dispatcher driven by an unmodified ton-lite-client (LiteSingleEngine,
 * LiteRoundRobinEngine, LiteClient), the client the HTTP server uses.
 */
import { LiteClient, LiteEngine, LiteRoundRobinEngine, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema';
import { LiteProtocolError } from '../../../src/localnet';
import { createAdnlKeyPair } from '../../../src/adnl';
import { AdnlServer, ConnectionInfo } from '../../../src/localnet/adnlServer';
import { createLiteDispatcher, LiteHandlers } from '../../../src/localnet/liteserver/dispatcher';
import { BlockIdExt, LiteClientFunctions, ZeroStateIdExt } from '../../../src/tl';
import { unrefTimersWhileInstalled } from './liteClientTimers';
import { waitUntil } from './rawAdnlClient';

const NOW = 1_700_000_000;
const MASTER_SHARD = '-9223372036854775808';
const zeroState: ZeroStateIdExt = {
  kind: 'tonNode.zeroStateIdExt',
  workchain: -1,
  rootHash: Buffer.alloc(32, 0xaa),
  fileHash: Buffer.alloc(32, 0xbb),
};

function mcBlockId(seqno: number): BlockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: -1,
    shard: MASTER_SHARD,
    seqno,
    rootHash: Buffer.alloc(32, seqno & 0xff),
    fileHash: Buffer.alloc(32, (seqno + 1) & 0xff),
  };
}

/** A stand-in for the chain's masterchain height, advanced by the tests. */
class FakeMasterchain {
  seqno = 10;
  private waiters: { seqno: number; resolve: (reached: boolean) => void }[] = [];

  get waiting(): number {
    return this.waiters.length;
  }

  advanceTo(seqno: number): void {
    this.seqno = seqno;
    for (const waiter of this.waiters.filter((w) => w.seqno <= seqno)) waiter.resolve(true);
    this.waiters = this.waiters.filter((w) => w.seqno > seqno);
  }

  waitFor(seqno: number, timeoutMs: number): Promise<boolean> {
    if (this.seqno >= seqno) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        seqno,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

function openEngine(host: string, port: number, publicKey: Buffer): LiteSingleEngine {
  const engine = new LiteSingleEngine({ host: `tcp://${host}:${port}`, publicKey, reconnectTimeout: 200 });
  // Without a listener a socket error would crash the test process (design §1.6).
  engine.on('error', () => undefined);
  return engine;
}

function whenReady(engine: LiteSingleEngine): Promise<void> {
  return engine.isReady() ? Promise.resolve() : new Promise((resolve) => engine.once('ready', () => resolve()));
}

describe('ton-lite-client against the local ADNL lite server', () => {
  const chain = new FakeMasterchain();
  const connectionsSeen = new Set<number>();
  let outMsgQueueRequest: unknown = null;
  const handlers: LiteHandlers = {
    'liteServer.getMasterchainInfo': async (_query, { connection }: { connection: ConnectionInfo }) => {
      connectionsSeen.add(connection.id);
      return { kind: 'liteServer.masterchainInfo', last: mcBlockId(chain.seqno), stateRootHash: Buffer.alloc(32, 0xcc), init: zeroState };
    },
    'liteServer.getTime': async (_query, { connection }) => {
      connectionsSeen.add(connection.id);
      return { kind: 'liteServer.currentTime', now: NOW };
    },
    'liteServer.getVersion': async () => ({ kind: 'liteServer.version', mode: 0, version: 0x101, capabilities: '7', now: NOW }),
    'liteServer.lookupBlock': async (query, { connection }) => {
      connectionsSeen.add(connection.id);
      if (query.id.seqno > 1_000_000) throw new LiteProtocolError(651, 'block not found');
      return {
        kind: 'liteServer.blockHeader',
        id: { ...mcBlockId(query.id.seqno), workchain: query.id.workchain, shard: query.id.shard },
        mode: query.mode,
        headerProof: Buffer.from(`header of ${query.id.seqno}`),
      };
    },
    'liteServer.getBlock': async () => {
      throw new Error('disk on fire');
    },
    'liteServer.getOutMsgQueueSizes': async (query) => {
      outMsgQueueRequest = query;
      return {
        kind: 'liteServer.outMsgQueueSizes',
        shards: [{ kind: 'liteServer.outMsgQueueSize', id: mcBlockId(chain.seqno), size: 3 }],
        extMsgQueueSizeLimit: 8000,
      };
    },
  };

  let server: AdnlServer;
  let host: string;
  let port: number;
  let engine: LiteSingleEngine;
  let client: LiteClient;
  const loggedErrors: string[] = [];
  let restoreTimers: () => void;

  beforeAll(async () => {
    restoreTimers = unrefTimersWhileInstalled();
    server = new AdnlServer({
      onQuery: createLiteDispatcher({
        handlers,
        waitForMasterchainSeqno: (seqno, timeoutMs) => chain.waitFor(seqno, timeoutMs),
        // Answers the wait timeout well before the client's own 5 s query timeout.
        maxWaitMs: 1000,
        logger: {
          debug: () => undefined,
          info: () => undefined,
          warn: () => undefined,
          error: (_details, message) => loggedErrors.push(message),
        },
      }),
    });
    ({ host, port } = await server.listen());
    engine = openEngine(host, port, server.publicKey);
    await whenReady(engine);
    client = new LiteClient({ engine });
  });

  afterAll(async () => {
    engine.close();
    await server.close();
    restoreTimers();
  });

  it("answers getMasterchainInfo, getTime and getVersion with the handlers' values", async () => {
    const info = await client.getMasterchainInfo();
    expect(info.last).toEqual(mcBlockId(10));
    expect(info.stateRootHash).toEqual(Buffer.alloc(32, 0xcc));
    expect(info.init).toEqual(zeroState);
    expect(await client.getCurrentTime()).toBe(NOW);
    expect(await client.getVersion()).toEqual({ kind: 'liteServer.version', mode: 0, version: 0x101, capabilities: '7', now: NOW });
  });

  it("surfaces a handler's LiteProtocolError message", async () => {
    await expect(client.lookupBlockByID({ workchain: -1, shard: MASTER_SHARD, seqno: 2_000_000 })).rejects.toThrow(/^block not found$/);
    const header = await client.lookupBlockByID({ workchain: 0, shard: MASTER_SHARD, seqno: 5 });
    expect(header.id.seqno).toBe(5);
    expect(header.headerProof.toString()).toBe('header of 5');
  });

  it('turns any other handler failure into an error carrying its message, and logs it', async () => {
    await expect(engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: mcBlockId(1) })).rejects.toThrow(
      /^disk on fire$/,
    );
    expect(loggedErrors).toContain('lite handler liteServer.getBlock failed');
  });

  it('answers `unknown query` for a function without a handler and for an unknown constructor', async () => {
    await expect(engine.query(Functions.liteServer_getState, { kind: 'liteServer.getState', id: mcBlockId(1) })).rejects.toThrow(
      /^unknown query$/,
    );
    // ton-lite-client's getValidatorStats has a wrong constructor id, so a real server does not know it either.
    await expect(
      engine.query(Functions.liteServer_getValidatorStats, {
        kind: 'liteServer.getValidatorStats',
        mode: 0,
        id: mcBlockId(1),
        limit: 1,
        startAfter: null,
        modifiedAfter: null,
      }),
    ).rejects.toThrow(/^unknown query$/);
  });

  it("serves functions missing from ton-lite-client through this package's TLFunction objects", async () => {
    const sizes = await engine.query(LiteClientFunctions.getOutMsgQueueSizes, {
      kind: 'liteServer.getOutMsgQueueSizes',
      mode: 1,
      wc: 0,
      shard: MASTER_SHARD,
    });
    expect(sizes.shards[0].size).toBe(3);
    expect(sizes.extMsgQueueSizeLimit).toBe(8000);
    expect(outMsgQueueRequest).toEqual({ kind: 'liteServer.getOutMsgQueueSizes', mode: 1, wc: 0, shard: MASTER_SHARD });
  });

  it('holds a query with the waitMasterchainSeqno prefix until that seqno exists', async () => {
    const target = chain.seqno + 1;
    let settled = false;
    const pending = client.getMasterchainInfo({ awaitSeqno: target, timeout: 5000 }).finally(() => (settled = true));
    await waitUntil(() => chain.waiting === 1, 'the query to wait for the next seqno');
    expect(settled).toBe(false);
    chain.advanceTo(target);
    expect((await pending).last.seqno).toBe(target);
  });

  it('answers the prefixed query with a `timeout` error when the seqno does not come', async () => {
    await expect(client.getMasterchainInfo({ awaitSeqno: chain.seqno + 100, timeout: 5000 })).rejects.toThrow(/^timeout$/);
    expect(chain.waiting).toBe(0);
  });

  it('answers 200 concurrent queries over a LiteRoundRobinEngine of 3 engines, each with its own answer', async () => {
    const engines = [0, 1, 2].map(() => openEngine(host, port, server.publicKey));
    await Promise.all(engines.map(whenReady));
    const roundRobin: LiteEngine = new LiteRoundRobinEngine(engines);
    try {
      connectionsSeen.clear();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          i % 2 === 0
            ? roundRobin
                .query(Functions.liteServer_lookupBlock, {
                  kind: 'liteServer.lookupBlock',
                  mode: 1,
                  id: { kind: 'tonNode.blockId', workchain: -1, shard: MASTER_SHARD, seqno: 1000 + i },
                  lt: null,
                  utime: null,
                })
                .then((header) => header.id.seqno === 1000 + i && header.headerProof.toString() === `header of ${1000 + i}`)
            : roundRobin.query(Functions.liteServer_getTime, { kind: 'liteServer.getTime' }).then((time) => time.now === NOW),
        ),
      );
      expect(results.filter((ok) => !ok)).toHaveLength(0);
      expect(results).toHaveLength(200);
      expect(connectionsSeen.size).toBe(3);
      expect(server.connectionCount).toBe(4);
    } finally {
      roundRobin.close();
    }
    await waitUntil(() => server.connectionCount === 1, 'the round-robin connections to close');
  });

  it('reconnects a LiteSingleEngine after the server drops its connection', async () => {
    const second = openEngine(host, port, server.publicKey);
    try {
      await whenReady(second);
      const reconnected = new Promise<void>((resolve) => second.once('ready', () => resolve()));
      await waitUntil(() => server.connectionCount === 2, 'the second connection');
      // Drop only the second engine's socket: the idle test server below covers idle closes.
      const beforeClose = server.connectionCount;
      const secondClosed = new Promise<void>((resolve) => second.once('close', () => resolve()));
      await closeNewestConnection(server);
      await secondClosed;
      expect(server.connectionCount).toBe(beforeClose - 1);
      await reconnected;
      expect((await second.query(Functions.liteServer_getTime, { kind: 'liteServer.getTime' })).now).toBe(NOW);
    } finally {
      second.close();
    }
  });

  it('rejects the handshake of an engine configured with another (valid) key', async () => {
    const wrong = openEngine(host, port, createAdnlKeyPair().publicKey);
    try {
      await new Promise<void>((resolve) => wrong.once('close', () => resolve()));
      expect(wrong.isReady()).toBe(false);
    } finally {
      wrong.close();
    }
    expect((await client.getMasterchainInfo()).last.seqno).toBe(chain.seqno);
  });
});

/** Test-only access to drop the most recent connection, as a server restart or network cut would. */
async function closeNewestConnection(server: AdnlServer): Promise<void> {
  const connections = (server as unknown as { connections: Set<{ info: ConnectionInfo; destroy(reason: string): void }> }).connections;
  const newest = [...connections].sort((a, b) => b.info.id - a.info.id)[0];
  newest.destroy('test');
}
