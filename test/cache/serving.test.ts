import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { writeGlobalConfig } from '../../src/localnetSource';
import { startServer, type RunningServer } from '../../src/server';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';

/**
 * The response cache through HTTP, over real lite servers: the local chain (blocks every 2 s, so that two reads in a row share a head even on a loaded machine)
 * and a scripted lite server that counts the queries it gets.
 */

type Json = Record<string, unknown>;
const logger = pino({ level: 'silent' });

interface Reply {
  status: number;
  cache: string | null;
  body: Json;
}

async function get(base: string, method: string, query = ''): Promise<Reply> {
  const res = await fetch(`${base}/api/v2/${method}${query ? `?${query}` : ''}`);
  return { status: res.status, cache: res.headers.get('x-cache'), body: (await res.json()) as Json };
}

const seqnoOf = (block: unknown) => (block as { seqno: number }).seqno;

describe('response cache on the local chain', () => {
  let stack: LocalStack;
  let account: string;

  beforeAll(async () => {
    stack = await startLocalStack(['--block-interval', '2000']);
    account = stack.localnet.wallets.wallets[0]!.address.toString();
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('X-Cache: a miss, then hits with the same result, until a new head makes "latest" miss', async () => {
    // Take a head, then read twice: every read is at a head no older than the one seen before it,
    // a repeat at the same head is a hit with the same result, and a read at a newer head than
    // the previous read is a miss (a "latest" answer never outlives its head).
    let sawHit = false;
    let sawMissAfterNewHead = false;
    let previousSeqno: number | undefined;
    const deadline = Date.now() + 50000;
    while (Date.now() < deadline && !(sawHit && sawMissAfterNewHead)) {
      const head = await get(stack.url, 'getMasterchainInfo');
      expect(head.status).toBe(200);
      const headSeqno = seqnoOf((head.body['result'] as Json)['last']);
      const first = await get(stack.url, 'getAddressInformation', `address=${account}`);
      const second = await get(stack.url, 'getAddressInformation', `address=${account}`);
      for (const read of [first, second]) {
        expect(read.status).toBe(200);
        expect(['hit', 'miss']).toContain(read.cache);
        expect(seqnoOf((read.body['result'] as Json)['block_id'])).toBeGreaterThanOrEqual(headSeqno);
      }
      const firstSeqno = seqnoOf((first.body['result'] as Json)['block_id']);
      const secondSeqno = seqnoOf((second.body['result'] as Json)['block_id']);
      if (secondSeqno === firstSeqno) {
        expect(second.cache).toBe('hit');
        expect(second.body['result']).toEqual(first.body['result']);
        sawHit = true;
      }
      if (previousSeqno !== undefined && firstSeqno > previousSeqno) {
        expect(first.cache).toBe('miss');
        sawMissAfterNewHead = true;
      }
      previousSeqno = secondSeqno;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sawHit).toBe(true);
    expect(sawMissAfterNewHead).toBe(true);
  }, 60000);

  test('an explicit seqno is served from the cache after newer blocks, and @extra keeps its format', async () => {
    const head = seqnoOf(((await get(stack.url, 'getMasterchainInfo')).body['result'] as Json)['last']);
    const first = await get(stack.url, 'getAddressInformation', `address=${account}&seqno=${head}`);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('miss');
    expect(seqnoOf((first.body['result'] as Json)['block_id'])).toBe(head);
    // Wait for two newer blocks, then ask again (another spelling of the same address).
    for (;;) {
      const now = seqnoOf(((await get(stack.url, 'getMasterchainInfo')).body['result'] as Json)['last']);
      if (now >= head + 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await get(stack.url, 'getAddressInformation', `seqno=${head}&address=${account}`);
    expect(again.cache).toBe('hit');
    expect(again.body['result']).toEqual(first.body['result']);
    // No lite server was needed for this hit: toncenter's '_' in the servers part.
    expect(again.body['@extra']).toMatch(/^\d+:(\d+(,\d+)*|_):\d+\.\d{3}$/);
    expect(Object.keys(again.body)).toEqual(['ok', 'result', '@extra']);
  }, 60000);

  test('JSON-RPC reads the same cache and answers in its own frame', async () => {
    const head = seqnoOf(((await get(stack.url, 'getMasterchainInfo')).body['result'] as Json)['last']);
    const rest = await get(stack.url, 'getAddressBalance', `address=${account}&seqno=${head}`);
    const res = await fetch(`${stack.api}/jsonRPC`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'getAddressBalance', params: { address: account, seqno: head } }),
    });
    const body = (await res.json()) as Json;
    expect(body['result']).toEqual(rest.body['result']);
    expect(body['id']).toBe(7);
  }, 60000);

  test('deterministic 4xx are cached per head; send methods never are', async () => {
    const missing = 'source=0:0000000000000000000000000000000000000000000000000000000000000001&destination=' + account + '&created_lt=1';
    const first = await get(stack.url, 'tryLocateSourceTx', missing);
    expect(first.status).toBe(404);
    const second = await get(stack.url, 'tryLocateSourceTx', missing);
    expect(second.status).toBe(404);
    expect(second.body).toEqual(first.body);
    expect(['hit', 'miss']).toContain(second.cache);
    const send = await fetch(`${stack.api}/sendBoc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"boc":"te6ccgEBAQEAAgAAAA=="}',
    });
    expect(send.headers.get('x-cache')).toBeNull();
  }, 60000);

  test("--cache-redis: a second instance gets the first one's answer from Redis", async () => {
    const redis = new Redis('redis://127.0.0.1:6379/0', { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await redis.connect();
    } catch {
      throw new Error('these tests need Redis on 127.0.0.1:6379');
    } finally {
      redis.disconnect();
    }
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-cache-')), 'local.config.json');
    writeGlobalConfig(stack.localnet, file);
    const flags = [
      '--liteservers',
      file,
      '--port',
      '0',
      '--metrics-port',
      '0',
      '--keyless-rps',
      '0',
      '--health-interval',
      '200',
      '--cache-redis',
      'redis://127.0.0.1:6379/0',
    ];
    const servers: RunningServer[] = [];
    try {
      for (let i = 0; i < 2; i++) servers.push(await startServer(loadConfig(flags, {}).config, logger));
      // A loaded machine can fail a first probe; wait for the pools to see the chain.
      for (const server of servers) await server.pool.waitHealthy(20000);
      const [a, b] = servers as [RunningServer, RunningServer];
      const head = seqnoOf(((await get(a.url, 'getMasterchainInfo')).body['result'] as Json)['last']);
      const query = `address=${account}&seqno=${head}`;
      const fromA = await get(a.url, 'getWalletInformation', query);
      expect(fromA.status).toBe(200);
      expect(fromA.cache).toBe('miss');
      // The set is not awaited by the request; give Redis a moment, polling rather than sleeping blind.
      let fromB: Reply | undefined;
      for (let attempt = 0; attempt < 20; attempt++) {
        const c = await startServer(loadConfig(flags, {}).config, logger);
        servers.push(c);
        await c.pool.waitHealthy(20000);
        fromB = await get(c.url, 'getWalletInformation', query);
        if (fromB.cache === 'hit') break;
      }
      expect(fromB?.cache).toBe('hit');
      expect(fromB?.body['result']).toEqual(fromA.body['result']);
      // Without --cache-redis an instance computes on its own.
      const alone = await get(b.url, 'getWalletInformation', query);
      expect(alone.body['result']).toEqual(fromA.body['result']);
    } finally {
      for (const server of servers) await server.stop();
    }
  }, 60000);
});

describe('single flight over a scripted lite server', () => {
  let lite: ScriptedLiteServer;
  let running: RunningServer;

  beforeAll(async () => {
    lite = new ScriptedLiteServer('f');
    await lite.start();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-sf-')), 'global.config.json');
    fs.writeFileSync(file, JSON.stringify(lite.globalConfig()));
    const { config } = loadConfig(['--trust-liteservers', '--liteservers', file, '--port', '0', '--metrics-port', '0', '--health-interval', '200', '--keyless-rps', '0'], {});
    running = await startServer(config, logger);
  });

  afterAll(async () => {
    await running?.stop();
    await lite?.stop();
  });

  test('N identical concurrent misses make one lite query', async () => {
    lite.lookupDelayMs = 400;
    lite.calls.length = 0;
    const query = 'workchain=-1&shard=-9223372036854775808&seqno=42';
    const replies = await Promise.all(Array.from({ length: 20 }, () => get(running.url, 'lookupBlock', query)));
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.body['result']).toEqual(replies[0]!.body['result']);
    }
    expect(seqnoOf(replies[0]!.body['result'])).toBe(42);
    expect(lite.calls.filter((call) => call === 'lookupBlock:42')).toHaveLength(1);
    // And a later one at the same head is a hit without any query.
    const later = await get(running.url, 'lookupBlock', query);
    if (later.cache === 'hit') expect(lite.calls.filter((call) => call === 'lookupBlock:42')).toHaveLength(1);
  }, 60000);
});
