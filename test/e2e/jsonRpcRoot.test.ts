import { toNano } from '@ton/core';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import TonWeb from 'tonweb';
import { startLocalStack, type LocalStack } from '../helpers/localStack';

/**
 * TonClient posts its JSON-RPC to `endpoint` exactly as given, and blueprint proposes
 * `http://localhost:8081/`: pointed at the server root or at `/api/v2`, unmodified clients work.
 */
describe('JSON-RPC at the root and at /api/v2', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startLocalStack();
  }, 60000);

  afterAll(async () => {
    await stack?.stop();
  });

  test.each(['/', '/api/v2', '/api/v2/'])(
    'TonClient with endpoint http://127.0.0.1:PORT%s reads, runs get-methods and sends',
    async (suffix) => {
      const client = new TonClient({ endpoint: `${stack.url}${suffix}` });
      const { keyPair, wallets } = stack.localnet.wallets;
      const info = await client.getMasterchainInfo();
      expect(info.workchain).toBe(-1);
      expect(info.latestSeqno).toBeGreaterThan(0);
      const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey }));
      expect(await client.getBalance(wallet.address)).toBeGreaterThan(0n);
      const seqno = await wallet.getSeqno();
      await wallet.sendTransfer({
        seqno,
        secretKey: keyPair.secretKey,
        messages: [internal({ to: wallets[1].address, value: toNano('0.01'), body: `via ${suffix}` })],
      });
      let now = seqno;
      for (let i = 0; i < 100 && now === seqno; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await wallet.getSeqno();
      }
      expect(now).toBe(seqno + 1);
      const [latest] = await client.getTransactions(wallet.address, { limit: 1 });
      const out = latest.outMessages.get(0);
      expect(out?.body.beginParse().skip(32).loadStringTail()).toBe(`via ${suffix}`);
    },
  );

  test('tonweb HttpProvider pointed at the root', async () => {
    const provider = new TonWeb.HttpProvider(`${stack.url}/`);
    const address = stack.localnet.wallets.wallets[0].address.toString();
    const balance = (await provider.getBalance(address)) as string;
    expect(BigInt(balance)).toBeGreaterThan(0n);
  });
});
