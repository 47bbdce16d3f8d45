/**
 * `npm start` runs the embedded chain in its own worker thread: a message of ~8 000 cells, which
 * the chain decodes (hundreds of ms of CPU), does not stall the API's event loop, where the same
 * message with the chain on the API's thread does; and every /localnet/ control answers through
 * the thread's message port as on the chain's own thread.
 */
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano, WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startLocalnetSource, startLocalnetThreadSource } from '../../src/localnetSource';
import { DEFAULT_LOCALNET_MNEMONIC, deriveLocalnetWallets } from '../../src/localnet/wallets';
import { startServer, type RunningServer } from '../../src/server';
import { postJson } from '../hostile/support';
import { mainThreadCpuMs, MAX_STALL_MS, withStallProbe } from '../helpers/stallProbe';

type Json = Record<string, unknown>;

/**
 * Generous on purpose: the API's own handling of a 1 MiB message (checked in its worker threads)
 * costs its loop up to ~100-200 ms on this loaded 2-core machine (the split-process suite,
 * hostile/largeBocs, measures the same), while the chain's decode on the API's thread adds
 * hundreds of ms more (650 ms measured at load 20).
 */
const STALL_BOUND_MS = 3 * MAX_STALL_MS;

// A long request deadline: on a loaded machine the chain's decode alone can take seconds.
const FLAGS = [
  '--index',
  'off',
  '--port',
  '0',
  '--metrics-port',
  '0',
  '--keyless-rps',
  '0',
  '--accounts',
  '1',
  '--block-interval',
  '0',
  '--request-timeout',
  '60000',
  '--query-timeout',
  '60000',
];

async function startStack(thread: boolean): Promise<RunningServer> {
  const { config } = loadConfig(FLAGS, {});
  const logger = pino({ level: 'silent' });
  const source = thread ? await startLocalnetThreadSource(config, logger) : await startLocalnetSource(config, logger);
  return startServer(config, logger, source);
}

async function call(server: RunningServer, method: string, path: string, body?: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** A 4-ary tree of distinct cells with about `leaves * 4/3` cells. */
function wideTree(leaves: number, leafBytes: number): Cell {
  let layer: Cell[] = Array.from({ length: leaves }, (_, i) =>
    beginCell()
      .storeUint(i, 16)
      .storeBuffer(Buffer.alloc(leafBytes, i % 251))
      .endCell(),
  );
  while (layer.length > 1) {
    const next: Cell[] = [];
    for (let i = 0; i < layer.length; i += 4)
      next.push(
        layer
          .slice(i, i + 4)
          .reduce((b, ref) => b.storeRef(ref), beginCell())
          .endCell(),
      );
    layer = next;
  }
  return layer[0];
}

/**
 * A well-formed external message of ~8 000 cells to wallet v4r2 #0 with a valid signature: within
 * the API's bounds, so the API passes it on (after its own checks in its worker threads); the
 * chain decodes it (a few hundred ms of CPU: every cell hashed) before the emulator refuses it
 * for its size (a network's limit for external messages is 64 KiB).
 */
async function largeMessage(): Promise<string> {
  const wallets = await deriveLocalnetWallets(DEFAULT_LOCALNET_MNEMONIC, 1, -239);
  const v4 = wallets.wallets[0].contract as WalletContractV4;
  const body = v4.createTransfer({
    seqno: 0,
    secretKey: wallets.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    messages: [internal({ to: new Address(0, Buffer.alloc(32, 9)), value: toNano('1'), bounce: false, body: wideTree(6000, 80) })],
  });
  return beginCell()
    .store(storeMessage(external({ to: v4.address, body })))
    .endCell()
    .toBoc()
    .toString('base64');
}

/** Sends the large message through sendBoc under a stall probe of the API's event loop. */
async function sendLarge(server: RunningServer): Promise<number> {
  // The request is built before the probe and sent raw: the probe measures the server's work.
  const json = JSON.stringify({ boc: await largeMessage() });
  const { result, stallMs } = await withStallProbe(() => postJson(`${server.url}/api/v2/sendBoc`, json));
  // Past every check of the API: the chain's own refusal, as toncenter relays it.
  expect(result.status).toBe(500);
  expect((result.body as Json)['error']).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);
  return stallMs;
}

describe('the chain in its own thread', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startStack(true);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('a large message is decoded by the chain without stalling the API', async () => {
    expect(await sendLarge(server)).toBeLessThan(STALL_BOUND_MS);
  }, 60_000);

  test('every /localnet/ control answers as on the chain thread', async () => {
    const status = (await call(server, 'GET', '/localnet/status')).body;
    expect(status).toMatchObject({ ok: true, result: { block_interval_ms: 0, max_snapshots: 16 } });
    const head = (status['result'] as { seqno: number }).seqno;

    const mined = await call(server, 'POST', '/localnet/mine');
    expect(mined).toMatchObject({ status: 200, body: { ok: true, result: { seqno: head + 1 } } });
    const info = await call(server, 'GET', '/api/v2/getMasterchainInfo');
    expect((info.body['result'] as { last: { seqno: number } }).last.seqno).toBe(head + 1);

    const snapshot = await call(server, 'POST', '/localnet/snapshot');
    expect(snapshot).toMatchObject({ status: 200, body: { ok: true, result: { id: '1', seqno: head + 1 } } });
    const to = new Address(0, Buffer.alloc(32, 7));
    const funded = await call(server, 'POST', '/localnet/fund', { address: to.toRawString(), amount: '2000000000' });
    expect(funded).toMatchObject({
      status: 200,
      body: { ok: true, result: { address: to.toRawString(), amount: '2000000000', seqno: head + 2 } },
    });
    const balance = await call(server, 'GET', `/api/v2/getAddressBalance?address=${to.toRawString()}`);
    expect(balance.body['result']).toBe('2000000000');

    const restored = await call(server, 'POST', '/localnet/restore', { id: '1' });
    expect(restored).toMatchObject({ status: 200, body: { ok: true, result: { id: '1', seqno: head + 1 } } });
    const after = await call(server, 'GET', `/api/v2/getAddressBalance?address=${to.toRawString()}`);
    expect(after.body['result']).toBe('0');

    const moved = await call(server, 'POST', '/localnet/time', { increase: 60 });
    expect(moved.status).toBe(200);
    expect((moved.body['result'] as { clock_offset: number }).clock_offset).toBeGreaterThanOrEqual(60);

    // Errors cross the thread with their status and text.
    const back = await call(server, 'POST', '/localnet/time', { set: 1 });
    expect(back.status).toBe(422);
    expect(back.body['error']).toMatch(
      /^failed to validate request: set 1 is before the chain's time \d+: the chain clock only moves forward$/,
    );
    const unknown = await call(server, 'POST', '/localnet/restore', { id: '99' });
    expect(unknown.status).toBe(404);
    expect(unknown.body['error']).toMatch(/^no snapshot with id '99' \(ids kept: /);
    const tooMuch = await call(server, 'POST', '/localnet/fund', { address: to.toRawString(), amount: '1000000000000000000' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body['error']).toBe(
      "failed to validate request: amount is above the faucet's limit of 1000000000000000 nanotons per request",
    );
    const config = await fetch(`${server.url}/localnet/global.config.json`);
    expect(((await config.json()) as { '@type': string })['@type']).toBe('config.global');
  }, 60_000);
});

/**
 * The least, over `times` sends of the same message, of the CPU the API's own thread spent on the
 * send (from the request to its answer): the stall probe's figure leaves out garbage-collector
 * pauses, and the chain's decode on the API's thread is mostly allocation, so under load its
 * stall could read as little as the threaded stack's; CPU time on the thread counts all of it.
 */
async function leastApiThreadCpu(thread: boolean, times: number): Promise<number> {
  const server = await startStack(thread);
  try {
    const spent: number[] = [];
    for (let i = 0; i < times; i++) {
      const json = JSON.stringify({ boc: await largeMessage() });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = mainThreadCpuMs();
      const result = await postJson(`${server.url}/api/v2/sendBoc`, json);
      const after = mainThreadCpuMs();
      expect((result.body as Json)['error']).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);
      if (before === null || after === null) throw new Error('no per-thread CPU figure on this system (/proc/self/task)');
      spent.push(after - before);
    }
    return Math.min(...spent);
  } finally {
    await server.stop();
  }
}

/**
 * What the chain's decode and refusal of the message cost the API's thread when the chain shares
 * it, over the API's own handling of the same send: 150-200 ms of CPU on this machine, where the
 * API's own part is tens of ms (its checks run in its worker threads). The two stacks are measured
 * at the same moment, so the machine's speed and load cancel out.
 */
const DECODE_CPU_MS = 40;

describe('the chain on the API thread (what the thread avoids)', () => {
  test("the same message costs the API's thread the chain's decode on top of the API's own work", async () => {
    const threaded = await leastApiThreadCpu(true, 2);
    const onApiThread = await leastApiThreadCpu(false, 2);
    expect(onApiThread).toBeGreaterThan(threaded + DECODE_CPU_MS);
  }, 180_000);
});
