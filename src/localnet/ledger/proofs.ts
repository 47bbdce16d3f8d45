/**
 * Merkle proofs over sealed blocks and states, shaped like the ones TON's lite server builds
 * (validator/impl/liteserver.cpp): each names the cells a client reads, everything else is
 * pruned. Functions return a ProofSpec (root plus keep set); `serializeProofs` writes them
 * without building the proof cells, `proofCell` builds one when a Cell is needed.
 */
import { Cell, Slice } from '@ton/core';
import { dictLookupPath, dictLookupPathInline, KeepSet, merkleProof, ProofSpec } from '../../cells';
import {
  loadMcStateExtraCells,
  loadMcStateExtraPrevBlocks,
  loadShardStateHeader,
  type McStateExtraCells,
  loadMcBlockExtra,
} from '../../tlb';

/** Builds the MerkleProof cell of a spec (tests and callers that need a Cell). */
export function proofCell(spec: ProofSpec): Cell {
  return merkleProof(spec.root, spec.keep);
}

function keepOf(open: Iterable<Cell>, full: Iterable<Cell> = []): KeepSet {
  return { open: new Set(open), full: new Set(full) };
}

export function addressKey(address: Buffer): bigint {
  return BigInt('0x' + address.toString('hex'));
}

/** Block layout: `block#11ef55aa global_id info:^ value_flow:^ state_update:^ extra:^`. */
export function blockParts(root: Cell): { info: Cell; valueFlow: Cell; stateUpdate: Cell; extra: Cell } {
  return { info: root.refs[0], valueFlow: root.refs[1], stateUpdate: root.refs[2], extra: root.refs[3] };
}

/** The McBlockExtra cell of a masterchain block (`extra.custom`), or null for shard blocks. */
export function mcBlockExtraCell(root: Cell): Cell | null {
  const extra = blockParts(root).extra;
  return extra.refs.length > 3 ? extra.refs[3] : null;
}

/** The cells of a masterchain state's McStateExtra (see src/tlb), or null for a shard state. */
export function mcStateExtraParts(state: Cell): McStateExtraCells | null {
  return loadMcStateExtraCells(state.beginParse());
}

/**
 * Header proof (`getBlockHeader` modes): root and BlockInfo with its prev/master refs always;
 * mode 1 adds state_update, 2 the value flow, 16 BlockExtra (with McBlockExtra), 32 the shard
 * hashes and 64 the previous block signatures of a masterchain block.
 */
export function blockHeaderProof(root: Cell, mode: number): ProofSpec {
  const { info, valueFlow, stateUpdate, extra } = blockParts(root);
  const open: Cell[] = [root, info, ...info.refs];
  const full: Cell[] = [];
  if (mode & 1) open.push(stateUpdate);
  if (mode & 2) full.push(valueFlow);
  if (mode & 16) {
    open.push(extra);
    const mcExtra = mcBlockExtraCell(root);
    if (mcExtra) {
      open.push(mcExtra);
      const parsed = loadMcBlockExtra(mcExtra.beginParse());
      if (mode & 32 && parsed.shardHashes.root) full.push(parsed.shardHashes.root);
      if (mode & 64) {
        const more = mcExtra.refs.find((r) => r !== parsed.shardHashes.root && r !== parsed.shardFees.root && r !== parsed.config?.config);
        if (more) {
          open.push(more);
          if (parsed.prevBlkSignatures.root) full.push(parsed.prevBlkSignatures.root);
        }
      }
    }
  }
  return { root: root, keep: keepOf(open, full) };
}

/** Proof that a block's state_update leads to its new state (TON's make_state_root_proof). */
export function stateRootProof(root: Cell): ProofSpec {
  return blockHeaderProof(root, 1);
}

/** The accounts dictionary root of a ShardStateUnsplit (null when empty) and its container cell. */
export function accountsOf(state: Cell): { container: Cell; root: Cell | null } {
  const container = loadShardStateHeader(state.beginParse()).accounts;
  return { container, root: container.bits.at(0) ? container.refs[0] : null };
}

/**
 * One walk of the accounts dictionary to `address`: the state proof revealing the path (the
 * Account cell stays pruned) and the Account cell (the ShardAccount's reference), null if absent.
 */
export function accountInState(state: Cell, address: Buffer): { proof: ProofSpec; account: Cell | null } {
  const { container, root } = accountsOf(state);
  const path = dictLookupPath(root, 256, addressKey(address));
  return { proof: { root: state, keep: keepOf([state, container, ...path.cells]) }, account: path.value ? path.value.loadRef() : null };
}

/**
 * The BinTree path of ShardHashes from a workchain's tree root to the leaf whose shard holds
 * `shard` (a shard id or an account prefix with its lowest bit set): the cells on the way, the
 * leaf cell (`bt_leaf$0 ShardDescr`) and the leaf's shard id.
 */
export function shardTreePath(tree: Cell, shard: bigint): { cells: Cell[]; leaf: Cell; shard: bigint } {
  const cells: Cell[] = [];
  let node = tree;
  let depth = 0;
  let prefix = 0n;
  for (;;) {
    cells.push(node);
    const s = node.beginParse();
    if (!s.loadBit()) {
      const tag = 1n << BigInt(63 - depth);
      return { cells, leaf: node, shard: prefix | tag };
    }
    const bit = (shard >> BigInt(63 - depth)) & 1n;
    prefix |= bit << BigInt(63 - depth);
    node = node.refs[Number(bit)];
    depth++;
  }
}

/**
 * Masterchain state proof revealing the ShardHashes entry of `workchain` down to the BinTree
 * leaf holding `shard` (TON's make_shard_info_proof). Returns that leaf and its shard too.
 */
export function shardInfoProof(
  mcState: Cell,
  workchain: number,
  shard: bigint,
): { proof: ProofSpec; leaf: Cell | null; shard: bigint | null } {
  const parts = mcStateExtraParts(mcState);
  if (!parts) throw new Error('not a masterchain state');
  const open: Cell[] = [mcState, parts.custom];
  const full: Cell[] = [];
  let leaf: Cell | null = null;
  let leafShard: bigint | null = null;
  const path = dictLookupPath(parts.shardHashes, 32, BigInt.asUintN(32, BigInt(workchain)));
  open.push(...path.cells);
  if (path.value) {
    const tree = shardTreePath(path.value.loadRef(), shard);
    leaf = tree.leaf;
    leafShard = tree.shard;
    open.push(...tree.cells);
    full.push(...leaf.refs);
  }
  return { proof: { root: mcState, keep: keepOf(open, full) }, leaf, shard: leafShard };
}

/** Config proof: every parameter (`all`) or only the listed ones, with paths. */
export function configStateProof(mcState: Cell, params: readonly number[] | 'all', extra: Cell[] = []): ProofSpec {
  const parts = mcStateExtraParts(mcState);
  if (!parts) throw new Error('not a masterchain state');
  const open: Cell[] = [mcState, parts.custom, ...extra];
  const full: Cell[] = [];
  if (params === 'all') full.push(parts.config);
  else full.push(...configParamCells(parts.config, params, open));
  return { root: mcState, keep: keepOf(open, full) };
}

/** Values of `params` in a config dictionary; path cells are added to `open`. */
function configParamCells(configRoot: Cell, params: readonly number[], open: Cell[]): Cell[] {
  const values: Cell[] = [];
  for (const p of params) {
    const path = dictLookupPath(configRoot, 32, BigInt.asUintN(32, BigInt(p)));
    open.push(...path.cells);
    if (path.value) values.push(path.value.loadRef());
  }
  return values;
}

/** Proof from a key block: header plus McBlockExtra.config with `params` (or all of it). */
export function keyBlockConfigProof(root: Cell, params: readonly number[] | 'all'): ProofSpec {
  const { info, extra } = blockParts(root);
  const mcExtra = mcBlockExtraCell(root);
  if (!mcExtra) throw new Error('not a masterchain block');
  const parsed = loadMcBlockExtra(mcExtra.beginParse());
  if (!parsed.config) throw new Error('not a key block');
  const open: Cell[] = [root, info, ...info.refs, extra, mcExtra];
  const full: Cell[] = [];
  if (params === 'all') full.push(parsed.config.config);
  else full.push(...configParamCells(parsed.config.config, params, open));
  return { root: root, keep: keepOf(open, full) };
}

/** Zerostate config proof (forward links from the zerostate): state, McStateExtra, params. */
export function zeroStateConfigProof(mcZeroState: Cell, params: readonly number[]): ProofSpec {
  return configStateProof(mcZeroState, params);
}

/** Masterchain state proof that block `seqno` is listed in OldMcBlocksInfo (prev_blocks). */
export function ancestorProof(mcState: Cell, seqno: number): ProofSpec {
  const parts = mcStateExtraParts(mcState);
  if (!parts) throw new Error('not a masterchain state');
  const open: Cell[] = [mcState, parts.custom, parts.more];
  const { prevBlocks } = loadMcStateExtraPrevBlocks(parts.more.beginParse());
  open.push(...dictLookupPath(prevBlocks, 32, BigInt(seqno)).cells);
  return { root: mcState, keep: keepOf(open) };
}

/** The AccountBlock leaf of `address` in a block's ShardAccountBlocks, with its path. */
function accountBlockPath(root: Cell, address: Buffer): { open: Cell[]; leaf: Slice | null } {
  const { info, extra } = blockParts(root);
  const accountBlocks = extra.refs[2];
  const dictRoot = accountBlocks.bits.at(0) ? accountBlocks.refs[0] : null;
  const path = dictLookupPath(dictRoot, 256, addressKey(address));
  const open = [root, info, extra, accountBlocks, ...path.cells];
  if (!path.value) return { open, leaf: null };
  // Skip the CurrencyCollection extra, then acc_trans#5 and the address.
  const leaf = path.value;
  leaf.loadCoins();
  leaf.loadMaybeRef();
  leaf.skip(4 + 256);
  return { open, leaf };
}

/** Block proof revealing the account_blocks path to one transaction (TON's getOneTransaction). */
export function transactionProof(root: Cell, address: Buffer, lt: bigint): ProofSpec {
  const { open, leaf } = accountBlockPath(root, address);
  if (leaf) open.push(...dictLookupPathInline(leaf, 64, lt).cells);
  return { root: root, keep: keepOf(open) };
}

/** Block proof revealing the account_blocks paths of several transactions. */
export function blockTransactionsProof(
  root: Cell,
  txs: readonly { address: Buffer; lt: bigint }[],
  after: { account: Buffer; lt: string } | null = null,
): ProofSpec {
  const open = new Set<Cell>();
  // The walk starts at the cursor: like TON's lite server, prove the path to it too, so a checker
  // sees that nothing lies between the cursor and the first transaction listed.
  const walked = after ? [{ address: after.account, lt: BigInt(after.lt) }, ...txs] : txs;
  for (const tx of walked) {
    const { open: cells, leaf } = accountBlockPath(root, tx.address);
    for (const c of cells) open.add(c);
    if (leaf) for (const c of dictLookupPathInline(leaf, 64, tx.lt).cells) open.add(c);
  }
  if (open.size === 0) {
    const { info, extra } = blockParts(root);
    for (const c of [root, info, extra, extra.refs[2]]) open.add(c);
  }
  return { root: root, keep: { open } };
}

/** Masterchain block proof revealing McBlockExtra (getAllShardsInfo). */
export function allShardsProof(root: Cell): ProofSpec {
  const mcExtra = mcBlockExtraCell(root);
  if (!mcExtra) throw new Error('not a masterchain block');
  return { root: root, keep: keepOf([root, blockParts(root).extra, mcExtra]) };
}

/** Masterchain block proof revealing the ShardHashes leaf of `workchain:shard` (getShardBlockProof links). */
export function mcBlockShardProof(root: Cell, workchain: number, shard: bigint): ProofSpec {
  const mcExtra = mcBlockExtraCell(root);
  if (!mcExtra) throw new Error('not a masterchain block');
  const parsed = loadMcBlockExtra(mcExtra.beginParse());
  const open: Cell[] = [root, blockParts(root).extra, mcExtra];
  const full: Cell[] = [];
  const path = dictLookupPath(parsed.shardHashes.root, 32, BigInt.asUintN(32, BigInt(workchain)));
  open.push(...path.cells);
  if (path.value) {
    const tree = shardTreePath(path.value.loadRef(), shard);
    open.push(...tree.cells);
    full.push(...tree.leaf.refs);
  }
  return { root: root, keep: keepOf(open, full) };
}

/** State proof revealing OutMsgQueueInfo (getBlockOutMsgQueueSize). */
export function outMsgQueueProof(state: Cell): ProofSpec {
  return { root: state, keep: keepOf([state], [state.refs[0]]) };
}

/** Proof of an Account cell that hides code, data and libraries (getAccountStatePrunned). */
export function prunedAccountProof(account: Cell, hasExtraCurrencies: boolean): ProofSpec {
  return { root: account, keep: keepOf([account], hasExtraCurrencies && account.refs.length > 0 ? [account.refs[0]] : []) };
}
