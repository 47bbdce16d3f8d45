import { Address, Cell, Dictionary, loadMessageRelaxed } from '@ton/core';
import { loadSnakeBytes, rawAddressUpper } from '../../converters';
import { loadJettonBurn, loadJettonTransfer, loadNftTransfer, OP, type MsgAddress } from '../../tlb';
import type { MultisigDbRow, MultisigOrderDbRow, VestingDbRow } from '../sql/multisigVesting';
import { b64, num, str64 } from './format';

/** ton-index-go's models.MultisigOrder, models.Multisig and models.VestingInfo. */

const SEND_MESSAGE = 0xf1381e5b;
const UPDATE_PARAMS = 0x1d0cfbd3;

/** One entry of an order's actions, as ton-index-go's OrderAction (parse_actions). */
export interface OrderActionJson {
  destination: string | null;
  value: string | null;
  body_raw: string | null;
  parsed: boolean;
  error: string | null;
  parsed_body: Record<string, unknown> | null;
  parsed_body_type: string;
  send_mode: number;
}

function addressDict(cell: Cell | null): string[] | null {
  if (!cell) return null;
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
  return [...dict.keys()].sort((a, b) => a - b).map((k) => rawAddressUpper(dict.get(k)!));
}

const boc = (cell: Cell | null): string | null => (cell ? cell.toBoc().toString('base64') : null);
const addr = (a: MsgAddress): string | null => (a instanceof Address ? rawAddressUpper(a) : null);
/** Go's uint64 query id is a JSON number. */
const queryNumber = (q: bigint): number => Number(q);

/** parseForwardPayload: the payload's kind and comment, as ton-index-go names them. */
function forwardPayloadFields(payload: Cell): { payload_sum_type: string; comment: string; encrypted_comment: boolean } {
  const s = payload.beginParse(true);
  if (s.remainingBits === 0) return { payload_sum_type: '', comment: '', encrypted_comment: false };
  if (s.remainingBits < 32) return { payload_sum_type: 'Unknown', comment: '', encrypted_comment: false };
  const op = s.loadUint(32);
  const text = () => {
    try {
      return loadSnakeBytes(s)?.toString('utf8') ?? '';
    } catch {
      return '';
    }
  };
  if (op === 0) return { payload_sum_type: 'TextComment', comment: text(), encrypted_comment: false };
  if (op === OP.encryptedComment) return { payload_sum_type: 'EncryptedTextComment', comment: text(), encrypted_comment: true };
  // STON.fi swap payloads (0x25938561) are read there; here they stay `Unknown`.
  return { payload_sum_type: 'Unknown', comment: '', encrypted_comment: false };
}

/**
 * A sent message's body as ton-index-go's parseMessageBody reads it, for the standard cases: none
 * or a comment is a `ton_transfer` (its reader takes the comment from the body's first bit, so the
 * four zero bytes of the opcode lead the text, as there); TEP-74 transfer and burn, TEP-62
 * transfer; anything else `unknown` with its opcode and BoC. (ton-index-go also parses jetton
 * admin, minter, nominator and vesting bodies here; we give those as `unknown`.)
 */
function parsedBody(body: Cell): { type: string; body: Record<string, unknown> } {
  const s = body.beginParse(true);
  const op = s.remainingBits >= 32 ? s.preloadUint(32) : null;
  if (op === null || op === 0) {
    let comment = '';
    if (s.remainingBits >= 8 && s.remainingBits % 8 === 0 && s.remainingRefs <= 1) comment = loadSnakeBytes(s)?.toString('utf8') ?? '';
    return { type: 'ton_transfer', body: { comment, encrypted: false } };
  }
  try {
    if (op === OP.jettonTransfer) {
      const t = loadJettonTransfer(s);
      const payload = forwardPayloadFields(t.forwardPayload.cell);
      // Keys in models.JettonTransferBody's order.
      return {
        type: 'jetton_transfer',
        body: {
          query_id: queryNumber(t.queryId),
          amount: t.amount.toString(),
          destination: addr(t.destination),
          response: addr(t.responseDestination),
          custom_payload: boc(t.customPayload),
          forward_amount: t.forwardTonAmount.toString(),
          comment: payload.comment,
          encrypted_comment: payload.encrypted_comment,
          forward_payload: boc(t.forwardPayload.cell),
          payload_sum_type: payload.payload_sum_type,
          stonfi_swap_body: null,
        },
      };
    }
    if (op === OP.jettonBurn) {
      const b = loadJettonBurn(s);
      return { type: 'jetton_burn', body: { query_id: queryNumber(b.queryId), amount: b.amount.toString(), response_destination: addr(b.responseDestination) } };
    }
    if (op === OP.nftTransfer) {
      const t = loadNftTransfer(s);
      return {
        type: 'nft_transfer',
        body: {
          query_id: queryNumber(t.queryId),
          new_owner: addr(t.newOwner),
          response_destination: addr(t.responseDestination),
          custom_payload: boc(t.customPayload),
          forward_amount: t.forwardAmount.toString(),
          forward_payload: boc(t.forwardPayload.cell),
        },
      };
    }
  } catch {
    // A body that does not read as its opcode's scheme: ton-index-go's fallback, an unknown
    // message with its data and no opcode.
    return { type: 'unknown', body: { opcode: 0, data: body.toBoc().toString('base64') } };
  }
  return { type: 'unknown', body: { opcode: op, data: body.toBoc().toString('base64') } };
}

function orderAction(cell: Cell): OrderActionJson {
  const s = cell.beginParse(true);
  const type = s.loadUint(32);
  if (type === SEND_MESSAGE) {
    const mode = s.loadUint(8);
    const message = loadMessageRelaxed(s.loadRef().beginParse(true));
    const parsed = parsedBody(message.body);
    return {
      destination: message.info.dest && 'hash' in message.info.dest ? rawAddressUpper(message.info.dest) : null,
      value: message.info.type === 'internal' ? message.info.value.coins.toString() : '0',
      body_raw: message.body.toBoc().toString('base64'),
      parsed: true,
      error: null,
      parsed_body: parsed.body,
      parsed_body_type: parsed.type,
      send_mode: mode,
    };
  }
  if (type === UPDATE_PARAMS) {
    const threshold = s.loadUint(8);
    const signers = addressDict(s.loadRef());
    const proposers = addressDict(s.loadMaybeRef());
    return {
      destination: null,
      value: null,
      body_raw: null,
      parsed: true,
      error: null,
      parsed_body: { new_threshold: threshold, new_signers: signers, new_proposers: proposers },
      parsed_body_type: 'multisig_update_params',
      send_mode: 0,
    };
  }
  throw new Error(`unknown order action type: ${type}`);
}

/** ParseOrder: the order's actions dictionary (Hashmap 8 ^Action), each parsed or marked failed. */
export function parseOrderActions(orderBoc: string): OrderActionJson[] | null {
  let dict: Dictionary<number, Cell>;
  try {
    dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), Cell.fromBase64(orderBoc));
  } catch {
    return null;
  }
  return [...dict.keys()]
    .sort((a, b) => a - b)
    .map((k) => {
      try {
        return orderAction(dict.get(k)!);
      } catch (err) {
        const error = `failed to parse order action: ${(err as Error).message}`;
        return { destination: null, value: null, body_raw: null, parsed: false, error, parsed_body: null, parsed_body_type: 'unknown', send_mode: 0 };
      }
    });
}

export function toMultisigOrderJson(row: MultisigOrderDbRow, actions: OrderActionJson[] | null) {
  return {
    address: row.address,
    multisig_address: row.multisig_address,
    order_seqno: row.order_seqno,
    threshold: num(row.threshold),
    sent_for_execution: row.sent_for_execution,
    approvals_mask: row.approvals_mask,
    approvals_num: num(row.approvals_num),
    expiration_date: num(row.expiration_date),
    order_boc: row.order_boc,
    signers: row.signers,
    last_transaction_lt: str64(row.last_transaction_lt),
    code_hash: b64(row.code_hash),
    data_hash: b64(row.data_hash),
    actions,
  };
}

export type MultisigOrderJson = ReturnType<typeof toMultisigOrderJson>;

/** `orders` is null for a multisig with none when they were asked for (Go's nil slice), [] when not asked. */
export function toMultisigJson(row: MultisigDbRow, orders: MultisigOrderJson[] | null) {
  return {
    address: row.address,
    next_order_seqno: row.next_order_seqno,
    threshold: num(row.threshold),
    signers: row.signers,
    proposers: row.proposers,
    last_transaction_lt: str64(row.last_transaction_lt),
    code_hash: b64(row.code_hash),
    data_hash: b64(row.data_hash),
    orders,
  };
}

export function toVestingJson(row: VestingDbRow, whitelist: string[]) {
  return {
    address: row.address,
    start_time: row.vesting_start_time,
    total_duration: row.vesting_total_duration,
    unlock_period: row.unlock_period,
    cliff_duration: row.cliff_duration,
    sender_address: row.vesting_sender_address,
    owner_address: row.owner_address,
    total_amount: row.vesting_total_amount,
    whitelist,
  };
}
