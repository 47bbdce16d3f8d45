import { beginCell, Cell, loadAccount, storeAccount } from '@ton/core';
import { AdnlClientConnection } from '../../src/liteclient/connection';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { decodeLiteAnswer, encodeLiteServerQuery, type LiteAnswerMap } from '../../src/tl';
import { TamperingLiteServer } from '../helpers/tamperingLiteServer';

/** The harness itself: same key as the chain, honest relay by default, per-kind rewrites. */
describe('TamperingLiteServer', () => {
  const seed = Buffer.alloc(32, 0x5a);
  let localnet: Localnet;
  let liar: TamperingLiteServer;
  let client: AdnlClientConnection;

  beforeAll(async () => {
    localnet = await startLocalnet({ seed, accounts: 1, blockIntervalMs: 0 });
    liar = new TamperingLiteServer(localnet, seed);
    await liar.start();
    client = await AdnlClientConnection.connect({ host: '127.0.0.1', port: liar.port, publicKey: localnet.publicKey }, 5000);
  }, 60_000);

  afterAll(async () => {
    client?.destroy();
    await liar?.stop();
    await localnet?.stop();
  });

  async function accountState(): Promise<LiteAnswerMap['liteServer.getAccountState']> {
    const info = decodeLiteAnswer(
      'liteServer.getMasterchainInfo',
      await client.query(encodeLiteServerQuery({ kind: 'liteServer.getMasterchainInfo' }), 5000),
    );
    const wallet = localnet.wallets.wallets[0].address;
    const query = encodeLiteServerQuery({
      kind: 'liteServer.getAccountState',
      id: info.last,
      account: { kind: 'liteServer.accountId', workchain: wallet.workChain, id: wallet.hash },
    });
    return decodeLiteAnswer('liteServer.getAccountState', await client.query(query, 5000));
  }

  function balanceOf(state: Buffer): bigint {
    const slice = Cell.fromBoc(state)[0].beginParse();
    expect(slice.loadBit()).toBe(true);
    return loadAccount(slice).storage.balance.coins;
  }

  it('proves the local chain key and relays answers unchanged', async () => {
    expect(liar.publicKey.equals(localnet.publicKey)).toBe(true);
    const state = await accountState();
    expect(balanceOf(state.state)).toBeGreaterThan(0n);
    expect(liar.calls).toContain('liteServer.getAccountState');
    expect(liar.tampered).toBe(0);
  });

  it('rewrites the decoded answer of one query kind', async () => {
    const honest = balanceOf((await accountState()).state);
    liar.tamper('liteServer.getAccountState', (answer) => {
      const slice = Cell.fromBoc(answer.state)[0].beginParse();
      slice.loadBit();
      const account = loadAccount(slice);
      account.storage.balance.coins += 1_000_000_000n;
      const forged = beginCell().storeBit(1).store(storeAccount(account)).endCell();
      return { ...answer, state: forged.toBoc() };
    });
    expect(balanceOf((await accountState()).state)).toBe(honest + 1_000_000_000n);
    expect(liar.tampered).toBe(1);
    liar.honest();
    expect(balanceOf((await accountState()).state)).toBe(honest);
  });
});
