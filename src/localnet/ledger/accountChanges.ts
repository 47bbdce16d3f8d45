/** After a round's transactions: each touched account's exact cell goes into its shard's account set. */
import { Address } from '@ton/core';
import { AccountsDict, shardAccountBalance } from './builder';
import { FULL_SHARD, MASTERCHAIN } from './ids';
import { SandboxEngine } from './sandboxAdapter';
import { shardKey, shardOfAccount } from './sealing';

/** Updates `accounts` (per shard chain, `shardKey`) in place; an account without balance leaves it. */
export async function applyAccountChanges(
  engine: SandboxEngine,
  shards: readonly bigint[],
  accounts: Map<string, AccountsDict>,
  txs: readonly { workchain: number; address: Buffer }[],
): Promise<void> {
  const touched = new Map<string, { workchain: number; address: Buffer }>();
  for (const tx of txs) touched.set(`${tx.workchain}:${tx.address.toString('hex')}`, tx);
  for (const { workchain, address } of touched.values()) {
    const chainKey = workchain === MASTERCHAIN ? shardKey(MASTERCHAIN, FULL_SHARD) : shardKey(workchain, shardOfAccount(shards, address));
    const dict = accounts.get(chainKey);
    if (!dict) throw new Error(`transactions in unsupported workchain ${workchain}`);
    const cell = await engine.shardAccountCell(new Address(workchain, address));
    const balance = shardAccountBalance(cell);
    const key = BigInt('0x' + address.toString('hex'));
    accounts.set(chainKey, balance ? dict.set(key, cell, balance) : dict.delete(key));
  }
}
