import { startTamperedStack, type TamperedStack } from '../helpers/tamperingLiteServer';
import { describeForgery, getJson } from './forgeryCase';
import { mcLookup, withBalanceRaised } from './forgeries';

/** Issue 13, account state: the account cell and its proofs are checked against the block. */

const walletPath = (what: string) => (stack: { localnet: { wallets: { wallets: { address: { toString(): string } }[] } } }) =>
  `${what}?address=${stack.localnet.wallets.wallets[0].address.toString()}`;

describeForgery({
  name: 'account state with a changed balance in the account cell',
  path: walletPath('getAddressInformation'),
  apply: (stack) =>
    stack.liar.tamper('liteServer.getAccountState', (answer) => ({ ...answer, state: withBalanceRaised(answer.state, 10n ** 12n) })),
});

describeForgery({
  name: 'account state proven with a proof of another block',
  prepare: async (stack) => {
    await stack.localnet.chain.seal();
    await stack.localnet.chain.seal();
  },
  path: walletPath('getAddressBalance'),
  apply: (stack) =>
    stack.liar.tamper('liteServer.getAccountState', async (answer, query) => {
      const older = await stack.liar.upstreamQuery(mcLookup(query.id.seqno - 1));
      const other = await stack.liar.upstreamQuery({ ...query, id: older.id });
      return { ...answer, shardblk: other.shardblk, shardProof: other.shardProof, proof: other.proof };
    }),
});

describe('--trust-liteservers', () => {
  let stack: TamperedStack;
  beforeAll(async () => {
    stack = await startTamperedStack({ honest: false, flags: ['--trust-liteservers'] });
  }, 60_000);
  afterAll(() => stack?.stop());

  it('skips the checks: what the only lite server says is served, forged or not', async () => {
    const path = `getAddressBalance?address=${stack.localnet.wallets.wallets[0].address.toString()}`;
    const honest = await getJson(stack, path);
    stack.liar.tamper('liteServer.getAccountState', (answer) => ({ ...answer, state: withBalanceRaised(answer.state, 10n ** 12n) }));
    const forged = await getJson(stack, path);
    expect(forged.status).toBe(200);
    expect(BigInt(forged.body['result'] as string)).toBe(BigInt(honest.body['result'] as string) + 10n ** 12n);
  });
});
