import { TonClient } from '@ton/ton';
import { tvmPool } from '../../src/tvm';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { deployFromWallet } from '../helpers/walletActions';
import { contractInit, GAS_LOOP_CODE, getJson, postJson } from './tvmSupport';

/**
 * A short version of bench tvmflood: 4 clients loop a 4 000 000-gas get-method for 20 s. Each
 * run holds hundreds of MB in its thread (the emulator logs every VM step) until it ends or its
 * deadline terminates the thread; the process's RSS must stay bounded (a generous margin: this
 * runs on a loaded 2-core machine) and other requests keep being served.
 */

const FLOOD_MS = 20_000;
const MB = 1024 * 1024;
/** Growth allowed over the start: two threads at ~450 MB each at worst, and the test's own heap. */
const MAX_GROWTH_MB = 1000;

describe('TVM pool under a flood of 4 000 000-gas get-methods', () => {
  let stack: LocalStack;
  let loop: string;

  beforeAll(async () => {
    stack = await startLocalStack();
    await tvmPool().warmAll();
    const client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const [address] = await deployFromWallet(client, stack.localnet.wallets.keyPair, [contractInit(GAS_LOOP_CODE, 31)]);
    loop = address!.toString();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('RSS stays bounded and other requests are served', async () => {
    const start = process.memoryUsage().rss;
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 500);
    const until = Date.now() + FLOOD_MS;
    let call = 0;
    const statuses: number[] = [];
    const flood = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() < until) {
          const answer = await postJson(stack, 'runGetMethod', JSON.stringify({ address: loop, method: 'burn', stack: [['num', String(++call)]] }));
          statuses.push(answer.status);
        }
      }),
    );
    const info = await getJson(stack, 'getMasterchainInfo');
    await flood;
    clearInterval(sampler);
    expect(info.status).toBe(200);
    // Every answer is a result or a bounded refusal (deadline, busy), never a failure of ours.
    for (const status of statuses) expect([200, 503, 504]).toContain(status);
    expect((peak - start) / MB).toBeLessThan(MAX_GROWTH_MB);
  }, 120_000);
});
