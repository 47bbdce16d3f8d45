import { Cell, Dictionary } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema';
import type { BlockID } from 'ton-lite-client/dist/types';
import { InternalError } from '../errors';

/**
 * The blockchain config as of a masterchain block, for running get-methods and emulating
 * transactions locally (what tonlib does for runGetMethod and estimateFee).
 *
 * ton-lite-client's `getConfig` cannot be used: its McStateExtra parser reads the config as a
 * Maybe ^Cell and fails on real balances (design notes §1.2), so the proof is read here.
 */
export interface ChainConfig {
  /** The `Hashmap 32 ^Cell` root (the 10th element of c7, what the emulator takes). */
  root: Cell;
  /** BoC of `root` in base64, the emulator's input form. */
  base64: string;
  params: Dictionary<number, Cell>;
}

const SHARD_STATE_UNSPLIT = 0x9023afe2;
const MC_STATE_EXTRA = 0xcc26;

/** The config dictionary inside a getConfigAll proof (state → custom → McStateExtra → config). */
export function configFromStateProof(configProof: Buffer): Cell {
  const state = Cell.fromBoc(configProof)[0].refs[0].beginParse(true);
  if (state.loadUint(32) !== SHARD_STATE_UNSPLIT) throw new Error('config proof does not hold a ShardStateUnsplit');
  state.skip(32 + 104 + 32 + 32 + 32 + 64 + 32); // global_id .. min_ref_mc_seqno
  state.loadRef(); // out_msg_queue_info
  state.skip(1); // before_split
  state.loadRef(); // accounts
  state.loadRef(); // overload history, balances, libraries, master_ref
  if (!state.loadBit()) throw new Error('config proof has no masterchain state extra');
  const extra = state.loadRef().beginParse(true);
  if (extra.loadUint(16) !== MC_STATE_EXTRA) throw new Error('not a McStateExtra');
  extra.loadMaybeRef(); // shard_hashes
  extra.skip(256); // config_addr
  return extra.loadRef();
}

// Keyed by the masterchain block's root hash: a block's config never changes, so entries are
// valid forever (unlike seqno-keyed caches, a reset chain cannot serve stale data).
const cache = new Map<string, Promise<ChainConfig>>();
const CACHE_SIZE = 16;

async function fetchConfig(client: LiteClient, block: BlockID): Promise<ChainConfig> {
  const answer = await client.engine.query(Functions.liteServer_getConfigAll, {
    kind: 'liteServer.getConfigAll',
    id: { kind: 'tonNode.blockIdExt', ...block },
    mode: 0,
  });
  let root: Cell;
  try {
    root = configFromStateProof(answer.configProof);
  } catch {
    throw new InternalError('the lite server sent a config proof that does not parse');
  }
  return {
    root,
    base64: root.toBoc().toString('base64'),
    params: Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root),
  };
}

/** The config at masterchain block `block`. */
export function configAt(client: LiteClient, block: BlockID): Promise<ChainConfig> {
  const key = block.rootHash.toString('hex');
  const cached = cache.get(key);
  if (cached) return cached;
  const loading = fetchConfig(client, block);
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return loading;
}

/** One parameter's cell, or an error naming it (estimateFee cannot work without its prices). */
export function configParam(config: ChainConfig, id: number): Cell {
  const cell = config.params.get(id);
  if (!cell) throw new InternalError(`config parameter ${id} is missing`);
  return cell;
}
