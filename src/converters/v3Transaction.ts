import { type Account, Address, type Cell, Dictionary, type CurrencyCollection, loadAccount, loadTransaction, type Transaction } from '@ton/core';
import type { TransactionDescriptionGeneric } from '@ton/core/dist/types/TransactionDescription';
import { rawAddressUpper } from './address';
import { normalizeExternalMessage } from './extMessage';
import { parseMessageCell, type ParsedMessageCell } from './message';

/**
 * Transactions, messages and account states in toncenter v3's shape (ton-index-go's `Transaction`,
 * `Message`, `AccountState` models): raw upper-case addresses, base64 hashes, 64-bit numbers as
 * decimal strings, opcodes as `0x%08x`. Pure functions of the cells; the caller adds where the
 * transaction sits (block, masterchain seqno, trace) through `V3TransactionPlace`.
 */

export interface V3MessageContentJson {
  hash: string;
  body: string;
  decoded: null;
}

export interface V3MessageJson {
  hash: string;
  source: string | null;
  destination: string | null;
  value: string | null;
  value_extra_currencies: Record<string, string>;
  fwd_fee: string | null;
  ihr_fee: string | null;
  extra_flags: string | null;
  created_lt: string | null;
  created_at: string | null;
  opcode: string | null;
  decoded_opcode: null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: string | null;
  message_content: V3MessageContentJson;
  init_state: V3MessageContentJson | null;
  hash_norm?: string;
}

export interface V3AccountStateJson {
  hash: string;
  balance: string | null;
  extra_currencies: Record<string, string>;
  account_status: string | null;
  frozen_hash: string | null;
  data_hash: string | null;
  code_hash: string | null;
}

export interface V3BlockRefJson {
  workchain: number;
  shard: string;
  seqno: number;
}

type Phases = Record<string, unknown>;

export interface V3TransactionDescriptionJson {
  type: string;
  aborted?: boolean;
  destroyed?: boolean;
  credit_first?: boolean;
  is_tock?: boolean;
  installed?: boolean;
  storage_ph?: Phases;
  credit_ph?: Phases;
  compute_ph?: Phases;
  action?: Phases;
  bounce?: Phases;
}

export interface V3TransactionJson {
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  trace_id?: string;
  trace_external_hash?: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  orig_status: string;
  end_status: string;
  total_fees: string;
  total_fees_extra_currencies: Record<string, string>;
  description: V3TransactionDescriptionJson;
  block_ref: V3BlockRefJson;
  in_msg: V3MessageJson | null;
  out_msgs: V3MessageJson[];
  account_state_before: V3AccountStateJson | null;
  account_state_after: V3AccountStateJson | null;
  emulated: boolean;
  finality: 'pending' | 'confirmed' | 'finalized';
}

/** Where a transaction sits: what the cells do not say. */
export interface V3TransactionPlace {
  mcBlockSeqno: number;
  blockRef: V3BlockRefJson;
  traceId?: string;
  traceExternalHash?: string;
  emulated: boolean;
  finality: V3TransactionJson['finality'];
}

const b64 = (hash: Buffer): string => hash.toString('base64');

/** ton-index-go prints a shard as the upper-case hex of its unsigned 64-bit value. */
export function v3ShardId(shard: bigint | string): string {
  return BigInt.asUintN(64, BigInt(shard)).toString(16).toUpperCase();
}

function hash256(value: bigint): string {
  return b64(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));
}

function extraCurrencies(value: CurrencyCollection | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, amount] of value?.other ?? []) out[String(id)] = amount.toString();
  return out;
}

function addressOrNull(address: unknown): string | null {
  return address instanceof Address ? rawAddressUpper(address) : null;
}

/** The first 32 bits of a body, as ton-index-go prints an opcode; null for a shorter body. */
export function v3Opcode(body: Cell): string | null {
  if (body.bits.length < 32) return null;
  return `0x${body.beginParse().loadUint(32).toString(16).padStart(8, '0')}`;
}

function content(cell: Cell): V3MessageContentJson {
  return { hash: b64(cell.hash()), body: cell.toBoc().toString('base64'), decoded: null };
}

export function toV3Message(message: Cell | ParsedMessageCell): V3MessageJson {
  const parsed = 'info' in message ? message : parseMessageCell(message);
  const info = parsed.info;
  // Inbound external messages carry their TEP-467 normalized hash, as in ton-index-go.
  const hashNorm = info.type === 'external-in' ? normalizeExternalMessage(parsed.cell).hash() : undefined;
  const base = {
    hash: b64(parsed.hash),
    value_extra_currencies: {} as Record<string, string>,
    opcode: v3Opcode(parsed.body),
    decoded_opcode: null,
    message_content: content(parsed.body),
    init_state: parsed.init ? content(parsed.init) : null,
    ...(hashNorm ? { hash_norm: b64(hashNorm) } : {}),
  };
  const none = { fwd_fee: null, ihr_fee: null, extra_flags: null, ihr_disabled: null, bounce: null, bounced: null };
  if (info.type === 'internal') {
    return {
      ...base,
      source: addressOrNull(info.src),
      destination: addressOrNull(info.dest),
      value: info.value.coins.toString(),
      value_extra_currencies: extraCurrencies(info.value),
      fwd_fee: info.forwardFee.toString(),
      ihr_fee: info.ihrFee.toString(),
      // The same field: TL-B now reads the old ihr_fee's bits as extra_flags.
      extra_flags: info.ihrFee.toString(),
      created_lt: info.createdLt.toString(),
      created_at: String(info.createdAt),
      ihr_disabled: info.ihrDisabled,
      bounce: info.bounce,
      bounced: info.bounced,
      import_fee: null,
    };
  }
  if (info.type === 'external-in') {
    return { ...base, ...none, source: null, destination: addressOrNull(info.dest), value: null, created_lt: null, created_at: null, import_fee: info.importFee.toString() };
  }
  return {
    ...base,
    ...none,
    source: addressOrNull(info.src),
    destination: null,
    value: null,
    created_lt: info.createdLt.toString(),
    created_at: String(info.createdAt),
    import_fee: null,
  };
}

function statusOfAccount(account: Account | null): string {
  if (!account) return 'nonexist';
  const state = account.storage.state;
  return state.type === 'uninit' ? 'uninit' : state.type;
}

/** The account state a transaction started or ended on, from its `Account` cell (`account_none` too). */
export function toV3AccountState(accountCell: Cell): V3AccountStateJson {
  const slice = accountCell.beginParse();
  const account = slice.loadBit() ? loadAccount(slice) : null;
  const state = account?.storage.state;
  return {
    hash: b64(accountCell.hash()),
    balance: account ? account.storage.balance.coins.toString() : null,
    extra_currencies: extraCurrencies(account?.storage.balance),
    account_status: statusOfAccount(account),
    frozen_hash: state?.type === 'frozen' ? hash256(state.stateHash) : null,
    data_hash: state?.type === 'active' && state.state.data ? b64(state.state.data.hash()) : null,
    code_hash: state?.type === 'active' && state.state.code ? b64(state.state.code.hash()) : null,
  };
}

const ACCOUNT_STATUS: Record<Transaction['oldStatus'], string> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  'non-existing': 'nonexist',
};

const STATUS_CHANGE: Record<string, string> = { unchanged: 'unchanged', frozen: 'frozen', deleted: 'deleted' };
const SKIP_REASON: Record<string, string> = { 'no-state': 'no_state', 'bad-state': 'bad_state', 'no-gas': 'no_gas', suspended: 'suspended' };

function optionalString(value: bigint | number | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : value.toString();
}

function describeGeneric(d: TransactionDescriptionGeneric, type: string): V3TransactionDescriptionJson {
  const out: V3TransactionDescriptionJson = {
    type,
    aborted: d.aborted,
    destroyed: d.destroyed,
    credit_first: d.creditFirst,
    is_tock: false,
    installed: false,
  };
  if (d.storagePhase) {
    out.storage_ph = {
      storage_fees_collected: d.storagePhase.storageFeesCollected.toString(),
      ...(d.storagePhase.storageFeesDue != null ? { storage_fees_due: d.storagePhase.storageFeesDue.toString() } : {}),
      status_change: STATUS_CHANGE[d.storagePhase.statusChange] ?? d.storagePhase.statusChange,
    };
  }
  if (d.creditPhase) {
    const due = d.creditPhase.dueFeesColelcted;
    out.credit_ph = {
      ...(due != null ? { due_fees_collected: due.toString() } : {}),
      credit: d.creditPhase.credit.coins.toString(),
      credit_extra_currencies: extraCurrencies(d.creditPhase.credit),
    };
  }
  const compute = d.computePhase;
  if (compute.type === 'skipped') {
    out.compute_ph = { skipped: true, reason: SKIP_REASON[compute.reason] ?? compute.reason };
  } else {
    out.compute_ph = {
      skipped: false,
      success: compute.success,
      msg_state_used: compute.messageStateUsed,
      account_activated: compute.accountActivated,
      gas_fees: compute.gasFees.toString(),
      gas_used: compute.gasUsed.toString(),
      gas_limit: compute.gasLimit.toString(),
      ...(compute.gasCredit != null ? { gas_credit: compute.gasCredit.toString() } : {}),
      mode: compute.mode,
      exit_code: compute.exitCode,
      ...(compute.exitArg != null ? { exit_arg: compute.exitArg } : {}),
      vm_steps: compute.vmSteps,
      vm_init_state_hash: hash256(compute.vmInitStateHash),
      vm_final_state_hash: hash256(compute.vmFinalStateHash),
    };
  }
  const action = d.actionPhase;
  if (action) {
    out.action = {
      success: action.success,
      valid: action.valid,
      no_funds: action.noFunds,
      status_change: STATUS_CHANGE[action.statusChange] ?? action.statusChange,
      total_fwd_fees: optionalString(action.totalFwdFees),
      total_action_fees: optionalString(action.totalActionFees),
      result_code: action.resultCode,
      ...(action.resultArg != null ? { result_arg: action.resultArg } : {}),
      tot_actions: action.totalActions,
      spec_actions: action.specActions,
      skipped_actions: action.skippedActions,
      msgs_created: action.messagesCreated,
      action_list_hash: hash256(action.actionListHash),
      tot_msg_size: { cells: action.totalMessageSize.cells.toString(), bits: action.totalMessageSize.bits.toString() },
    };
  }
  const bounce = d.bouncePhase;
  if (bounce) {
    if (bounce.type === 'negative-funds') out.bounce = { type: 'negfunds' };
    else if (bounce.type === 'no-funds') {
      out.bounce = {
        type: 'nofunds',
        msg_size: { cells: bounce.messageSize.cells.toString(), bits: bounce.messageSize.bits.toString() },
        req_fwd_fees: bounce.requiredForwardFees.toString(),
      };
    } else {
      out.bounce = {
        type: 'ok',
        msg_size: { cells: bounce.messageSize.cells.toString(), bits: bounce.messageSize.bits.toString() },
        msg_fees: bounce.messageFees.toString(),
        fwd_fees: bounce.forwardFees.toString(),
      };
    }
  }
  return out;
}

function describe(tx: Transaction): V3TransactionDescriptionJson {
  const d = tx.description;
  switch (d.type) {
    case 'generic':
      return describeGeneric(d, 'ord');
    case 'tick-tock':
      return { type: 'tick_tock', aborted: d.aborted, destroyed: d.destroyed, is_tock: d.isTock };
    default:
      return { type: d.type };
  }
}

/**
 * One transaction in v3's shape. `before` and `after` are the account's `Account` cells around
 * it (their hashes are the transaction's state_update hashes); null leaves the states out.
 */
export function toV3Transaction(
  txCell: Cell,
  workchain: number,
  place: V3TransactionPlace,
  states: { before: Cell; after: Cell } | null,
): V3TransactionJson {
  const tx = loadTransaction(txCell.beginParse());
  const address = new Address(workchain, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
  const messages = txCell.refs[0]!.beginParse();
  const inMessage = messages.loadMaybeRef();
  const outCells = messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outMessages = [...outCells.keys()].sort((a, b) => a - b).map((key) => toV3Message(outCells.get(key) as Cell));
  // ton-index-go sorts a transaction's out messages by created_lt.
  outMessages.sort((a, b) => (BigInt(a.created_lt ?? 0) < BigInt(b.created_lt ?? 0) ? -1 : BigInt(a.created_lt ?? 0) > BigInt(b.created_lt ?? 0) ? 1 : 0));
  return {
    account: rawAddressUpper(address),
    hash: b64(txCell.hash()),
    lt: tx.lt.toString(),
    now: tx.now,
    mc_block_seqno: place.mcBlockSeqno,
    ...(place.traceId ? { trace_id: place.traceId } : {}),
    ...(place.traceExternalHash ? { trace_external_hash: place.traceExternalHash } : {}),
    prev_trans_hash: hash256(tx.prevTransactionHash),
    prev_trans_lt: tx.prevTransactionLt.toString(),
    orig_status: ACCOUNT_STATUS[tx.oldStatus],
    end_status: ACCOUNT_STATUS[tx.endStatus],
    total_fees: tx.totalFees.coins.toString(),
    total_fees_extra_currencies: extraCurrencies(tx.totalFees),
    description: describe(tx),
    block_ref: place.blockRef,
    in_msg: inMessage ? toV3Message(inMessage) : null,
    out_msgs: outMessages,
    account_state_before: states ? toV3AccountState(states.before) : null,
    account_state_after: states ? toV3AccountState(states.after) : null,
    emulated: place.emulated,
    finality: place.finality,
  };
}
