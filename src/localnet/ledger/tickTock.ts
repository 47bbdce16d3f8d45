/**
 * Tick-tock transactions of special masterchain accounts (the elector ticks, the config
 * contract tocks). As a TON node orders them, a block's ticks come before its ordinary
 * transactions and its tocks after them: the ticks run when a block starts filling (before
 * the first message executed for it, or at its seal), the tocks when it is sealed.
 */
import { Address, loadShardAccount } from '@ton/core';
import { RestoredAccount } from './restoredAccounts';
import { MASTERCHAIN } from './ids';
import { ExecutedTransaction, SandboxEngine } from './sandboxAdapter';

interface TickTockAccount {
  address: Address;
  tick: boolean;
  tock: boolean;
}

export class TickTockRunner {
  private accounts: TickTockAccount[] = [];
  /** Whether the ticks of the block being filled have run. */
  private opened = false;

  constructor(private readonly engine: SandboxEngine) {}

  /** Takes the special accounts among `accounts` (the masterchain's, at genesis or restore). */
  async load(accounts: readonly RestoredAccount[]): Promise<void> {
    this.accounts = tickTockAccounts(accounts);
    // A (re)loaded chain starts a fresh block: ticks that ran for a discarded one do not count.
    this.opened = false;
    for (const account of this.accounts) await this.engine.internAccount(account.address);
  }

  /** Runs the ticks of the block being filled, once; returns their transactions. */
  async open(): Promise<ExecutedTransaction[]> {
    if (this.opened) return [];
    this.opened = true;
    const txs: ExecutedTransaction[] = [];
    for (const account of this.accounts) {
      if (account.tick) txs.push(...(await this.engine.runTickTock(account.address, 'tick')));
    }
    return txs;
  }

  /** Runs the tocks that end the block (and its ticks if none ran); the next block starts fresh. */
  async close(): Promise<ExecutedTransaction[]> {
    const txs = await this.open();
    for (const account of this.accounts) {
      if (account.tock) txs.push(...(await this.engine.runTickTock(account.address, 'tock')));
    }
    this.opened = false;
    return txs;
  }
}

/** Active masterchain accounts whose StateInit asks for tick or tock transactions, by address. */
function tickTockAccounts(accounts: readonly RestoredAccount[]): TickTockAccount[] {
  const out: TickTockAccount[] = [];
  for (const acc of accounts) {
    if (acc.address.workChain !== MASTERCHAIN) continue;
    const state = loadShardAccount(acc.shardAccount.beginParse()).account?.storage.state;
    const special = state?.type === 'active' ? state.state.special : null;
    if (special && (special.tick || special.tock)) out.push({ address: acc.address, tick: special.tick, tock: special.tock });
  }
  return out.sort((a, b) => Buffer.compare(a.address.hash, b.address.hash));
}
