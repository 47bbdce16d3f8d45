import { Address, loadShardAccount, toNano } from '@ton/core';
import { randomBytes } from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { ControlRefusedError } from '../../src/localnet/ledger/errors';
import { accountLeaf, LocalChain } from '../../src/localnet/ledger/LocalChain';
import { Faucet, TREASURY_BALANCE, treasuryGenesisAccount, treasuryOf, treasuryState } from '../../src/localnet/ledger/faucet';
import { deriveLocalnetWallets, fundLocalnetWallets } from '../../src/localnet/wallets';
import { DEFAULT_LOCALNET_MNEMONIC, startLocalnet, writeSnapshotFile } from '../../src/localnet';
import { strictLoad } from './helpers/strictTlb';

/** The genesis treasury and its faucet, on real chains (no server around them). */

function balanceAtHead(chain: LocalChain, address: Address): bigint {
  const leaf = accountLeaf(chain.accountShardTop(chain.lastMasterchainBlock(), address).state, address);
  return leaf ? (loadShardAccount(leaf).account?.storage.balance.coins ?? 0n) : 0n;
}

/** The chain's own refusal (the API maps reason `invalid` to 422 at routes/localnet.ts; e2e/localnetControls checks that). */
async function rejection(promise: Promise<unknown>): Promise<ControlRefusedError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ControlRefusedError)) throw new Error(`expected a ControlRefusedError, got ${String(err)}`);
  return err;
}

describe('the faucet', () => {
  it('refuses more than the treasury holds (invalid: 422 at the API) and serialises concurrent requests on the treasury seqno', async () => {
    const chain = await LocalChain.create({ blockIntervalMs: 0, shards: 2 });
    try {
      const treasury = treasuryOf(chain.validator.seed);
      await chain.deployGenesis([{ ...treasuryGenesisAccount(treasury), balance: toNano('5') }]);
      await chain.seal();
      const faucet = new Faucet(chain, treasury);
      expect(faucet.balance()).toBe(toNano('5'));
      const target = new Address(0, randomBytes(32));
      const tooMuch = await rejection(faucet.fund(target, toNano('4.5')));
      expect(tooMuch.reason).toBe('invalid');
      expect(tooMuch.message).toMatch(/the treasury holds 5000000000 nanotons/);
      expect(chain.lastMasterchainBlock().id.seqno).toBe(1);

      const targets = [0, 1, 2].map(() => new Address(0, randomBytes(32)));
      const results = await Promise.all(targets.map((address) => faucet.fund(address, toNano('1'))));
      for (const [i, result] of results.entries()) {
        expect(balanceAtHead(chain, targets[i]!)).toBe(toNano('1'));
        expect(result.transaction.address.equals(targets[i]!)).toBe(true);
        const stored = chain.store.findTransaction(0, targets[i]!.hash, result.transaction.lt);
        expect(stored?.hash.equals(result.transaction.hash)).toBe(true);
      }
      expect(treasuryState(chain, treasury)?.seqno).toBe(3);
      for (const top of chain.shardTopsOf(chain.lastMasterchainBlock())) strictLoad('loadBlock', top.root);
      // What is left is below 1 TON plus the fee reserve.
      expect((await rejection(faucet.fund(targets[0]!, toNano('1')))).reason).toBe('invalid');
    } finally {
      await chain.stop();
    }
  });

  it('a chain resumed from a state file saved without a treasury gets one, once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-faucet-'));
    const stateFile = path.join(dir, 'old.lnet');
    try {
      // What an older version saved: wallets, no treasury.
      const old = await LocalChain.create({ blockIntervalMs: 0 });
      const wallets = await deriveLocalnetWallets(DEFAULT_LOCALNET_MNEMONIC, 1, old.globalId);
      await fundLocalnetWallets(old, wallets.wallets);
      await old.seal();
      const treasury = treasuryOf(old.validator.seed);
      expect(treasuryState(old, treasury)).toBeNull();
      writeSnapshotFile(stateFile, { chain: await old.snapshot(), adnlSeed: randomBytes(32), mnemonic: wallets.mnemonic, accounts: 1 });
      await old.stop();

      const resumed = await startLocalnet({ stateFile, blockIntervalMs: 0 });
      const height = resumed.chain.lastMasterchainBlock().id.seqno;
      expect(height).toBe(2);
      expect(resumed.faucet.treasury.address.equals(treasury.address)).toBe(true);
      expect(resumed.faucet.balance()).toBeGreaterThan(TREASURY_BALANCE - toNano('1'));
      const target = new Address(0, randomBytes(32));
      await resumed.faucet.fund(target, toNano('7'));
      expect(balanceAtHead(resumed.chain, target)).toBe(toNano('7'));
      await resumed.stop();

      // Saved on stop with its treasury: resuming again deploys nothing.
      const again = await startLocalnet({ stateFile, blockIntervalMs: 0 });
      expect(again.chain.lastMasterchainBlock().id.seqno).toBe(height + 1);
      expect(treasuryState(again.chain, treasury)?.seqno).toBe(1);
      await again.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
