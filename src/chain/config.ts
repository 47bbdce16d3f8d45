import { Cell, CellType, Dictionary } from '@ton/core';
import { InternalError } from '../errors';
import type { ConfigInfo } from '../tl';
import { loadStateConfigRoot } from '../tlb';
import {
  invalidLiteAnswer,
  merkleProofContent,
  parseLiteAnswer,
  provenBlockRoot,
  sameBlock,
  tlBlockId,
  proving,
  type ChainSession,
  type McBlock,
} from '../proofs';
import { hashmapLookup } from '../cells';

/**
 * The blockchain config read out of liteServer.configInfo answers, as tonlib's
 * check_extract_state_proof + Config::extract_from_state do: the state proof is a header proof of
 * the masterchain block whose state update names the state; the config proof is a Merkle proof of
 * that state, whose McStateExtra holds `config:^(Hashmap 32 ^Cell)`. ton-lite-client's getConfig
 * cannot be used: @ton/core reads that field as a Maybe and fails on real masterchain states.
 * The same reading is the answer's proof check: a config that is not the block's state's fails it.
 */

/** MERKLE_UPDATE cell data: tag, old_hash, new_hash, old_depth, new_depth. */
const MERKLE_UPDATE_NEW_HASH_OFFSET = 8 + 256;
const CONFIG_KEY_BITS = 32;

/** The root of the config dictionary (`Hashmap 32 ^Cell`) at the block the answer is about. */
export function configDictionary(answer: ConfigInfo, block: McBlock): Cell {
  if (!sameBlock(answer.id, block)) throw invalidLiteAnswer('configInfo', 'answer is about another block');
  const blockRoot = provenBlockRoot(answer.stateProof, block, 'configInfo state proof');
  const state = merkleProofContent(answer.configProof, 'configInfo config proof');
  return parseLiteAnswer('configInfo', () => {
    const stateUpdate = blockRoot.refs[2];
    if (!stateUpdate || stateUpdate.type !== CellType.MerkleUpdate) throw new Error('state proof lacks the state update');
    const newStateHash = stateUpdate.bits.subbuffer(MERKLE_UPDATE_NEW_HASH_OFFSET, 256);
    if (!newStateHash || !state.hash(0).equals(newStateHash)) throw new Error('config proof is not a proof of the block state');
    return loadStateConfigRoot(state.beginParse());
  });
}

/**
 * The value cell of config parameter `param`, or null when the config has none. Only the path to
 * the key is read, so a proof that prunes every other parameter is enough.
 */
export function configParam(dict: Cell, param: number): Cell | null {
  return parseLiteAnswer(`config param ${param}`, () => {
    const leaf = hashmapLookup(dict, CONFIG_KEY_BITS, BigInt.asUintN(CONFIG_KEY_BITS, BigInt(param)));
    return leaf ? leaf.loadRef() : null;
  });
}

/** The whole config dictionary at `block` (getConfigAll). */
export async function configAllAt(session: ChainSession, block: McBlock): Promise<Cell> {
  const answer = await session.liteQuery({ kind: 'liteServer.getConfigAll', mode: 0, id: tlBlockId(block) }, (sent) =>
    proving('config proof', () => configDictionary(sent, block)),
  );
  return configDictionary(answer, block);
}

/** One config parameter at `block`, proven with the others pruned (getConfigParams). */
export async function configParamAt(session: ChainSession, block: McBlock, id: number): Promise<Cell | null> {
  const answer = await session.liteQuery({ kind: 'liteServer.getConfigParams', mode: 0, id: tlBlockId(block), paramList: [id] }, (sent) =>
    proving('config proof', () => configParam(configDictionary(sent, block), id)),
  );
  return configParam(configDictionary(answer, block), id);
}

/**
 * The config as of a masterchain block, for running get-methods and emulating transactions
 * locally (what tonlib does for runGetMethod and estimateFee).
 */
export interface ChainConfig {
  /** The `Hashmap 32 ^Cell` root (the 10th element of c7, what the emulator takes). */
  root: Cell;
  /** BoC of `root` in base64, the emulator's input form. */
  base64: string;
  params: Dictionary<number, Cell>;
}

// Keyed by the masterchain block's root hash: a block's config never changes, so entries are
// valid forever (unlike seqno-keyed caches, a reset chain cannot serve stale data).
const configs = new Map<string, Promise<ChainConfig>>();
const CONFIGS_KEPT = 16;

async function fetchConfig(session: ChainSession, block: McBlock): Promise<ChainConfig> {
  const root = await configAllAt(session, block);
  return {
    root,
    base64: root.toBoc().toString('base64'),
    params: Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root),
  };
}

/** The config at masterchain block `block`, shared by every request reading at that block. */
export function chainConfigAt(session: ChainSession, block: McBlock): Promise<ChainConfig> {
  const key = block.rootHash.toString('hex');
  const cached = configs.get(key);
  if (cached) return cached;
  const loading = fetchConfig(session, block);
  configs.set(key, loading);
  loading.catch(() => configs.delete(key));
  if (configs.size > CONFIGS_KEPT) configs.delete(configs.keys().next().value as string);
  return loading;
}

/** One parameter's cell, or an error naming it (estimateFee cannot work without its prices). */
export function requiredConfigParam(config: ChainConfig, id: number): Cell {
  const cell = config.params.get(id);
  if (!cell) throw new InternalError(`config parameter ${id} is missing`);
  return cell;
}
