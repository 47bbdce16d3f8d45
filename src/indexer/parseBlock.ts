import { Address, beginCell, Cell, Dictionary, ExternalAddress, loadMessage, loadTransaction, storeStateInit, type AccountStatus as CoreAccountStatus, type CurrencyCollection, type Message, type Transaction, type TransactionComputePhase } from '@ton/core';
import { forEachDictLeaf } from '../cells';
import { normalizeExternalMessage, previousBlockIds, rawAddressUpper, toSignedShard } from '../converters';
import type { BlockRef } from '../proofs';
import type { AccountStatus, BlockRow, MessageContentRow, MessageRow, TransactionRow } from '../indexdb';
import { loadAccountBlockHead, loadBlock, loadCurrencyCollection, loadShardHashesTopBlocks, type Block } from '../tlb';

/**
 * A verified block's BoC root turned into index rows (pure: no I/O). Transactions come from the
 * block's account blocks, messages from each transaction, shard tops (masterchain blocks) from
 * McBlockExtra's shard hashes, previous block ids from BlockInfo's prev_ref.
 */

export interface ParsedMessage {
  readonly row: MessageRow;
  /** The body and init state cells' BoCs (message_contents). */
  readonly contents: MessageContentRow[];
  /** An internal message: a trace edge. */
  readonly internal: boolean;
  /** The body cell (token events parse it). */
  readonly body: Cell;
}

export interface ParsedTransaction {
  readonly row: TransactionRow;
  readonly address: Address;
  readonly inMessage: ParsedMessage | null;
  readonly outMessages: ParsedMessage[];
}

export interface ParsedBlock {
  readonly id: BlockRef;
  readonly row: BlockRow;
  readonly block: Block;
  /** The blocks this one follows (two after a merge), with their hashes from prev_ref. */
  readonly previous: BlockRef[];
  /** The shard top blocks a masterchain block lists (empty for a shard block). */
  readonly shardTops: BlockRef[];
  readonly transactions: ParsedTransaction[];
}

function refOf(input: { workchain: number; shard: bigint | string; seqno: number; rootHash: Buffer; fileHash: Buffer }): BlockRef {
  return { workchain: input.workchain, shard: toSignedShard(input.shard).toString(), seqno: input.seqno, rootHash: input.rootHash, fileHash: input.fileHash };
}

const STATUS: Record<CoreAccountStatus, AccountStatus> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  'non-existing': 'nonexist',
};

function hash256(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

/** `{"id": "amount"}` of a CurrencyCollection's extra currencies, or null when it has none. */
export function extraCurrenciesJson(value: CurrencyCollection): string | null {
  const other = value.other;
  if (!other || other.size === 0) return null;
  const out: Record<string, string> = {};
  for (const [id, amount] of other) out[String(id)] = amount.toString();
  return JSON.stringify(out);
}

function addressText(address: Address | ExternalAddress | null | undefined): string | null {
  return address instanceof Address ? rawAddressUpper(address) : null;
}

/** The body's first 32 bits as a signed int32, as toncenter keeps `opcode`; null when shorter. */
function opcodeOf(body: Cell): number | null {
  const slice = body.beginParse(true);
  return slice.remainingBits >= 32 ? slice.loadInt(32) : null;
}

function parseMessage(cell: Cell, direction: 'in' | 'out', tx: { hash: Buffer; lt: bigint }, mcSeqno: number): ParsedMessage {
  const message: Message = loadMessage(cell.beginParse());
  const info = message.info;
  const body = message.body;
  const contents: MessageContentRow[] = [{ hash: body.hash(), body: body.toBoc() }];
  let initHash: Buffer | null = null;
  if (message.init) {
    const initCell = beginCell().store(storeStateInit(message.init)).endCell();
    initHash = initCell.hash();
    contents.push({ hash: initHash, body: initCell.toBoc() });
  }
  const row: MessageRow = {
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    mc_seqno: mcSeqno,
    msg_hash: cell.hash(),
    msg_hash_norm: info.type === 'external-in' ? normalizeExternalMessage(cell).hash() : null,
    direction,
    trace_id: null,
    source: addressText(info.src),
    destination: addressText(info.dest),
    value: info.type === 'internal' ? info.value.coins : null,
    value_extra_currencies: info.type === 'internal' ? extraCurrenciesJson(info.value) : null,
    fwd_fee: info.type === 'internal' ? info.forwardFee : null,
    ihr_fee: info.type === 'internal' ? info.ihrFee : null,
    extra_flags: null,
    created_lt: info.type === 'external-in' ? null : info.createdLt,
    created_at: info.type === 'external-in' ? null : info.createdAt,
    opcode: opcodeOf(body),
    ihr_disabled: info.type === 'internal' ? info.ihrDisabled : null,
    bounce: info.type === 'internal' ? info.bounce : null,
    bounced: info.type === 'internal' ? info.bounced : null,
    import_fee: info.type === 'external-in' ? info.importFee : null,
    body_hash: body.hash(),
    init_state_hash: initHash,
  };
  return { row, contents, internal: info.type === 'internal', body };
}

type PhaseColumns = Pick<
  TransactionRow,
  | 'compute_skipped'
  | 'skipped_reason'
  | 'compute_success'
  | 'compute_msg_state_used'
  | 'compute_account_activated'
  | 'compute_gas_fees'
  | 'compute_gas_used'
  | 'compute_gas_limit'
  | 'compute_gas_credit'
  | 'compute_mode'
  | 'compute_exit_code'
  | 'compute_exit_arg'
  | 'compute_vm_steps'
  | 'compute_vm_init_state_hash'
  | 'compute_vm_final_state_hash'
>;

function computeColumns(phase: TransactionComputePhase | undefined): PhaseColumns {
  const none: PhaseColumns = {
    compute_skipped: null,
    skipped_reason: null,
    compute_success: null,
    compute_msg_state_used: null,
    compute_account_activated: null,
    compute_gas_fees: null,
    compute_gas_used: null,
    compute_gas_limit: null,
    compute_gas_credit: null,
    compute_mode: null,
    compute_exit_code: null,
    compute_exit_arg: null,
    compute_vm_steps: null,
    compute_vm_init_state_hash: null,
    compute_vm_final_state_hash: null,
  };
  if (!phase) return none;
  if (phase.type === 'skipped') {
    const reason = phase.reason === 'no-state' ? 'no_state' : phase.reason === 'bad-state' ? 'bad_state' : 'no_gas';
    return { ...none, compute_skipped: true, skipped_reason: reason };
  }
  return {
    ...none,
    compute_skipped: false,
    compute_success: phase.success,
    compute_msg_state_used: phase.messageStateUsed,
    compute_account_activated: phase.accountActivated,
    compute_gas_fees: phase.gasFees,
    compute_gas_used: phase.gasUsed,
    compute_gas_limit: phase.gasLimit,
    compute_gas_credit: phase.gasCredit ?? null,
    compute_mode: phase.mode,
    compute_exit_code: phase.exitCode,
    compute_exit_arg: phase.exitArg ?? null,
    compute_vm_steps: BigInt(phase.vmSteps),
    compute_vm_init_state_hash: hash256(phase.vmInitStateHash),
    compute_vm_final_state_hash: hash256(phase.vmFinalStateHash),
  };
}

const DESCR: Record<Transaction['description']['type'], TransactionRow['descr']> = {
  generic: 'ord',
  storage: 'storage',
  'tick-tock': 'tick_tock',
  'split-prepare': 'split_prepare',
  'split-install': 'split_install',
  'merge-prepare': 'merge_prepare',
  'merge-install': 'merge_install',
};

function transactionRow(cell: Cell, tx: Transaction, address: Address, block: BlockRef, mcSeqno: number): TransactionRow {
  const d = tx.description;
  const storage = 'storagePhase' in d ? d.storagePhase ?? null : null;
  const credit = 'creditPhase' in d ? d.creditPhase ?? null : null;
  const action = 'actionPhase' in d ? d.actionPhase ?? null : null;
  const bounce = 'bouncePhase' in d ? d.bouncePhase ?? null : null;
  const split = 'splitInfo' in d ? d.splitInfo : null;
  return {
    account: rawAddressUpper(address),
    hash: cell.hash(),
    lt: tx.lt,
    block_workchain: block.workchain,
    block_shard: BigInt(block.shard),
    block_seqno: block.seqno,
    mc_block_seqno: mcSeqno,
    trace_id: null,
    prev_trans_hash: hash256(tx.prevTransactionHash),
    prev_trans_lt: tx.prevTransactionLt,
    now: tx.now,
    orig_status: STATUS[tx.oldStatus],
    end_status: STATUS[tx.endStatus],
    total_fees: tx.totalFees.coins,
    total_fees_extra_currencies: extraCurrenciesJson(tx.totalFees),
    account_state_hash_before: tx.stateUpdate.oldHash,
    account_state_hash_after: tx.stateUpdate.newHash,
    descr: DESCR[d.type],
    aborted: 'aborted' in d ? d.aborted : null,
    destroyed: 'destroyed' in d ? d.destroyed : null,
    credit_first: d.type === 'generic' ? d.creditFirst : null,
    is_tock: d.type === 'tick-tock' ? d.isTock : null,
    installed: d.type === 'split-install' ? d.installed : null,
    storage_fees_collected: storage ? storage.storageFeesCollected : null,
    storage_fees_due: storage?.storageFeesDue ?? null,
    storage_status_change: storage ? storage.statusChange : null,
    credit_due_fees_collected: credit?.dueFeesColelcted ?? null,
    credit: credit ? credit.credit.coins : null,
    credit_extra_currencies: credit ? extraCurrenciesJson(credit.credit) : null,
    ...computeColumns('computePhase' in d ? d.computePhase : undefined),
    action_success: action ? action.success : null,
    action_valid: action ? action.valid : null,
    action_no_funds: action ? action.noFunds : null,
    action_status_change: action ? action.statusChange : null,
    action_total_fwd_fees: action?.totalFwdFees ?? null,
    action_total_action_fees: action?.totalActionFees ?? null,
    action_result_code: action ? action.resultCode : null,
    action_result_arg: action?.resultArg ?? null,
    action_tot_actions: action ? action.totalActions : null,
    action_spec_actions: action ? action.specActions : null,
    action_skipped_actions: action ? action.skippedActions : null,
    action_msgs_created: action ? action.messagesCreated : null,
    action_action_list_hash: action ? hash256(action.actionListHash) : null,
    action_tot_msg_size_cells: action ? action.totalMessageSize.cells : null,
    action_tot_msg_size_bits: action ? action.totalMessageSize.bits : null,
    bounce: bounce ? (bounce.type === 'negative-funds' ? 'negfunds' : bounce.type === 'no-funds' ? 'nofunds' : 'ok') : null,
    bounce_msg_size_cells: bounce && bounce.type !== 'negative-funds' ? bounce.messageSize.cells : null,
    bounce_msg_size_bits: bounce && bounce.type !== 'negative-funds' ? bounce.messageSize.bits : null,
    bounce_req_fwd_fees: bounce && bounce.type === 'no-funds' ? bounce.requiredForwardFees : null,
    bounce_msg_fees: bounce && bounce.type === 'ok' ? bounce.messageFees : null,
    bounce_fwd_fees: bounce && bounce.type === 'ok' ? bounce.forwardFees : null,
    split_info_cur_shard_pfx_len: split ? split.currentShardPrefixLength : null,
    split_info_acc_split_depth: split ? split.accountSplitDepth : null,
    split_info_this_addr: split ? rawAddressUpper(new Address(address.workChain, hash256(split.thisAddress))) : null,
    split_info_sibling_addr: split ? rawAddressUpper(new Address(address.workChain, hash256(split.siblingAddress))) : null,
  };
}

function parseTransaction(cell: Cell, workchain: number, block: BlockRef, mcSeqno: number): ParsedTransaction {
  const tx = loadTransaction(cell.beginParse());
  const address = new Address(workchain, hash256(tx.address));
  const row = transactionRow(cell, tx, address, block, mcSeqno);
  // `^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]`: the cells, for their hashes.
  const messages = cell.refs[0]!.beginParse();
  const inCell = messages.loadMaybeRef();
  const outCells = messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const ref = { hash: row.hash, lt: row.lt };
  const outMessages = [...outCells.keys()].sort((a, b) => a - b).map((key) => parseMessage(outCells.get(key)!, 'out', ref, mcSeqno));
  return { row, address, inMessage: inCell ? parseMessage(inCell, 'in', ref, mcSeqno) : null, outMessages };
}

/** Parses verified block `id` (root: its BoC's root cell), indexed as part of masterchain block `mcSeqno`. */
export function parseBlock(id: BlockRef, root: Cell, mcSeqno: number): ParsedBlock {
  const block = loadBlock(root.beginParse());
  const info = block.info;
  const transactions: ParsedTransaction[] = [];
  const accountBlocks = block.extra.accountBlocks.beginParse();
  forEachDictLeaf(accountBlocks.loadMaybeRef(), 256, (_key, leaf) => {
    loadCurrencyCollection(leaf); // the account's aug extra
    loadAccountBlockHead(leaf);
    forEachDictLeaf(leaf, 64, (_lt, value) => {
      loadCurrencyCollection(value);
      transactions.push(parseTransaction(value.loadRef(), id.workchain, id, mcSeqno));
    });
  });
  transactions.sort((a, b) => (a.row.lt < b.row.lt ? -1 : a.row.lt > b.row.lt ? 1 : a.row.account < b.row.account ? -1 : 1));
  const previous = id.seqno > 1 || id.workchain !== -1 ? previousBlockIds(id, info).map(refOf) : [];
  const shardTops: BlockRef[] = [];
  if (block.extra.custom?.shardHashes.root) {
    const hashes = beginCell().storeMaybeRef(block.extra.custom.shardHashes.root).endCell().beginParse();
    for (const top of loadShardHashesTopBlocks(hashes)) shardTops.push(refOf(top));
  }
  const shard = BigInt(id.shard);
  const row: BlockRow = {
    workchain: id.workchain,
    shard,
    seqno: id.seqno,
    root_hash: id.rootHash,
    file_hash: id.fileHash,
    mc_block_workchain: -1,
    mc_block_shard: -0x8000000000000000n,
    mc_block_seqno: mcSeqno,
    global_id: block.globalId,
    version: info.version,
    after_merge: info.afterMerge,
    before_split: info.beforeSplit,
    after_split: info.afterSplit,
    want_merge: info.wantMerge,
    want_split: info.wantSplit,
    key_block: info.keyBlock,
    vert_seqno_incr: info.vertSeqnoIncr,
    flags: info.flags,
    gen_utime: info.genUtime,
    start_lt: info.startLt,
    end_lt: info.endLt,
    validator_list_hash_short: info.genValidatorListHashShort | 0,
    gen_catchain_seqno: info.genCatchainSeqno,
    min_ref_mc_seqno: info.minRefMcSeqno,
    prev_key_block_seqno: info.prevKeyBlockSeqno,
    vert_seqno: info.vertSeqno,
    master_ref_seqno: info.masterRef ? info.masterRef.seqno : null,
    rand_seed: block.extra.randSeed,
    created_by: block.extra.createdBy,
    tx_count: transactions.length,
    prev_blocks: previous.map((p) => ({ workchain: p.workchain, shard: BigInt(p.shard), seqno: p.seqno })),
  };
  return { id, row, block, previous, shardTops, transactions };
}
