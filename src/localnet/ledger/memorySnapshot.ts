/**
 * In-memory snapshots of a running chain (`POST /localnet/snapshot` and `/localnet/restore`).
 * Sealed blocks are immutable and states are persistent cell trees, so a snapshot is only
 * references: the stored blocks of every shard chain at that moment, the masterchain history,
 * the libraries and the clock. Restoring rebuilds the block store from them (the chain goes back
 * to the snapshot's head; later blocks are forgotten) and reloads the emulator's accounts from
 * the head states, the way a chain resumed from a state file is loaded.
 */
import { Cell } from '@ton/core';
import { MasterchainHistory } from './history';
import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from './ids';
import { loadHeadAccounts, LiveChain } from './liveChain';
import { BlockStore, StoredBlock, ZeroState } from './store';

export interface ChainState {
  readonly masterchain: readonly StoredBlock[];
  /** Each basechain shard's blocks, shards left to right. */
  readonly basechain: readonly { readonly shard: bigint; readonly blocks: readonly StoredBlock[] }[];
  readonly history: MasterchainHistory;
  readonly lastUtime: number;
  readonly lastEndLt: bigint;
  readonly libs: Cell | undefined;
  /** The clock's offset: time travel after the snapshot is undone by a restore. */
  readonly clockOffset: number;
}

/** The blocks of a state, as the store holds them now (copies of the lists, the blocks shared). */
export function capturedBlocks(store: BlockStore, shards: readonly bigint[]): Pick<ChainState, 'masterchain' | 'basechain'> {
  return {
    masterchain: [...store.blocks(MASTERCHAIN, FULL_SHARD)],
    basechain: shards.map((shard) => ({ shard, blocks: [...store.blocks(BASECHAIN, shard)] })),
  };
}

/** A block store holding exactly the state's blocks, indexes included, round by round. */
export function storeOfState(zeroStates: { masterchain: ZeroState; basechain: ZeroState }, state: ChainState): BlockStore {
  const store = new BlockStore();
  store.setZeroState(zeroStates.basechain);
  store.setZeroState(zeroStates.masterchain);
  state.masterchain.forEach((mc, i) => {
    for (const chain of state.basechain) {
      const block = chain.blocks[i];
      if (!block) throw new Error('snapshot shard chains are shorter than the masterchain');
      store.add(block);
    }
    store.add(mc);
  });
  return store;
}

/** The chain's state now, as references (the caller seals pending transactions first). */
export function captureState(live: LiveChain): ChainState {
  return {
    ...capturedBlocks(live.store, live.shards),
    history: live.history.clone(),
    lastUtime: live.lastUtime,
    lastEndLt: live.lastEndLt,
    libs: live.engine.libs,
    clockOffset: live.clock.offsetSeconds,
  };
}

/**
 * Puts the chain back to `state` in place: the head goes back to the snapshot's masterchain
 * block, later blocks are forgotten, executed but unsealed transactions are dropped, the clock's
 * offset is the snapshot's, and the emulator gets the head states' accounts.
 */
export async function restoreState(live: LiveChain, state: ChainState): Promise<void> {
  live.store = storeOfState({ masterchain: live.store.zeroState(MASTERCHAIN), basechain: live.store.zeroState(BASECHAIN) }, state);
  live.history = state.history.clone();
  live.lastUtime = state.lastUtime;
  live.lastEndLt = state.lastEndLt;
  live.pending = [];
  live.clock.resetOffset(state.clockOffset);
  await live.engine.reset();
  await loadHeadAccounts(live, state.libs);
}
