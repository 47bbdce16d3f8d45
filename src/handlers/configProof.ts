import { Cell, CellType, Slice } from '@ton/core';
import type { BlockID } from 'ton-lite-client/dist/types';
import type { ConfigInfo } from '../tl';
import { invalidLiteAnswer, merkleProofContent, parseLiteAnswer, provenBlockRoot, sameBlock } from './liteAnswers';

/**
 * The blockchain config read out of a liteServer.configInfo answer, as tonlib's
 * check_extract_state_proof + Config::extract_from_state do: the state proof is a header proof of
 * the masterchain block whose state update names the state; the config proof is a Merkle proof of
 * that state, whose McStateExtra holds `config:^(Hashmap 32 ^Cell)`. ton-lite-client's getConfig
 * cannot be used: @ton/core reads that field as a Maybe and fails on real masterchain states.
 */

const SHARD_STATE_TAG = 0x9023afe2;
const MC_STATE_EXTRA_TAG = 0xcc26;
/** global_id, shard_id, seq_no, vert_seq_no, gen_utime, gen_lt, min_ref_mc_seqno. */
const SHARD_STATE_HEAD_BITS = 32 + 104 + 32 + 32 + 32 + 64 + 32;
/** MERKLE_UPDATE cell data: tag, old_hash, new_hash, old_depth, new_depth. */
const MERKLE_UPDATE_NEW_HASH_OFFSET = 8 + 256;
const CONFIG_KEY_BITS = 32;

/** The root of the config dictionary (`Hashmap 32 ^Cell`) at the block the answer is about. */
export function configDictionary(answer: ConfigInfo, block: BlockID): Cell {
  if (!sameBlock(answer.id, block)) throw invalidLiteAnswer('configInfo', 'answer is about another block');
  const blockRoot = provenBlockRoot(answer.stateProof, block, 'configInfo state proof');
  const state = merkleProofContent(answer.configProof, 'configInfo config proof');
  return parseLiteAnswer('configInfo', () => {
    const stateUpdate = blockRoot.refs[2];
    if (!stateUpdate || stateUpdate.type !== CellType.MerkleUpdate) throw new Error('state proof lacks the state update');
    const newStateHash = stateUpdate.bits.subbuffer(MERKLE_UPDATE_NEW_HASH_OFFSET, 256);
    if (!newStateHash || !state.hash(0).equals(newStateHash)) throw new Error('config proof is not a proof of the block state');
    return loadConfigRoot(state);
  });
}

/** ShardStateUnsplit -> custom:^McStateExtra -> config:ConfigParams -> ^(Hashmap 32 ^Cell). */
function loadConfigRoot(state: Cell): Cell {
  const slice = state.beginParse();
  if (slice.loadUint(32) !== SHARD_STATE_TAG) throw new Error('not a ShardStateUnsplit');
  slice.skip(SHARD_STATE_HEAD_BITS);
  slice.loadRef(); // out_msg_queue_info
  slice.loadBit(); // before_split
  slice.loadRef(); // accounts
  slice.loadRef(); // ^[overload_history ... master_ref]
  const custom = slice.loadMaybeRef();
  if (!custom) throw new Error('the state has no McStateExtra (not a masterchain state)');
  const extra = custom.beginParse();
  if (extra.loadUint(16) !== MC_STATE_EXTRA_TAG) throw new Error('invalid McStateExtra tag');
  extra.loadMaybeRef(); // shard_hashes
  extra.skip(256); // config_addr
  return extra.loadRef();
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

/** Bits needed for a label length of at most `n` (block.tlb's `#<= n`). */
function lengthBits(n: number): number {
  let bits = 0;
  while (1 << bits <= n) bits++;
  return bits;
}

/** An edge label of a Hashmap node with `n` key bits left: its length and value. */
function loadLabel(slice: Slice, n: number): { length: number; value: bigint } {
  if (!slice.loadBit()) {
    // hml_short$0 len:(Unary ~n) s:(n * Bit)
    let length = 0;
    while (slice.loadBit()) length++;
    return { length, value: length > 0 ? slice.loadUintBig(length) : 0n };
  }
  if (!slice.loadBit()) {
    // hml_long$10 n:(#<= m) s:(n * Bit)
    const length = slice.loadUint(lengthBits(n));
    return { length, value: length > 0 ? slice.loadUintBig(length) : 0n };
  }
  // hml_same$11 v:Bit n:(#<= m)
  const bit = slice.loadBit();
  const length = slice.loadUint(lengthBits(n));
  return { length, value: bit ? (1n << BigInt(length)) - 1n : 0n };
}

/** The value slice stored under `key` in a (non-empty) Hashmap of `keyBits`-bit keys, or null. */
export function hashmapLookup(root: Cell, keyBits: number, key: bigint): Slice | null {
  let cell = root;
  let left = keyBits;
  for (;;) {
    if (cell.isExotic) throw new Error('the proof does not contain this key');
    const slice = cell.beginParse();
    const label = loadLabel(slice, left);
    if (label.length > left) throw new Error('dictionary label longer than the key');
    const keyPart = (key >> BigInt(left - label.length)) & ((1n << BigInt(label.length)) - 1n);
    if (keyPart !== label.value) return null;
    left -= label.length;
    if (left === 0) return slice;
    // hmn_fork: the next key bit picks the left (0) or right (1) subtree.
    const next = cell.refs[Number((key >> BigInt(left - 1)) & 1n)];
    if (!next) throw new Error('dictionary fork without two branches');
    cell = next;
    left -= 1;
  }
}
