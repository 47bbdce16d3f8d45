/** The accounts of a stored state, rebuilt for the emulator (a restored snapshot, a chain's start). */
import { Address, Cell, loadShardAccount } from '@ton/core';
import { forEachDictLeaf } from '../../cells';
import { loadDepthBalanceInfo } from '../../tlb';
import { AccountsDict, emptyAccounts } from './builder';
import { accountsOf } from './proofs';

/** An account to load back into the emulator. */
export interface RestoredAccount {
  address: Address;
  shardAccount: Cell;
  lastTxTime: number;
}

/** The accounts of a ShardStateUnsplit: the augmented dictionary and the emulator's view. */
export function accountsOfState(workchain: number, state: Cell): { dict: AccountsDict; accounts: RestoredAccount[] } {
  let dict = emptyAccounts();
  const accounts: RestoredAccount[] = [];
  forEachDictLeaf(accountsOf(state).root, 256, (key, leaf) => {
    const { balance } = loadDepthBalanceInfo(leaf);
    const shardAccount = leaf.asCell();
    dict = dict.set(key, shardAccount, balance);
    const lastPaid = loadShardAccount(shardAccount.beginParse()).account?.storageStats.lastPaid ?? 0;
    accounts.push({
      address: new Address(workchain, Buffer.from(key.toString(16).padStart(64, '0'), 'hex')),
      shardAccount,
      lastTxTime: lastPaid,
    });
  });
  return { dict, accounts };
}
