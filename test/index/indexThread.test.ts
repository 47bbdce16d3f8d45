import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { Address } from '@ton/core';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import type { IndexThreadService } from '../../src/indexer';
import { startLocalnetThreadSource } from '../../src/localnetSource';
import { startServer, type RunningServer } from '../../src/server';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { expectNoStall, leastStall } from '../helpers/stallProbe';
import { threadNice } from '../helpers/threadNice';
import { until } from '../helpers/waiting';

jest.setTimeout(300_000);

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });


/** Masterchain blocks of the saved chain the index catches up on (each with a faucet transfer). */
const SAVED_BLOCKS = 240;
/** Blocks the index must commit while one stall probe runs. */
const BLOCKS_PER_PROBE = 40;

/**
 * The index pipeline of `startServer` runs in a worker thread of its own: a catch-up of many
 * blocks leaves the API's event loop free, and the thread failing leaves v2 answering while v3
 * answers 503 with the reason, until the thread is back.
 */
describe('the index thread', () => {
  describe('a catch-up', () => {
    let dir: string;
    let db: TestDatabase;
    let server: RunningServer | undefined;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'indexthread-'));
      db = await createTestDatabase('postgres');
    });

    afterAll(async () => {
      await server?.stop();
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('commits blocks in the index thread while the API event loop stays free', async () => {
      const stateFile = path.join(dir, 'chain.state');
      const chainFlags = ['--log-level', process.env['TEST_LOG_LEVEL'] ?? 'silent', '--state-file', stateFile, '--block-interval', '3600000', '--keep-blocks', '100000000', '--accounts', '2', '--save-interval', '0'];
      // The chain first, with no index: SAVED_BLOCKS blocks of a transfer each, saved.
      const fill = loadConfig([...chainFlags, '--port', '0', '--localnet-port', '0'], {}).config;
      const filling = await startLocalnetThreadSource(fill, logger);
      for (let i = 0; i < SAVED_BLOCKS; i++) {
        await filling.controls!.fund(new Address(0, Buffer.alloc(32, (i % 250) + 1)), 1_000_000n);
        await filling.controls!.mine();
      }
      await filling.stop();

      // Now the API with the index, which starts from genesis: a catch-up of every saved block.
      const { config } = loadConfig(
        [...chainFlags, '--port', '0', '--localnet-port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--index', 'on', '--database-url', db.url!],
        {},
      );
      const source = await startLocalnetThreadSource(config, logger);
      server = await startServer(config, logger, source);
      const index = server.services.index! as IndexThreadService;
      expect(index.threadId).not.toBeNull();
      const committed = () => index.health().status.committedMcSeqno ?? 0;
      // What reaches this thread of each commit: every block's rows once, in order, but the
      // notices batched (at most one per 100 ms), not a message per block to wake this loop.
      const rowsSeen: number[] = [];
      const commitNotices: number[] = [];
      index.onBlock((block) => rowsSeen.push(block.mcSeqno));
      index.onCommit((seqno) => commitNotices.push(seqno));
      let probes = 0;
      const mainBefore = performance.eventLoopUtilization();
      const threadBefore = index.threadLoop()!;
      const outcome = await leastStall(async () => {
        const from = committed();
        await until(() => committed() >= from + BLOCKS_PER_PROBE, 120_000, `the index commits ${BLOCKS_PER_PROBE} blocks`);
        probes++;
        return committed() - from;
      });
      // Each probe saw the index at work (whole blocks committed), and the loop never waited long on it.
      expect(outcome.result).toBeGreaterThanOrEqual(BLOCKS_PER_PROBE);
      expect(probes).toBeGreaterThanOrEqual(1);
      expectNoStall(outcome);
      // Catching up, the thread runs at the lower priority (threadPriority.ts), as the kernel says.
      const linux = process.platform === 'linux';
      expect(index.priority).toMatchObject({ nice: 10, reason: 'catching_up' });
      if (linux) expect(threadNice(index.priority!.tid!)).toBe(10);
      // The work was the index thread's: its event loop was busier than the API's over the probes.
      const mainLoop = performance.eventLoopUtilization(mainBefore);
      const threadLoop = index.threadLoop(threadBefore)!;
      expect(threadLoop.active).toBeGreaterThan(mainLoop.active);
      // The work counted in the thread: its metrics, not this thread's registry.
      const batches = (await index.metrics()).find((m) => m.name === 'ton_bridge_index_batches_total')!;
      expect(batches.values[0]!.value).toBeGreaterThan(0);
      // No request came in so far: the catch-up overlapped its stages, it never yielded.
      const yielded = async () => (await index.metrics()).find((m) => m.name === 'ton_bridge_index_yielded_batches_total')?.values[0]?.value ?? -1;
      expect(await yielded()).toBe(0);
      // Requests now, one after another: the server counts them for the thread, whose catch-up yields (one stage at a time).
      expect(committed()).toBeLessThan(SAVED_BLOCKS - 20);
      const asking = Date.now();
      while (Date.now() - asking < 1500 && committed() < SAVED_BLOCKS - 10) {
        const res = await fetch(`${server.url}/api/v2/getMasterchainInfo`);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      expect(await yielded()).toBeGreaterThan(0);
      await until(() => committed() >= SAVED_BLOCKS, 240_000, 'the catch-up ends');
      // At the head it goes back to the process's priority (this test's: 0 unless run niced), where
      // the system lets a thread raise its priority (root, CAP_SYS_NICE); else it says it cannot.
      const own = getPriority();
      await until(() => index.priority?.reason !== 'catching_up', 10_000, 'the thread leaves its catch-up priority');
      if (index.priority!.reason === 'at_head') {
        expect(index.priority!.nice).toBe(own);
        if (linux) expect(threadNice(index.priority!.tid!)).toBe(own);
      } else {
        expect(index.priority).toMatchObject({ nice: 10, reason: 'cannot_raise' });
        expect(process.getuid?.()).not.toBe(0);
      }
      const niceGauge = (await index.metrics()).find((m) => m.name === 'ton_bridge_index_thread_nice')!;
      expect(niceGauge.values[0]!.value).toBe(index.priority!.nice);
      await until(() => rowsSeen.at(-1) === committed(), 10_000, 'the last rows reach the API thread');
      // From the first block whose rows were asked for (the listener's message crossed meanwhile), each block once, in order.
      const first = rowsSeen[0]!;
      expect(rowsSeen).toEqual(Array.from({ length: rowsSeen.length }, (_, i) => first + i));
      expect(commitNotices.at(-1)).toBe(committed());
      const seen = commitNotices.filter((seqno) => seqno >= first);
      expect(seen.length).toBeLessThan(rowsSeen.length / 3);
    });
  });

  it('a database that cannot be opened is a start error, as without the thread', async () => {
    // Nothing listens on port 1: the thread's store cannot connect, and the start says why.
    await expect(startLocalStack(['--index', 'on', '--database-url', 'postgres://postgres@127.0.0.1:1/none'])).rejects.toMatchObject({
      name: 'IndexStoreError',
      message: expect.stringMatching(/cannot connect to the index database/),
    });
  });

  describe('a crash of the thread (PGlite)', () => {
    let stack: LocalStack;

    beforeAll(async () => {
      stack = await startLocalStack(['--block-interval', '500', '--index', 'on']);
    });

    afterAll(async () => {
      await stack?.stop();
    });

    it('leaves v2 answering and v3 answering 503 with the reason, and the index comes back', async () => {
      const index = stack.server.services.index! as IndexThreadService;
      await until(() => index.health().available && (index.health().status.committedMcSeqno ?? 0) > 1, 120_000, 'the index is live');
      const v3 = () => fetch(`${stack.url}/api/v3/blocks?workchain=-1&limit=1`);
      expect((await v3()).status).toBe(200);
      const firstThread = index.threadId;
      // In memory: the socket's directory and the scratch data directory, both in the temporary directory.
      const firstFiles = [...index.temporaryPaths];
      expect(firstFiles).toHaveLength(2);
      for (const file of firstFiles) expect(existsSync(file)).toBe(true);

      index.crashThread();
      await until(() => !index.health().available, 30_000, 'the index reports the failure');
      // The dead thread never closed its PGlite: what it left in the temporary directory is removed.
      for (const file of firstFiles) expect(existsSync(file)).toBe(false);
      const down = await v3();
      expect(down.status).toBe(503);
      expect(JSON.stringify(await down.json())).toMatch(/index thread failed/);
      const v2 = await fetch(`${stack.api}/getMasterchainInfo`);
      expect(v2.status).toBe(200);

      // Started again (after 1 s), its database reopened, it indexes on.
      await until(() => index.health().available, 120_000, 'the index is back');
      expect(index.threadId).not.toBeNull();
      expect(index.threadId).not.toBe(firstThread);
      const back = index.health().status.committedMcSeqno ?? 0;
      await until(() => (index.health().status.committedMcSeqno ?? 0) > back, 60_000, 'the index commits again');
      expect((await v3()).status).toBe(200);
    });
  });
});
