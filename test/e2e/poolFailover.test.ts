import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startLocalnetSource } from '../../src/localnetSource';
import type { PooledServer } from '../../src/liteclient';
import type { Localnet } from '../../src/localnet';
import { AdnlServer } from '../../src/localnet/adnlServer/server';
import { createLiteDispatcher, type LiteHandlers } from '../../src/localnet/liteserver/dispatcher';
import { createLocalnetHandlers } from '../../src/localnet/liteserver/queries';
import { startServer, type RunningServer } from '../../src/server';
import { until } from '../helpers/waiting';

/**
 * Issue 4's failover scenario on the real local chain: three lite servers (listeners) over one
 * chain, the API pooled over them, one of them killed and brought back under a steady stream
 * of requests, and one that lags behind by blocks.
 */

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** One more lite server of the same chain, optionally reporting a head `lag` blocks old. */
function listener(localnet: Localnet, seed: number, lag = 0, port = 0): AdnlServer {
  const handlers = createLocalnetHandlers(localnet.chain);
  const lagging: LiteHandlers = {
    ...handlers,
    'liteServer.getMasterchainInfo': async (query, context) => {
      const info = await handlers['liteServer.getMasterchainInfo']!(query, context);
      if (lag === 0) return info;
      const older = await handlers['liteServer.lookupBlock']!(
        { kind: 'liteServer.lookupBlock', mode: 1, id: { kind: 'tonNode.blockId', workchain: -1, shard: info.last.shard, seqno: Math.max(1, info.last.seqno - lag) }, lt: null, utime: null },
        context,
      );
      return { ...info, last: older.id };
    },
  };
  return new AdnlServer({
    seed: Buffer.alloc(32, seed),
    port,
    onQuery: createLiteDispatcher({ handlers: lagging, waitForMasterchainSeqno: async () => true }),
  });
}

describe('pool over three lite servers of the local chain', () => {
  let localnet: Localnet;
  let second: AdnlServer;
  let third: AdnlServer;
  let running: RunningServer;
  let endpoints: PooledServer[];

  beforeAll(async () => {
    const { config } = loadConfig(['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--accounts', '1', '--health-interval', '200', '--block-interval', '300', '--max-lag', '3'], {});
    const source = await startLocalnetSource(config, logger);
    localnet = source.localnet;
    second = listener(localnet, 2);
    third = listener(localnet, 3, 12);
    const [b, c] = [await second.listen(), await third.listen()];
    endpoints = [
      ...source.servers,
      { host: b.host, port: b.port, publicKey: second.publicKey, archival: true, weight: 1 },
      { host: c.host, port: c.port, publicKey: third.publicKey, archival: true, weight: 1 },
    ];
    running = await startServer(config, logger, { servers: endpoints, anchor: source.anchor, stop: () => source.stop() });
    await until(() => running.pool.status().filter((s) => s.state === 'up').length === 2, 5000);
    // The third server reports a head 12 blocks old once the chain has that many (300 ms each).
    await until(() => running.pool.status()[2]?.state === 'lagging', 30_000, 'the third server to lag');
  }, 60000);

  afterAll(async () => {
    await running?.stop();
    await second?.close();
    await third?.close();
  });

  test('a server 12 blocks behind is out of rotation and never answers API requests', async () => {
    expect(running.pool.status()[2]).toMatchObject({ state: 'lagging' });
    expect(running.pool.status()[2]!.lag).toBeGreaterThan(3);
    for (let i = 0; i < 20; i++) {
      const body = (await (await fetch(`${running.url}/api/v2/getMasterchainInfo`)).json()) as { '@extra': string };
      const servers = body['@extra'].split(':')[1];
      expect(servers === '0' || servers === '1').toBe(true);
    }
  });

  test('a server killed under load and restarted: no request fails, it rejoins within 5 s', async () => {
    let failures = 0;
    let answered = 0;
    const seen = new Set<string>();
    let running_ = true;
    const stream = (async () => {
      while (running_) {
        const res = await fetch(`${running.url}/api/v2/getMasterchainInfo`);
        const body = (await res.json()) as { ok: boolean; '@extra': string };
        if (res.status !== 200 || !body.ok) failures++;
        else {
          answered++;
          seen.add(body['@extra'].split(':')[1]!);
        }
      }
    })();
    await sleep(300);
    const port = endpoints[1]!.port;
    await second.close();
    await until(() => running.pool.status()[1]!.state === 'down', 3000);
    const before = answered;
    await sleep(500);
    expect(answered).toBeGreaterThan(before);
    second = listener(localnet, 2, 0, port);
    await second.listen();
    const rejoinMs = await until(() => running.pool.status()[1]!.state === 'up', 5000);
    await sleep(300);
    running_ = false;
    await stream;
    expect(failures).toBe(0);
    expect(answered).toBeGreaterThan(50);
    expect(rejoinMs).toBeLessThan(5000);
    // Requests were spread over the healthy servers.
    expect(seen.has('0') || seen.has('1')).toBe(true);
  });
});
