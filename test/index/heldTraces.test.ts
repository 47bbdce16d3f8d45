import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import type { ClientBase } from 'pg';
import { classifyTrace, readTraceInputs } from '../../src/actions';
import { indexedTokenDirectory } from '../../src/actions/indexing';
import { loadConfig } from '../../src/config';
import { startIndex, type IndexService } from '../../src/indexer';
import { type LitePool } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { jettonTransferBody, jettonWalletAddress, jettonWalletInit, mintBody } from '../helpers/jetton';
import { until } from '../helpers/waiting';
import { startLocalnetPool } from '../helpers/localnetPool';

jest.setTimeout(300_000);

interface ActionOut {
  trace_id: Buffer;
  action_id: Buffer;
  type: string;
  details: unknown;
  accounts: string[];
  success: boolean | null;
}

/**
 * The actions of a trace that began in the masterchain blocks a commit writes are classified from
 * the transactions the commit holds, not from the rows read back (only traces that began in an
 * earlier commit are read). On the real chain, indexed from genesis in batches: the actions stored
 * are the ones a classification from the read-back rows gives, trace by trace; on PostgreSQL the
 * commits read back far fewer traces than they classified.
 */
describe.each(INDEX_BACKENDS)('traces classified from the commit\'s own rows (%s)', (backend) => {
  let net: Localnet;
  let pool: LitePool;
  let db: TestDatabase;
  let index: IndexService | undefined;
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    net = await startLocalnet({ accounts: 4, blockIntervalMs: 3_600_000, shards: 2 });
    pool = await startLocalnetPool(net, logger);
  });

  afterAll(async () => {
    await index?.stop();
    pool?.close();
    await net?.stop();
    await db?.drop();
  });

  it('stores the actions a read-back classification gives, and reads back fewer traces', async () => {
    const { keyPair } = net.wallets;
    const v4s = net.wallets.wallets.filter((w) => w.version === 'v4r2');
    // Each v4 wallet mints its own jetton, then sends jetton transfers and TON transfers: traces of
    // 2-5 transactions, several crossing shards and masterchain blocks.
    for (let round = 0; round < 4; round++) {
      for (const wallet of v4s) {
        const own = jettonWalletAddress(wallet.address, wallet.address);
        const messages =
          round === 0
            ? [internal({ to: own, value: toNano('0.2'), bounce: false, init: jettonWalletInit(wallet.address, wallet.address), body: mintBody(1_000_000n, wallet.address) })]
            : [
                internal({
                  to: own,
                  value: toNano('0.1'),
                  bounce: true,
                  body: jettonTransferBody({ amount: 1n, to: new Address(0, randomBytes(32)), responseTo: wallet.address, forwardTon: toNano('0.01'), forwardPayload: beginCell().storeUint(0, 32).endCell() }),
                }),
                internal({ to: v4s[(v4s.indexOf(wallet) + 1) % v4s.length]!.address, value: toNano('0.01'), bounce: true, body: 'hi' }),
              ];
        const body = (wallet.contract as WalletContractV4).createTransfer({ seqno: round, secretKey: keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
        await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc());
      }
      await net.chain.seal();
      await net.chain.seal();
    }
    for (let i = 0; i < 3; i++) await net.chain.seal();
    const head = net.chain.lastMasterchainBlock().id.seqno;

    // Which traces the commits read back (PostgreSQL: the writer's pg client; PGlite runs in its own thread).
    const readBack: number[] = [];
    const realQuery = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [text, values] = args as [unknown, unknown];
      if (typeof text === 'string' && text.includes('from transactions where trace_id = any') && Array.isArray(values)) readBack.push((values[0] as unknown[]).length);
      return (realQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof realQuery;
    try {
      const { config } = loadConfig(['--index', 'on', ...(db.url ? ['--database-url', db.url] : [])], {});
      index = await startIndex(config, pool, logger, true);
      await until(() => (index!.health().status.committedMcSeqno ?? 0) >= head, 180_000, `index reaches ${head}`);
    } finally {
      pg.Client.prototype.query = realQuery;
    }

    const store = index.store;
    const { rows: stored } = await store.pool.query<ActionOut>('select trace_id, action_id, type, details, accounts, success from actions order by trace_id, action_id');
    const { rows: traces } = await store.pool.query<{ trace_id: Buffer; external_hash: Buffer | null; nodes_: string }>("select trace_id, external_hash, nodes_ from traces where state = 'complete'");
    const classified = new Set(stored.map((a) => a.trace_id.toString('hex')));
    expect(classified.size).toBeGreaterThanOrEqual(v4s.length * 4);
    expect(stored.some((a) => a.type === 'jetton_transfer')).toBe(true);

    // The same traces classified from their rows read back (in a transaction rolled back).
    const reader = { query: (text: string, values?: unknown[]) => store.pool.query(text, values) } as unknown as ClientBase;
    const complete = traces.filter((t) => BigInt(t.nodes_) <= 4000n);
    const inputs = await readTraceInputs(reader, complete.map((t) => t.trace_id), new Map(complete.map((t) => [t.trace_id.toString('hex'), t.external_hash])));
    const directory = await indexedTokenDirectory(reader, inputs);
    const again = inputs
      .flatMap((input) => classifyTrace(input, directory))
      .map((a) => ({ trace_id: Buffer.from(a.trace_id, 'base64'), action_id: Buffer.from(a.action_id, 'base64'), type: a.type, details: JSON.parse(JSON.stringify(a.details)) as unknown, accounts: a.accounts, success: a.success }))
      .sort((a, b) => Buffer.compare(a.trace_id, b.trace_id) || Buffer.compare(a.action_id, b.action_id));
    expect(again).toEqual(stored);

    if (backend === 'postgres') {
      const readTraces = readBack.reduce((a, b) => a + b, 0);
      // Without the commit's own rows every classified trace was read back.
      expect(readTraces).toBeLessThan(classified.size / 2);
    }
  });
});
