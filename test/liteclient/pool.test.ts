import pino from 'pino';
import { LiteServerError, LiteServerTimeoutError, NoHealthyLiteServerError } from '../../src/errors';
import { LitePool, type PoolOptions } from '../../src/liteclient/pool';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';
import { withLiteClient } from '../helpers/sessionClient';
import { until } from '../helpers/waiting';

const logger = pino({ level: 'silent' });

const FAST: PoolOptions = {
  healthIntervalMs: 100,
  healthTimeoutMs: 300,
  maxLagBlocks: 3,
  engine: { queryTimeoutMs: 1000, connectTimeoutMs: 3000, keepaliveMs: 5000, reconnectMinMs: 50, reconnectMaxMs: 400 },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


describe('lite-server pool', () => {
  const servers: ScriptedLiteServer[] = [];
  const pools: LitePool[] = [];

  async function startServers(...names: string[]): Promise<ScriptedLiteServer[]> {
    const started = names.map((name) => new ScriptedLiteServer(name));
    for (const server of started) await server.start();
    servers.push(...started);
    return started;
  }

  function pool(endpoints: ConstructorParameters<typeof LitePool>[0], options = FAST): LitePool {
    const created = new LitePool(endpoints, logger, options);
    pools.push(created);
    return created;
  }

  /**
   * Waits until every server of `lite` is up. The first probe also connects and shakes hands; a
   * cold process on a busy machine can miss its 300 ms several times (the probes retry every
   * 100 ms): the start is not what these tests measure, what follows it is.
   */
  async function allUp(lite: LitePool): Promise<void> {
    await until(() => lite.status().every((s) => s.state === 'up'), 20_000, `every server up (${JSON.stringify(lite.status().map((s) => s.lastError))})`);
  }

  afterEach(async () => {
    for (const created of pools.splice(0)) created.close();
    for (const server of servers.splice(0)) await server.stop();
  });

  test('a steady stream survives a server being killed and restarted; it rejoins within 5 s', async () => {
    const [a, b, c] = await startServers('a', 'b', 'c');
    const lite = pool([a!.endpoint(), b!.endpoint(), c!.endpoint()]);
    await lite.start();
    await allUp(lite);

    let failures = 0;
    let done = 0;
    let running = true;
    const stream = (async () => {
      while (running) {
        const session = lite.openSession({}, Date.now() + 3000);
        try {
          const info = await withLiteClient(session, (client) => client.getMasterchainInfo());
          expect(info.last.seqno).toBe(100);
          done++;
        } catch {
          failures++;
        }
        await sleep(5);
      }
    })();

    await sleep(200);
    await b!.stop();
    await until(() => lite.status()[1]!.state === 'down', 10_000);
    const duringOutage = done;
    await sleep(300);
    expect(done).toBeGreaterThan(duringOutage);
    await b!.start(b!.port);
    const rejoinMs = await until(() => lite.status()[1]!.state === 'up', 5000);
    expect(rejoinMs).toBeLessThan(5000);
    await sleep(200);
    running = false;
    await stream;
    expect(failures).toBe(0);
    expect(done).toBeGreaterThan(20);
  });

  test('a server that accepts but never answers gives 504 within the deadline and is taken out', async () => {
    const [mute] = await startServers('m');
    const lite = pool([mute!.endpoint()]);
    await lite.start();
    await allUp(lite);
    mute!.silent = true;
    const started = Date.now();
    const session = lite.openSession({}, Date.now() + 1500);
    await expect(withLiteClient(session, (client) => client.getCurrentTime())).rejects.toBeInstanceOf(LiteServerTimeoutError);
    // Ended by the 1.5 s deadline, not a hang (the bound leaves room for a loaded machine).
    expect(Date.now() - started).toBeLessThan(4500);
    await until(() => lite.status()[0]!.state === 'down', 10_000);
    expect(lite.hasHealthy()).toBe(false);
  });

  test('with a healthy peer, a mute server costs one retry, not a failure', async () => {
    const [mute, good] = await startServers('m', 'g');
    const lite = pool([mute!.endpoint(), good!.endpoint()], { ...FAST, engine: { ...FAST.engine, queryTimeoutMs: 300 } });
    await lite.start();
    await allUp(lite);
    mute!.silent = true;
    for (let i = 0; i < 10; i++) {
      const session = lite.openSession({}, Date.now() + 3000);
      // The per-attempt timeout comes from the caller: ton-lite-client passes none for getTime.
      await expect(withLiteClient(session, (client) => client.getCurrentTime())).resolves.toBe(1700000000);
    }
  });

  test('a server behind by more than the allowed lag is excluded', async () => {
    const [ahead, behind] = await startServers('x', 'y');
    behind!.seqno = 90;
    const lite = pool([ahead!.endpoint(), behind!.endpoint()]);
    await lite.start();
    // As above: wait out a cold first handshake, then the verdict must be exactly this.
    await until(() => lite.status().every((s) => s.state !== 'down' && s.state !== 'starting'), 20_000);
    expect(lite.status().map((s) => [s.state, s.lag])).toEqual([
      ['up', 0],
      ['lagging', 10],
    ]);
    behind!.calls.length = 0;
    for (let i = 0; i < 30; i++) {
      const info = await withLiteClient(lite.openSession({}, Date.now() + 2000), (client) => client.getMasterchainInfo());
      expect(info.last.seqno).toBe(100);
    }
    expect(behind!.calls.filter((call) => call !== 'getMasterchainInfo')).toEqual([]);
    expect(lite.consensusSeqno()).toBe(100);
    behind!.seqno = 99;
    await until(() => lite.status()[1]!.state === 'up', 10_000);
  });

  test('archival=true goes to archival servers only; 651 on a non-archival server is retried on an archival one', async () => {
    const [recent, archive] = await startServers('r', 'h');
    recent!.oldestSeqno = 95;
    const lite = pool([recent!.endpoint(), archive!.endpoint({ archival: true })]);
    await lite.start();
    await allUp(lite);
    for (let i = 0; i < 10; i++) {
      const session = lite.openSession({ archival: true }, Date.now() + 2000);
      await withLiteClient(session, (client) => client.getMasterchainInfo());
      expect(session.usedServers).toEqual([1]);
    }
    recent!.calls.length = 0;
    archive!.calls.length = 0;
    for (let i = 0; i < 10; i++) {
      const session = lite.openSession({}, Date.now() + 2000);
      const header = await withLiteClient(session, (client) =>
        client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 3 }),
      );
      expect(header.id.seqno).toBe(3);
    }
    expect(archive!.calls.filter((call) => call === 'lookupBlock:3')).toHaveLength(10);
    // archival=false: non-archival only, so the old block is simply not found there.
    const session = lite.openSession({ archival: false }, Date.now() + 2000);
    await expect(
      withLiteClient(session, (client) => client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 3 })),
    ).rejects.toMatchObject({
      liteCode: 651,
    });
  });

  test('lite-server errors are never retried and keep their code', async () => {
    const [a, b] = await startServers('p', 'q');
    const lite = pool([a!.endpoint({ archival: true }), b!.endpoint({ archival: true })]);
    await lite.start();
    await allUp(lite);
    a!.calls.length = 0;
    b!.calls.length = 0;
    const error = await withLiteClient(lite.openSession({}, Date.now() + 2000), (client) =>
      client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 5000 }),
    ).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LiteServerError);
    expect((error as LiteServerError).liteCode).toBe(651);
    expect((error as LiteServerError).message).toBe('LITE_SERVER_NOTREADY: block not found (code 651)');
    expect([...a!.calls, ...b!.calls].filter((call) => call.startsWith('lookupBlock'))).toHaveLength(1);
  });

  test('a session is sticky to one server', async () => {
    const [a, b, c] = await startServers('s', 't', 'u');
    const lite = pool([a!.endpoint(), b!.endpoint(), c!.endpoint()]);
    await lite.start();
    await allUp(lite);
    for (let i = 0; i < 10; i++) {
      const session = lite.openSession({}, Date.now() + 2000);
      await withLiteClient(session, async (client) => {
        await client.getMasterchainInfo();
        await client.getCurrentTime();
        await client.getMasterchainInfo();
      });
      expect(session.usedServers).toHaveLength(1);
    }
  });

  test('no crash and a clear 503 when every server refuses connections; it joins once it appears', async () => {
    const [late] = await startServers('l');
    const port = late!.port;
    const endpoint = late!.endpoint();
    await late!.stop();
    const lite = pool([endpoint]);
    await lite.start();
    expect(lite.status()[0]!.state).toBe('down');
    const error = await withLiteClient(lite.openSession({}, Date.now() + 300), (client) => client.getCurrentTime()).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(NoHealthyLiteServerError);
    expect((error as Error).message).toMatch(/^no healthy lite server: #0 down \(/);
    await late!.start(port);
    await until(() => lite.hasHealthy(), 5000);
    await expect(withLiteClient(lite.openSession({}, Date.now() + 2000), (client) => client.getCurrentTime())).resolves.toBe(1700000000);
  });
});
