import { withBalanceRaised, mcLookup } from './forgeries';
import { startTamperedStack, type TamperedStack } from '../helpers/tamperingLiteServer';

/**
 * Issue 13, account state: a lite server that forges the account cell or proves it with another
 * block's proof is caught. Alone it gets a 502 LITE_SERVER_PROOF and is marked bad; beside an
 * honest server the request is answered from that one with the true balance.
 */

async function get(stack: TamperedStack, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.api}/${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function liarStatus(stack: TamperedStack): Promise<{ state: string; reason: string | null }> {
  const res = await fetch(`${stack.api}/healthcheck`);
  const body = (await res.json()) as { result: { liteservers: { index: number; state: string; reason: string | null }[] } };
  return body.result.liteservers.find((server) => server.index === 0)!;
}

const FORGERIES: { name: string; apply(stack: TamperedStack): void }[] = [
  {
    name: 'a changed balance in the account cell',
    apply: (stack) =>
      stack.liar.tamper('liteServer.getAccountState', (answer) => ({ ...answer, state: withBalanceRaised(answer.state, 10n ** 12n) })),
  },
  {
    name: 'a proof of another block',
    apply: (stack) =>
      stack.liar.tamper('liteServer.getAccountState', async (answer, query) => {
        const older = await stack.liar.upstreamQuery(mcLookup(query.id.seqno - 1));
        const other = await stack.liar.upstreamQuery({ ...query, id: older.id });
        return { ...answer, shardblk: other.shardblk, shardProof: other.shardProof, proof: other.proof };
      }),
  },
];

describe.each(FORGERIES)('account state with $name', ({ apply }) => {
  describe('from the only lite server', () => {
    let stack: TamperedStack;
    beforeAll(async () => {
      stack = await startTamperedStack({ honest: false });
      await stack.seal(2);
    }, 60_000);
    afterAll(() => stack?.stop());

    it('is a 502 LITE_SERVER_PROOF, never the forged data, and the server is marked bad', async () => {
      const address = stack.localnet.wallets.wallets[0].address.toString();
      apply(stack);
      const { status, body } = await get(stack, `getAddressInformation?address=${address}`);
      expect(stack.liar.tamperErrors).toEqual([]);
      expect(stack.liar.tampered).toBeGreaterThan(0);
      expect(status).toBe(502);
      expect(body['ok']).toBe(false);
      expect(String(body['error'])).toMatch(/^LITE_SERVER_PROOF: /);
      const liar = await liarStatus(stack);
      expect(liar.state).toBe('down');
      expect(liar.reason).toMatch(/^bad proof: /);
    });
  });

  describe('beside an honest server', () => {
    let stack: TamperedStack;
    beforeAll(async () => {
      stack = await startTamperedStack({ honest: true });
      await stack.seal(2);
    }, 60_000);
    afterAll(() => stack?.stop());

    it('answers the true balance from the honest server', async () => {
      const wallet = stack.localnet.wallets.wallets[0].address;
      const before = await get(stack, `getAddressBalance?address=${wallet.toString()}`);
      expect(before.status).toBe(200);
      apply(stack);
      // The pool picks at random: ask until the liar has been asked (and caught) at least once.
      for (let i = 0; i < 30 && stack.liar.tampered === 0; i++) {
        const { status, body } = await get(stack, `getAddressBalance?address=${wallet.toString()}`);
        expect(status).toBe(200);
        expect(body['result']).toBe(before.body['result']);
      }
      expect(stack.liar.tamperErrors).toEqual([]);
      expect(stack.liar.tampered).toBeGreaterThan(0);
      expect((await liarStatus(stack)).reason).toMatch(/^bad proof: /);
      const after = await get(stack, `getAddressBalance?address=${wallet.toString()}`);
      expect(after.body['result']).toBe(before.body['result']);
    });
  });
});
