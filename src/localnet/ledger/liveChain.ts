/**
 * The mutable part of a running LocalChain, in one object so the modules that replace it (an
 * in-memory restore, a resume from a state file) work on it without reaching into the class:
 * the block store, the masterchain history, the account sets the next states are built from,
 * the executed but unsealed transactions, and the last block's time and logical time.
 */
import { Cell } from '@ton/core';
import { AccountsDict, emptyAccounts } from './builder';
import { accountsOfState, RestoredAccount } from './restoredAccounts';
import { ChainClock } from './clock';
import { LocalConfig } from './config';
import { MasterchainHistory } from './history';
import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from './ids';
import { LibraryIndex } from './libraries';
import { ExecutedTransaction, SandboxEngine } from './sandboxAdapter';
import { shardKey } from './sealing';
import { BlockStore, ZeroState } from './store';
import { TickTockRunner } from './tickTock';

export interface LiveChain {
  readonly engine: SandboxEngine;
  readonly tickTock: TickTockRunner;
  readonly config: LocalConfig;
  /** Basechain shards, left to right. */
  readonly shards: readonly bigint[];
  readonly clock: ChainClock;
  readonly libraryIndex: LibraryIndex;
  /** Replaced (never mutated back) when an in-memory snapshot is restored; readers take it per query. */
  store: BlockStore;
  history: MasterchainHistory;
  /** Accounts per shard chain (`shardKey`): what the next states hold. */
  accounts: Map<string, AccountsDict>;
  pending: ExecutedTransaction[];
  lastUtime: number;
  lastEndLt: bigint;
}

export function newLiveChain(parts: {
  engine: SandboxEngine;
  tickTock: TickTockRunner;
  config: LocalConfig;
  shards: readonly bigint[];
  clock: ChainClock;
  zeroStates: { masterchain: ZeroState; basechain: ZeroState };
  lastUtime: number;
}): LiveChain {
  const store = new BlockStore();
  store.setZeroState(parts.zeroStates.basechain);
  store.setZeroState(parts.zeroStates.masterchain);
  const accounts = new Map<string, AccountsDict>();
  for (const shard of parts.shards) accounts.set(shardKey(BASECHAIN, shard), emptyAccounts());
  accounts.set(shardKey(MASTERCHAIN, FULL_SHARD), emptyAccounts());
  return {
    engine: parts.engine,
    tickTock: parts.tickTock,
    config: parts.config,
    shards: parts.shards,
    clock: parts.clock,
    libraryIndex: new LibraryIndex(),
    store,
    history: new MasterchainHistory(parts.zeroStates.masterchain),
    accounts,
    pending: [],
    lastUtime: parts.lastUtime,
    lastEndLt: 0n,
  };
}

/** Loads the masterchain zerostate's accounts (the system contracts) into the emulator. */
export async function loadZeroStateAccounts(live: LiveChain): Promise<void> {
  const { dict, accounts } = accountsOfState(MASTERCHAIN, live.store.zeroState(MASTERCHAIN).state);
  live.accounts.set(shardKey(MASTERCHAIN, FULL_SHARD), dict);
  await live.engine.loadAccounts(accounts);
  await live.tickTock.load(accounts);
}

/** Loads the head states' accounts into the account sets, the tick-tock runner and the emulator. */
export async function loadHeadAccounts(live: LiveChain, libs: Cell | undefined): Promise<void> {
  const restored: RestoredAccount[] = [];
  const chainsToLoad = [{ wc: MASTERCHAIN, shard: FULL_SHARD }, ...live.shards.map((shard) => ({ wc: BASECHAIN, shard }))];
  for (const { wc, shard } of chainsToLoad) {
    const state = live.store.last(wc, shard)?.state ?? live.store.zeroState(wc).state;
    const { dict, accounts } = accountsOfState(wc, state);
    live.accounts.set(shardKey(wc, shard), dict);
    restored.push(...accounts);
  }
  await live.tickTock.load(restored);
  await live.engine.restore(restored, live.lastEndLt, libs);
  live.libraryIndex.refresh(live.engine.libs, live.config.configAddr);
  const height = live.store.height(MASTERCHAIN);
  live.engine.prevBlocks = height > 0 ? live.history.prevBlocksInfo(live.store, height) : undefined;
}
