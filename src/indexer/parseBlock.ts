import { Address, beginCell, Cell, Dictionary, ExternalAddress, loadMessage, loadTransaction, storeStateInit, type AccountStatus as CoreAccountStatus, type CurrencyCollection, type Message, type StateInit, type Transaction, type TransactionComputePhase } from '@ton/core';
import { BitCursor, CursorError, forEachDictLeafCursor, skipCurrencyCollection } from '../cells';
import { normalizeExternalMessage, previousBlockIds, rawAddressUpper, toSignedShard } from '../converters';
import type { BlockRef } from '../proofs';
import type { AccountStatus, BlockRow, BounceType, MessageContentRow, MessageRow, StatusChange, TransactionRow } from '../indexdb';
import { loadBlock, loadShardHashesTopBlocks, type Block } from '../tlb';

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

function parseMessageSlow(cell: Cell, direction: 'in' | 'out', tx: { hash: Buffer; lt: bigint }, mcSeqno: number): ParsedMessage {
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

/** A transaction without a compute phase: every compute column null (shared by both parses). */
const NO_COMPUTE_COLUMNS: Readonly<PhaseColumns> = Object.freeze({
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
});

function computeColumns(phase: TransactionComputePhase | undefined): PhaseColumns {
  const none = NO_COMPUTE_COLUMNS;
  if (!phase) return { ...none };
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

function parseTransactionSlow(cell: Cell, workchain: number, block: BlockRef, mcSeqno: number): ParsedTransaction {
  const tx = loadTransaction(cell.beginParse());
  const address = new Address(workchain, hash256(tx.address));
  const row = transactionRow(cell, tx, address, block, mcSeqno);
  // `^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]`: the cells, for their hashes.
  const messages = cell.refs[0]!.beginParse();
  const inCell = messages.loadMaybeRef();
  const outCells = messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const ref = { hash: row.hash, lt: row.lt };
  const outMessages = [...outCells.keys()].sort((a, b) => a - b).map((key) => parseMessageSlow(outCells.get(key)!, 'out', ref, mcSeqno));
  return { row, address, inMessage: inCell ? parseMessageSlow(inCell, 'in', ref, mcSeqno) : null, outMessages };
}

/*
 * The transactions and messages of a block read with a BitCursor straight into their rows, each
 * message cell read once. @ton/core's loadTransaction builds its whole object model (every
 * message of the transaction parsed with it, then parsed again here for the row) through its
 * BitReader; with the garbage it leaves, that was the largest share of the index's thread after
 * the garbage collector. The layouts this reader does not take (extra currencies, anycast and
 * var addresses, libraries in a StateInit, split_install and merge transactions) throw
 * CursorError and the transaction is parsed with @ton/core as before, so both give the same rows
 * (test/unit/fastTransactionParse.test.ts compares them).
 */

const STATUS_BY_BITS: readonly AccountStatus[] = ['uninit', 'frozen', 'active', 'nonexist'];

/** Message bodies' BoCs by hash, bounded: most messages of a block share a few bodies (an empty one above all). */
const bodyBocs = new Map<string, Buffer>();
const BODY_BOCS_MAX = 512;

function bodyBoc(body: Cell, hash: Buffer): Buffer {
  const key = hash.toString('latin1');
  const known = bodyBocs.get(key);
  if (known) return known;
  const boc = body.toBoc();
  if (bodyBocs.size >= BODY_BOCS_MAX) bodyBocs.delete(bodyBocs.keys().next().value!);
  bodyBocs.set(key, boc);
  return boc;
}

/** `addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256` as raw upper-case text. */
function stdAddressText(c: BitCursor): string {
  if (c.uint(2) !== 2) throw new CursorError('not an addr_std');
  if (c.bit()) throw new CursorError('anycast address');
  const workchain = c.int(8);
  return `${workchain}:${c.bytes(32).toString('hex').toUpperCase()}`;
}

/** `addr_none$00` or `addr_extern$01 len:(## 9) external_address:(bits len)`: skipped (the rows keep no external address). */
function skipMaybeExternalAddress(c: BitCursor): void {
  const tag = c.uint(2);
  if (tag === 0) return;
  if (tag !== 1) throw new CursorError('not an external address');
  c.skip(c.uint(9));
}

/** `CurrencyCollection` without extra currencies (with them: CursorError, the slow path writes their JSON). */
function plainCoins(c: BitCursor): bigint {
  const coins = c.coins();
  if (c.bit()) throw new CursorError('extra currencies');
  return coins;
}

function statusChange(c: BitCursor): StatusChange {
  if (!c.bit()) return 'unchanged';
  return c.bit() ? 'deleted' : 'frozen';
}

/** `StateInit` as @ton/core's loadStateInit gives it (no libraries: CursorError). */
function stateInitOf(c: BitCursor): StateInit {
  const splitDepth = c.bit() ? c.uint(5) : undefined;
  const special = c.bit() ? { tick: c.bit(), tock: c.bit() } : undefined;
  const code = c.maybeRef();
  const data = c.maybeRef();
  if (c.bit()) throw new CursorError('libraries');
  return { splitDepth, special, code, data };
}

function parseMessageFast(cell: Cell, direction: 'in' | 'out', tx: { hash: Buffer; lt: bigint }, mcSeqno: number): ParsedMessage {
  const c = new BitCursor(cell);
  let source: string | null = null;
  let destination: string | null = null;
  let value: bigint | null = null;
  let ihrFee: bigint | null = null;
  let fwdFee: bigint | null = null;
  let createdLt: bigint | null = null;
  let createdAt: number | null = null;
  let ihrDisabled: boolean | null = null;
  let bounce: boolean | null = null;
  let bounced: boolean | null = null;
  let importFee: bigint | null = null;
  let internal = false;
  let externalIn = false;
  if (!c.bit()) {
    internal = true;
    ihrDisabled = c.bit();
    bounce = c.bit();
    bounced = c.bit();
    source = stdAddressText(c);
    destination = stdAddressText(c);
    value = plainCoins(c);
    ihrFee = c.coins();
    fwdFee = c.coins();
    createdLt = c.uintBig(64);
    createdAt = c.uint(32);
  } else if (!c.bit()) {
    externalIn = true;
    skipMaybeExternalAddress(c);
    destination = stdAddressText(c);
    importFee = c.coins();
  } else {
    source = stdAddressText(c);
    skipMaybeExternalAddress(c);
    createdLt = c.uintBig(64);
    createdAt = c.uint(32);
  }
  let init: StateInit | null = null;
  if (c.bit()) init = c.bit() ? stateInitOf(new BitCursor(c.ref())) : stateInitOf(c);
  let body: Cell;
  if (c.bit()) body = c.ref();
  else {
    // The body inline: the rest of the cell, as @ton/core's `slice.asCell()` makes it.
    const rest = cell.beginParse();
    rest.skip(c.offset);
    for (let i = 0; i < c.refsRead; i++) rest.loadRef();
    body = rest.asCell();
  }
  const bodyHash = body.hash();
  const contents: MessageContentRow[] = [{ hash: bodyHash, body: bodyBoc(body, bodyHash) }];
  let initHash: Buffer | null = null;
  if (init) {
    const initCell = beginCell().store(storeStateInit(init)).endCell();
    initHash = initCell.hash();
    contents.push({ hash: initHash, body: initCell.toBoc() });
  }
  const head = new BitCursor(body);
  const row: MessageRow = {
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    mc_seqno: mcSeqno,
    msg_hash: cell.hash(),
    msg_hash_norm: externalIn ? normalizeExternalMessage(cell).hash() : null,
    direction,
    trace_id: null,
    source,
    destination,
    value,
    value_extra_currencies: null,
    fwd_fee: fwdFee,
    ihr_fee: ihrFee,
    extra_flags: null,
    created_lt: createdLt,
    created_at: createdAt,
    opcode: head.remainingBits >= 32 ? head.int(32) : null,
    ihr_disabled: ihrDisabled,
    bounce,
    bounced,
    import_fee: importFee,
    body_hash: bodyHash,
    init_state_hash: initHash,
  };
  return { row, contents, internal, body };
}

/** The columns of a transaction's description (`TransactionDescr`), the rest of the row null. */
type DescrColumns = Omit<
  TransactionRow,
  'account' | 'hash' | 'lt' | 'block_workchain' | 'block_shard' | 'block_seqno' | 'mc_block_seqno' | 'trace_id' | 'prev_trans_hash' | 'prev_trans_lt' | 'now' | 'orig_status' | 'end_status' | 'total_fees' | 'total_fees_extra_currencies' | 'account_state_hash_before' | 'account_state_hash_after'
>;

function emptyDescr(descr: TransactionRow['descr']): DescrColumns {
  return {
    descr,
    aborted: null,
    destroyed: null,
    credit_first: null,
    is_tock: null,
    installed: null,
    storage_fees_collected: null,
    storage_fees_due: null,
    storage_status_change: null,
    credit_due_fees_collected: null,
    credit: null,
    credit_extra_currencies: null,
    ...NO_COMPUTE_COLUMNS,
    action_success: null,
    action_valid: null,
    action_no_funds: null,
    action_status_change: null,
    action_total_fwd_fees: null,
    action_total_action_fees: null,
    action_result_code: null,
    action_result_arg: null,
    action_tot_actions: null,
    action_spec_actions: null,
    action_skipped_actions: null,
    action_msgs_created: null,
    action_action_list_hash: null,
    action_tot_msg_size_cells: null,
    action_tot_msg_size_bits: null,
    bounce: null,
    bounce_msg_size_cells: null,
    bounce_msg_size_bits: null,
    bounce_req_fwd_fees: null,
    bounce_msg_fees: null,
    bounce_fwd_fees: null,
    split_info_cur_shard_pfx_len: null,
    split_info_acc_split_depth: null,
    split_info_this_addr: null,
    split_info_sibling_addr: null,
  };
}

/** `tr_phase_storage$_ storage_fees_collected:Grams storage_fees_due:(Maybe Grams) status_change:AccStatusChange` */
function storagePhase(c: BitCursor, d: DescrColumns): void {
  d.storage_fees_collected = c.coins();
  d.storage_fees_due = c.bit() ? c.coins() : null;
  d.storage_status_change = statusChange(c);
}

/** `tr_phase_credit$_ due_fees_collected:(Maybe Grams) credit:CurrencyCollection` */
function creditPhase(c: BitCursor, d: DescrColumns): void {
  d.credit_due_fees_collected = c.bit() ? c.coins() : null;
  d.credit = plainCoins(c);
}

/** `TrComputePhase`: skipped (a reason) or the VM's run (its details in a ref). */
function computePhase(c: BitCursor, d: DescrColumns): void {
  if (!c.bit()) {
    const reason = c.uint(2);
    if (reason === 3) throw new CursorError('compute skip reason');
    d.compute_skipped = true;
    d.skipped_reason = reason === 0 ? 'no_state' : reason === 1 ? 'bad_state' : 'no_gas';
    return;
  }
  d.compute_skipped = false;
  d.compute_success = c.bit();
  d.compute_msg_state_used = c.bit();
  d.compute_account_activated = c.bit();
  d.compute_gas_fees = c.coins();
  const vm = new BitCursor(c.ref());
  d.compute_gas_used = vm.varUint(3);
  d.compute_gas_limit = vm.varUint(3);
  d.compute_gas_credit = vm.bit() ? vm.varUint(2) : null;
  d.compute_mode = vm.uint(8);
  d.compute_exit_code = vm.int(32);
  d.compute_exit_arg = vm.bit() ? vm.int(32) : null;
  d.compute_vm_steps = BigInt(vm.uint(32));
  d.compute_vm_init_state_hash = vm.bytes(32);
  d.compute_vm_final_state_hash = vm.bytes(32);
}

/** `(Maybe ^TrActionPhase)` */
function maybeActionPhase(c: BitCursor, d: DescrColumns): void {
  if (!c.bit()) return;
  const a = new BitCursor(c.ref());
  d.action_success = a.bit();
  d.action_valid = a.bit();
  d.action_no_funds = a.bit();
  d.action_status_change = statusChange(a);
  d.action_total_fwd_fees = a.bit() ? a.coins() : null;
  d.action_total_action_fees = a.bit() ? a.coins() : null;
  d.action_result_code = a.int(32);
  d.action_result_arg = a.bit() ? a.int(32) : null;
  d.action_tot_actions = a.uint(16);
  d.action_spec_actions = a.uint(16);
  d.action_skipped_actions = a.uint(16);
  d.action_msgs_created = a.uint(16);
  d.action_action_list_hash = a.bytes(32);
  d.action_tot_msg_size_cells = a.varUint(3);
  d.action_tot_msg_size_bits = a.varUint(3);
}

/** `(Maybe TrBouncePhase)` */
function maybeBouncePhase(c: BitCursor, d: DescrColumns): void {
  if (!c.bit()) return;
  let type: BounceType;
  if (c.bit()) {
    type = 'ok';
    d.bounce_msg_size_cells = c.varUint(3);
    d.bounce_msg_size_bits = c.varUint(3);
    d.bounce_msg_fees = c.coins();
    d.bounce_fwd_fees = c.coins();
  } else if (c.bit()) {
    type = 'nofunds';
    d.bounce_msg_size_cells = c.varUint(3);
    d.bounce_msg_size_bits = c.varUint(3);
    d.bounce_req_fwd_fees = c.coins();
  } else {
    type = 'negfunds';
  }
  d.bounce = type;
}

/** `split_merge_info$_ cur_shard_pfx_len:(## 6) acc_split_depth:(## 6) this_addr:bits256 sibling_addr:bits256` */
function splitInfo(c: BitCursor, d: DescrColumns, workchain: number): void {
  d.split_info_cur_shard_pfx_len = c.uint(6);
  d.split_info_acc_split_depth = c.uint(6);
  d.split_info_this_addr = `${workchain}:${c.bytes(32).toString('hex').toUpperCase()}`;
  d.split_info_sibling_addr = `${workchain}:${c.bytes(32).toString('hex').toUpperCase()}`;
}

function descrColumns(c: BitCursor, workchain: number): DescrColumns {
  const type = c.uint(4);
  if (type === 0) {
    const d = emptyDescr('ord');
    d.credit_first = c.bit();
    if (c.bit()) storagePhase(c, d);
    if (c.bit()) creditPhase(c, d);
    computePhase(c, d);
    maybeActionPhase(c, d);
    d.aborted = c.bit();
    maybeBouncePhase(c, d);
    d.destroyed = c.bit();
    return d;
  }
  if (type === 1) {
    const d = emptyDescr('storage');
    storagePhase(c, d);
    return d;
  }
  if (type === 2 || type === 3) {
    const d = emptyDescr('tick_tock');
    d.is_tock = type === 3;
    storagePhase(c, d);
    computePhase(c, d);
    maybeActionPhase(c, d);
    d.aborted = c.bit();
    d.destroyed = c.bit();
    return d;
  }
  if (type === 4) {
    const d = emptyDescr('split_prepare');
    splitInfo(c, d, workchain);
    if (c.bit()) storagePhase(c, d);
    computePhase(c, d);
    maybeActionPhase(c, d);
    d.aborted = c.bit();
    d.destroyed = c.bit();
    return d;
  }
  throw new CursorError(`transaction description ${type}`);
}

function parseTransactionFast(cell: Cell, workchain: number, block: BlockRef, mcSeqno: number): ParsedTransaction {
  const c = new BitCursor(cell);
  if (c.uint(4) !== 0x07) throw new CursorError('not a transaction');
  const accountId = c.bytes(32);
  const lt = c.uintBig(64);
  const prevHash = c.bytes(32);
  const prevLt = c.uintBig(64);
  const now = c.uint(32);
  c.skip(15); // outmsg_cnt
  const origStatus = STATUS_BY_BITS[c.uint(2)]!;
  const endStatus = STATUS_BY_BITS[c.uint(2)]!;
  const messages = new BitCursor(c.ref());
  const totalFees = plainCoins(c);
  const update = new BitCursor(c.ref());
  if (update.uint(8) !== 0x72) throw new CursorError('not a HASH_UPDATE');
  const stateBefore = update.bytes(32);
  const stateAfter = update.bytes(32);
  const descr = descrColumns(new BitCursor(c.ref()), workchain);
  const inCell = messages.maybeRef();
  const outRoot = messages.maybeRef();
  if (messages.remainingBits !== 0 || messages.remainingRefs !== 0) throw new CursorError('extra data after out_msgs');
  const address = new Address(workchain, accountId);
  const hash = cell.hash();
  const row: TransactionRow = {
    account: `${workchain}:${accountId.toString('hex').toUpperCase()}`,
    hash,
    lt,
    block_workchain: block.workchain,
    block_shard: BigInt(block.shard),
    block_seqno: block.seqno,
    mc_block_seqno: mcSeqno,
    trace_id: null,
    prev_trans_hash: prevHash,
    prev_trans_lt: prevLt,
    now,
    orig_status: origStatus,
    end_status: endStatus,
    total_fees: totalFees,
    total_fees_extra_currencies: null,
    account_state_hash_before: stateBefore,
    account_state_hash_after: stateAfter,
    ...descr,
  };
  const ref = { hash, lt };
  const outMessages: ParsedMessage[] = [];
  // Leaves come in ascending key order (out_msgs is keyed by the message's index).
  forEachDictLeafCursor(outRoot, 15, (leaf) => {
    outMessages.push(parseMessageFast(leaf.ref(), 'out', ref, mcSeqno));
  });
  return { row, address, inMessage: inCell ? parseMessageFast(inCell, 'in', ref, mcSeqno) : null, outMessages };
}

/** A transaction's rows: the byte-level reader, or @ton/core's object model for what that reader does not take. */
export function parseTransaction(cell: Cell, workchain: number, block: BlockRef, mcSeqno: number): ParsedTransaction {
  try {
    return parseTransactionFast(cell, workchain, block, mcSeqno);
  } catch {
    // CursorError (a layout left to @ton/core) or a malformed cell: @ton/core parses it or says what is wrong.
    return parseTransactionSlow(cell, workchain, block, mcSeqno);
  }
}

/** The @ton/core parse alone (tests compare it with parseTransaction). */
export { parseTransactionSlow };

/** Parses verified block `id` (root: its BoC's root cell), indexed as part of masterchain block `mcSeqno`. */
export function parseBlock(id: BlockRef, root: Cell, mcSeqno: number): ParsedBlock {
  const block = loadBlock(root.beginParse());
  const info = block.info;
  const transactions: ParsedTransaction[] = [];
  // `ShardAccountBlocks` (HashmapAugE 256 AccountBlock CurrencyCollection) read with a cursor: the
  // keys and the aug extras are not needed, only each transaction's cell.
  if (block.extra.accountBlocks.isExotic) throw new Error('ShardAccountBlocks: a pruned cell');
  const accountBlocks = new BitCursor(block.extra.accountBlocks);
  forEachDictLeafCursor(accountBlocks.maybeRef(), 256, (leaf) => {
    skipCurrencyCollection(leaf); // the account's aug extra
    // `acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection) state_update:^(HASH_UPDATE Account)`
    const tag = leaf.uint(4);
    if (tag !== 5) throw new Error(`AccountBlock: expected tag 0x5, got 0x${tag.toString(16)}`);
    leaf.skip(256);
    forEachDictLeafCursor(leaf, 64, (value) => {
      skipCurrencyCollection(value);
      transactions.push(parseTransaction(value.ref(), id.workchain, id, mcSeqno));
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
