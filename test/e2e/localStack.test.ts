import { startLocalStack, type LocalStack } from '../helpers/localStack';

describe('npm start wiring: API -> pool -> ADNL/TCP -> local chain', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startLocalStack();
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test('getMasterchainInfo reports the chain head the lite server has', async () => {
    const res = await fetch(`${stack.api}/getMasterchainInfo`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { last: { seqno: number; root_hash: string }; init: { shard: string; seqno: number } } };
    const head = stack.localnet.chain.lastMasterchainBlock();
    expect(body.result.last.seqno).toBeGreaterThanOrEqual(1);
    expect(body.result.last.seqno).toBeLessThanOrEqual(head.id.seqno);
    expect(body.result.init).toMatchObject({ shard: '0', seqno: 0 });
  });

  test('the pool talks to the chain over TCP (the lite server sees a connection)', () => {
    expect(stack.localnet.server.connectionCount).toBeGreaterThanOrEqual(1);
  });
});
