import pino from 'pino';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { startIndex, type IndexService } from '../../src/indexer';
import { type LitePool } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { buildTestApp } from '../helpers/app';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { until } from '../helpers/waiting';
import { startLocalnetPool } from '../helpers/localnetPool';

jest.setTimeout(120_000);

/**
 * The store opens in the background (the embedded PGlite takes seconds, and `npm start` must be
 * healthy in under 3): until it is open and migrated the index reports 'starting', its reads fail
 * with the domain error `unavailable`, v3 answers 503 "the index is starting" and the healthcheck
 * (still 200: v2 does not need the index) shows the state; then it indexes and v3 answers.
 */
describe.each(INDEX_BACKENDS)('the index opening in the background (%s)', (backend) => {
  let db: TestDatabase;
  let net: Localnet;
  let pool: LitePool;
  let index: IndexService | undefined;
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    net = await startLocalnet({ accounts: 1, blockIntervalMs: 0 });
    pool = await startLocalnetPool(net, logger);
    for (let i = 0; i < 3; i++) await net.chain.seal();
  });

  afterAll(async () => {
    await index?.stop();
    pool?.close();
    await net?.stop();
    await db?.drop();
  });

  it('answers 503 "starting" until the store is open, then indexes and answers', async () => {
    const { config } = loadConfig(['--index', 'on', '--keyless-rps', '0', ...(db.url ? ['--database-url', db.url] : [])], {});
    const started = await startIndex(config, pool, logger, true, { background: true });
    index = started;
    // Right after the start returns, nothing of the open has run yet (it needs I/O).
    expect(started.opened()).toBeNull();
    const health = started.health();
    expect(health.available).toBe(false);
    expect(health.status.state).toBe('starting');
    expect(health.reason).toMatch(/the index is starting/);
    await expect(started.pool.query('select 1')).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/the index is starting/) });
    expect(() => started.store).toThrow(/still opening/);

    const { app } = buildTestApp(['--keyless-rps', '0'], { index: started, lite: pool });
    if (backend === 'pglite') {
      // PGlite's thread loads PostgreSQL's wasm for seconds: these requests are answered before.
      const v3 = await request(app).get('/api/v3/transactions?limit=5');
      expect(v3.status).toBe(503);
      expect(v3.body).toEqual({ error: 'the index is starting (its database is opening)' });
      const healthcheck = await request(app).get('/api/v2/healthcheck');
      expect(healthcheck.status).toBe(200);
      expect(healthcheck.body.result.index).toMatchObject({ available: false, state: 'starting', committed_mc_seqno: null });
      expect(started.opened()).toBeNull();
    }

    const open = await started.ready;
    expect(started.opened()).toBe(open);
    const head = net.chain.lastMasterchainBlock().id.seqno;
    await until(() => (started.health().status.committedMcSeqno ?? 0) >= head, 60_000, 'the index to reach the head');
    const v3 = await request(app).get('/api/v3/transactions?limit=5&sort=asc');
    expect(v3.status).toBe(200);
    expect(v3.body.transactions.length).toBeGreaterThan(0);
    expect(v3.body.transactions[0].mc_block_seqno).toBe(1);
    const healthcheck = await request(app).get('/api/v2/healthcheck');
    expect(healthcheck.body.result.index).toMatchObject({ available: true, writer: true, first_mc_seqno: 1, committed_mc_seqno: head, lag_blocks: 0 });
    expect(['live', 'catching_up']).toContain(healthcheck.body.result.index.state);
  });

  it('a stop while the store opens closes it when it opens', async () => {
    const { config } = loadConfig(['--index', 'on', ...(db.url ? ['--database-url', db.url] : [])], {});
    const started = await startIndex(config, pool, logger, true, { background: true });
    await started.stop();
    await expect(started.ready).rejects.toThrow(/stopped while its database opened/);
    expect(started.health()).toMatchObject({ available: false, status: { state: 'stopped' } });
  });
});
