import { Cell, internal, loadTransaction, SendMode, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { startConnectedLocalnet } from './helpers/liteClient';
import { strictLoad } from './helpers/strictTlb';

describe('localnet snapshots (stateFile)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-state-'));
  const stateFile = path.join(dir, 'chain.lnet');

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes the same chain: keys, blocks, accounts, histories, and keeps producing blocks', async () => {
    const first = await startConnectedLocalnet({ accounts: 1, stateFile });
    const v4 = first.net.wallets.wallets[0].contract as WalletContractV4;
    const recipient = first.net.wallets.wallets[1].address;
    await first.client.open(v4).sendTransfer({
      seqno: 0,
      secretKey: first.net.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: recipient, value: toNano('5'), bounce: false })],
    });
    const before = await first.client.getMasterchainInfo();
    const balanceBefore = (await first.client.getAccountState(v4.address, before.last)).balance.coins;
    const publicKey = first.net.publicKey;
    const config = first.net.globalConfigJson;
    await first.close();
    expect(fs.existsSync(stateFile)).toBe(true);

    const second = await startConnectedLocalnet({ stateFile });
    try {
      expect(second.net.publicKey.equals(publicKey)).toBe(true);
      expect(JSON.parse(second.net.globalConfigJson).validator).toEqual(JSON.parse(config).validator);
      const info = await second.client.getMasterchainInfo();
      expect(info.last.seqno).toBe(before.last.seqno);
      expect(info.last.rootHash.equals(before.last.rootHash)).toBe(true);
      expect(info.last.fileHash.equals(before.last.fileHash)).toBe(true);
      const state = await second.client.getAccountState(v4.address, info.last);
      expect(state.balance.coins).toBe(balanceBefore);
      const wallet = second.client.open(v4);
      expect(await wallet.getSeqno()).toBe(1);
      const history = await second.client.getAccountTransactions(
        v4.address,
        state.lastTx!.lt.toString(),
        Buffer.from(state.lastTx!.hash.toString(16).padStart(64, '0'), 'hex'),
        16,
      );
      expect(Cell.fromBoc(history.transactions)).toHaveLength(2);

      // Execution resumes on the restored accounts, and new blocks extend the old chain.
      await wallet.sendTransfer({
        seqno: 1,
        secretKey: second.net.wallets.keyPair.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: recipient, value: toNano('1'), bounce: false })],
      });
      expect(await wallet.getSeqno()).toBe(2);
      const chain = second.net.chain;
      const last = chain.lastMasterchainBlock();
      expect(last.id.seqno).toBe(before.last.seqno + 1);
      const prev = chain.store.bySeqno(MASTERCHAIN, before.last.seqno)!;
      expect(last.startLt).toBe(prev.endLt);
      const top = chain.accountShardTop(last, v4.address);
      const tx = loadTransaction(top.transactions.find((t) => t.address.equals(v4.address.hash))!.cell.beginParse());
      expect(tx.prevTransactionLt).toBe(state.lastTx!.lt);
      strictLoad('loadBlock', last.root);
      strictLoad('loadShardState', top.state);
      const proof = await second.client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 1 });
      expect(proof.id.seqno).toBe(1);
    } finally {
      await second.close();
    }
  });
});
