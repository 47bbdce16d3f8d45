import { MASTERCHAIN } from '../constants';
import { Cell, CellType } from '@ton/core';
import { LiteServerProofError } from '../errors';
import {
  loadBlockInfo,
  loadConfigParams,
  loadHashmapAugE,
  loadHashmapE,
  loadKeyExtBlkRef,
  loadKeyMaxLt,
  loadShardFeeCreated,
  loadShardStateHeader,
  loadStateConfigRoot,
  type BlockInfo,
} from '../tlb';
import { validatorSetHash, type BlockLinkBack, type BlockLinkForward, type BlockLink, type PartialBlockProof } from '../tl';
import { sameBlock } from './answers';
import { decodeBocFast, hashmapLookup } from '../cells';
import type { BlockRef } from './chainSession';
import { checkBlockSignatures, masterchainValidators } from './validatorSignatures';

/**
 * Checks `liteServer.getBlockProof` answers as TON's BlockProofLink/BlockProofChain::validate do,
 * so that a masterchain block is believed only when it is linked to one already trusted:
 * - a forward link (older -> newer) starts at a key block or the zerostate; its config proof gives
 *   the validator set, which must hash to the destination header's `gen_validator_list_hash_short`,
 *   and the destination's signatures must come from that set with more than 2/3 of its weight;
 * - a backward link (newer -> older) proves the source block's state, whose `prev_blocks`
 *   dictionary must list the destination with the same hashes.
 * Both prove the destination header (seqno, key-block flag) from its root hash.
 */

export interface ProvenChain {
  /** Where the chain ends: verified. */
  readonly to: BlockRef;
  /** The newest key block the chain passes through (verified), if any. */
  readonly keyBlock: BlockRef | null;
}

function fail(detail: string): never {
  throw new LiteServerProofError(detail);
}

function blockText(id: BlockRef): string {
  return `(${id.workchain},${BigInt.asUintN(64, BigInt(id.shard)).toString(16)},${id.seqno})`;
}

/** The content of a Merkle proof BoC: a virtual root whose level-0 hash is the original cell's. */
function proofRoot(bytes: Buffer, what: string): Cell {
  let roots: Cell[];
  try {
    // The byte-level decoder (the same cells; @ton/core's for what it does not take): a block
    // link's proofs are decoded for every masterchain block the pool's head verifier proves.
    roots = decodeBocFast(bytes);
  } catch (err) {
    fail(`${what}: not a BoC (${(err as Error).message})`);
  }
  if (roots.length !== 1 || roots[0]!.type !== CellType.MerkleProof) fail(`${what}: not a Merkle proof`);
  return roots[0]!.refs[0]!;
}

/** A block header proven from `id.rootHash` (TON's check_block_header). */
function provenHeader(bytes: Buffer, id: BlockRef, what: string): { root: Cell; info: BlockInfo } {
  const root = proofRoot(bytes, what);
  if (!root.hash(0).equals(id.rootHash)) fail(`${what}: proof of another block than ${blockText(id)}`);
  const info = loadBlockInfo(root.refs[0]!.beginParse());
  if (info.seqno !== id.seqno || info.notMaster || info.shard.workchainId !== MASTERCHAIN) {
    fail(`${what}: the header is not masterchain block ${blockText(id)}`);
  }
  return { root, info };
}

function checkDestination(link: BlockLink): BlockInfo | null {
  if (link.to.seqno === 0) return null;
  if (link.destProof.length === 0) fail(`link to ${blockText(link.to)} has no destination proof`);
  const { info } = provenHeader(link.destProof, link.to, 'destination header');
  if (info.keyBlock !== link.toKeyBlock) fail(`link to ${blockText(link.to)} states a wrong key-block flag`);
  return info;
}

function checkBackLink(link: BlockLinkBack): void {
  const { root } = provenHeader(link.proof, link.from, 'backward link source header');
  const update = root.refs[2];
  if (!update || update.type !== CellType.MerkleUpdate) fail('backward link source header lacks its state update');
  const stateHash = update.refs[1]!.hash(0);
  const state = proofRoot(link.stateProof, 'backward link state proof');
  if (!state.hash(0).equals(stateHash)) fail(`state proof is not of the state of ${blockText(link.from)}`);
  const s = state.beginParse();
  loadShardStateHeader(s);
  s.loadRef();
  const custom = s.loadMaybeRef();
  if (!custom) fail('backward link state is not a masterchain state');
  const prevBlocks = prevBlocksRoot(custom);
  const entry = prevBlocks ? hashmapLookup(prevBlocks, 32, BigInt(link.to.seqno)) : null;
  if (!entry) fail(`${blockText(link.to)} is not a previous block of ${blockText(link.from)}`);
  loadKeyMaxLt(entry);
  const ref = loadKeyExtBlkRef(entry);
  if (ref.blkRef.seqno !== link.to.seqno || !ref.blkRef.rootHash.equals(link.to.rootHash) || !ref.blkRef.fileHash.equals(link.to.fileHash)) {
    fail(`${blockText(link.from)} lists another block ${blockText(link.to)}`);
  }
  if (ref.key !== link.toKeyBlock) fail(`${blockText(link.from)} lists ${blockText(link.to)} with another key-block flag`);
}

/**
 * `prev_blocks` of `masterchain_state_extra#cc26 shard_hashes config ^[flags validator_info
 * prev_blocks ...] ...`: read only up to it, so mainnet states (flags = 1, with block create
 * stats after it) and proofs that prune everything else work too.
 */
function prevBlocksRoot(custom: Cell): Cell | null {
  const s = custom.beginParse();
  if (s.loadUint(16) !== 0xcc26) fail('backward link state: bad McStateExtra');
  loadHashmapE(s);
  loadConfigParams(s);
  const r = s.loadRef().beginParse();
  r.skip(16 + 32 + 32 + 1);
  return loadHashmapAugE(r, loadKeyMaxLt).root;
}

/** The ConfigParams dictionary of a forward link's source: a key block's, or the zerostate's. */
function sourceConfig(link: BlockLinkForward): Cell {
  if (link.from.seqno === 0) {
    const state = proofRoot(link.configProof, 'zerostate config proof');
    if (!state.hash(0).equals(link.from.rootHash)) fail('config proof of another zerostate');
    return loadStateConfigRoot(state.beginParse());
  }
  const { root, info } = provenHeader(link.configProof, link.from, 'forward link source header');
  if (!info.keyBlock) fail(`forward link from ${blockText(link.from)}, which is not a key block`);
  const mcExtra = root.refs[3]?.refs[3];
  if (!mcExtra) fail('forward link source lacks McBlockExtra');
  return keyBlockConfigRoot(mcExtra);
}

/**
 * `masterchain_block_extra#cca5 key_block shard_hashes shard_fees ^[...] config`: read without
 * entering the `^[...]` cell, which a config proof prunes.
 */
function keyBlockConfigRoot(mcExtra: Cell): Cell {
  const s = mcExtra.beginParse();
  if (s.loadUint(16) !== 0xcca5) fail('forward link source: bad McBlockExtra');
  if (!s.loadBit()) fail('forward link source key block has no config');
  loadHashmapE(s);
  loadHashmapAugE(s, loadShardFeeCreated);
  s.loadRef();
  return loadConfigParams(s).config;
}

function checkForwardLink(link: BlockLinkForward, dest: BlockInfo): void {
  if (link.signatures.kind !== 'liteServer.signatureSet.ordinary') fail('simplex signature sets are not supported');
  const validators = masterchainValidators(sourceConfig(link));
  const hash = validatorSetHash(link.signatures.catchainSeqno, validators);
  if (hash !== dest.genValidatorListHashShort >>> 0) {
    fail(`validator set of ${blockText(link.from)} does not match the one that made ${blockText(link.to)}`);
  }
  try {
    checkBlockSignatures(validators, link.signatures.signatures, link.to.rootHash, link.to.fileHash);
  } catch (err) {
    fail(`signatures of ${blockText(link.to)}: ${(err as Error).message}`);
  }
}

/** One link (TON's BlockProofLink::validate); throws LiteServerProofError. */
export function checkBlockLink(link: BlockLink): void {
  if (link.from.workchain !== MASTERCHAIN || link.to.workchain !== MASTERCHAIN) fail('proof link outside the masterchain');
  if (link.from.seqno === link.to.seqno) fail(`proof link between two blocks of height ${link.to.seqno}`);
  const forward = link.kind === 'liteServer.blockLinkForward';
  if (forward !== link.from.seqno < link.to.seqno) fail('proof link of the wrong direction');
  const dest = checkDestination(link);
  if (link.kind === 'liteServer.blockLinkBack') checkBackLink(link);
  else if (!dest) fail('forward link to the zerostate');
  else checkForwardLink(link, dest);
}

/**
 * A whole `partialBlockProof` from the trusted block `from` (TON's BlockProofChain::validate). With
 * `target`, the chain must end there; otherwise (a partial answer) it ends wherever it says.
 */
export function checkProofChain(proof: PartialBlockProof, from: BlockRef, target?: BlockRef): ProvenChain {
  try {
    if (!sameBlock(proof.from, from)) fail(`proof starts at ${blockText(proof.from)}, not at the trusted ${blockText(from)}`);
    if (target && (!proof.complete || !sameBlock(proof.to, target))) fail(`proof does not reach ${blockText(target)}`);
    if (proof.steps.length > 64) fail(`proof of ${proof.steps.length} links`);
    let cur: BlockRef = from;
    let keyBlock: BlockRef | null = null;
    for (const link of proof.steps) {
      if (!sameBlock(link.from, cur)) fail(`link from ${blockText(link.from)} does not continue from ${blockText(cur)}`);
      checkBlockLink(link);
      if (link.toKeyBlock && (!keyBlock || link.to.seqno > keyBlock.seqno)) keyBlock = link.to;
      cur = link.to;
    }
    if (!sameBlock(cur, proof.to)) fail(`proof ends at ${blockText(cur)}, not at the stated ${blockText(proof.to)}`);
    return { to: cur, keyBlock };
  } catch (err) {
    if (err instanceof LiteServerProofError) throw err;
    throw new LiteServerProofError(`block proof: ${err instanceof Error ? err.message : String(err)}`);
  }
}
