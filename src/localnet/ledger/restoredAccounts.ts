/** The accounts of a stored state, rebuilt for the emulator (a restored snapshot, a chain's start). */
import { Address, Cell, loadShardAccount } from '@ton/core';
import { PersistentDict } from '../../cells';
import { loadDepthBalanceInfo } from '../../tlb';
import { AccountsDict, emptyAccounts } from './builder';
import { accountsOf } from './proofs';

/** An account to load back into the emulator. */
export interface RestoredAccount {
  address: Address;
  shardAccount: Cell;
  lastTxTime: number;
}

/**
 * The accounts of a ShardStateUnsplit: the augmented dictionary and the emulator's view. The
 * dictionary keeps the state's own cells (`PersistentDict.fromCell`), so the first seal after a
 * restore rebuilds only the paths its transactions changed, not every account's cell.
 */
export function accountsOfState(workchain: number, state: Cell): { dict: AccountsDict; accounts: RestoredAccount[] } {
  const accounts: RestoredAccount[] = [];
  const dict = PersistentDict.fromCell(emptyAccounts().spec, accountsOf(state).root, (key, leaf) => {
    const { balance } = loadDepthBalanceInfo(leaf);
    const shardAccount = leaf.asCell();
    const lastPaid = loadShardAccount(shardAccount.beginParse()).account?.storageStats.lastPaid ?? 0;
    accounts.push({
      address: new Address(workchain, Buffer.from(key.toString(16).padStart(64, '0'), 'hex')),
      shardAccount,
      lastTxTime: lastPaid,
    });
    return { value: shardAccount, extra: balance };
  });
  return { dict, accounts };
}
