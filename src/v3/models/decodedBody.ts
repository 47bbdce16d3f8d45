import { Address, Cell, Dictionary, ExternalAddress, Slice } from '@ton/core';
import { rawAddressUpper } from '../../converters';
import {
  bodyOpcode,
  isEmptyPayload,
  loadDnsChangeRecord,
  loadElectorNewStake,
  loadExcesses,
  loadJettonBurn,
  loadJettonBurnNotification,
  loadJettonInternalTransfer,
  loadJettonMint,
  loadJettonTransfer,
  loadJettonTransferNotification,
  loadMultisigApprove,
  loadMultisigExecute,
  loadMultisigNewOrder,
  loadMultisigOrderInit,
  loadNftOwnershipAssigned,
  loadNftTransfer,
  loadQueryIdOnly,
  loadTextComment,
  loadVestingAddWhitelist,
  loadVestingSendMessage,
  OP,
  type EitherPayload,
  type MsgAddress,
} from '../../tlb';

/**
 * The `decode` route's converters: an opcode to its scheme name, a body to a JSON object with its
 * scheme name in `@type` and its fields by their TL-B names, as ton-index-go's marker library
 * answers. A body we cannot read is `{"error": "unknown: ..."}`, never a failure of the request.
 */

export type DecodedBody = Record<string, unknown>;

interface BodyScheme {
  readonly name: string;
  decode(s: Slice, depth: number): DecodedBody;
}

/** How deep nested payloads (forward payloads, custom payloads) are decoded (as marker: 10). */
const MAX_NESTING = 10;

function address(value: MsgAddress): string | null {
  if (value === null) return null;
  if (Address.isAddress(value)) return rawAddressUpper(value);
  return (value as ExternalAddress).toString();
}

/** A payload cell: decoded when one of our schemes reads it, else its BoC in base64. */
function nestedCell(cell: Cell | null, depth: number): DecodedBody | string | null {
  if (cell === null) return null;
  if (depth < MAX_NESTING) {
    const decoded = decodeBodyCell(cell, depth + 1);
    if (!('error' in decoded)) return decoded;
  }
  return cell.toBoc().toString('base64');
}

function payload(value: EitherPayload, depth: number): DecodedBody | string | null {
  if (isEmptyPayload(value)) return null;
  return nestedCell(value.cell, depth);
}

const SCHEMES = new Map<number, BodyScheme>([
  [
    OP.textComment,
    {
      name: 'text_comment',
      decode: (s) => ({ text: loadTextComment(s).text.toString('utf8') }),
    },
  ],
  [OP.excesses, { name: 'excess', decode: (s) => ({ query_id: loadExcesses(s).queryId.toString() }) }],
  [
    OP.jettonTransfer,
    {
      name: 'jetton_transfer',
      decode: (s, depth) => {
        const v = loadJettonTransfer(s);
        return {
          query_id: v.queryId.toString(),
          amount: v.amount.toString(),
          destination: address(v.destination),
          response_destination: address(v.responseDestination),
          custom_payload: nestedCell(v.customPayload, depth),
          forward_ton_amount: v.forwardTonAmount.toString(),
          forward_payload: payload(v.forwardPayload, depth),
        };
      },
    },
  ],
  [
    OP.jettonInternalTransfer,
    {
      name: 'jetton_internal_transfer',
      decode: (s, depth) => {
        const v = loadJettonInternalTransfer(s);
        return {
          query_id: v.queryId.toString(),
          amount: v.amount.toString(),
          from: address(v.from),
          response_address: address(v.responseAddress),
          forward_ton_amount: v.forwardTonAmount.toString(),
          forward_payload: payload(v.forwardPayload, depth),
        };
      },
    },
  ],
  [
    OP.jettonTransferNotification,
    {
      name: 'jetton_notify',
      decode: (s, depth) => {
        const v = loadJettonTransferNotification(s);
        return { query_id: v.queryId.toString(), amount: v.amount.toString(), sender: address(v.sender), forward_payload: payload(v.forwardPayload, depth) };
      },
    },
  ],
  [
    OP.jettonBurn,
    {
      name: 'jetton_burn',
      decode: (s, depth) => {
        const v = loadJettonBurn(s);
        return {
          query_id: v.queryId.toString(),
          amount: v.amount.toString(),
          response_destination: address(v.responseDestination),
          custom_payload: nestedCell(v.customPayload, depth),
        };
      },
    },
  ],
  [
    OP.jettonBurnNotification,
    {
      name: 'jetton_burn_notification',
      decode: (s) => {
        const v = loadJettonBurnNotification(s);
        return { query_id: v.queryId.toString(), amount: v.amount.toString(), sender: address(v.sender), response_destination: address(v.responseDestination) };
      },
    },
  ],
  [
    OP.jettonMint,
    {
      name: 'jetton_mint',
      decode: (s, depth) => {
        const v = loadJettonMint(s);
        return { query_id: v.queryId.toString(), to_address: address(v.toAddress), ton_amount: v.tonAmount.toString(), master_msg: nestedCell(v.masterMsg, depth) };
      },
    },
  ],
  [
    OP.minterMint,
    {
      name: 'minter_jetton_mint',
      decode: (s, depth) => {
        const v = loadJettonMint(s, OP.minterMint);
        return { query_id: v.queryId.toString(), to_address: address(v.toAddress), ton_amount: v.tonAmount.toString(), master_msg: nestedCell(v.masterMsg, depth) };
      },
    },
  ],
  [
    OP.nftTransfer,
    {
      name: 'nft_transfer',
      decode: (s, depth) => {
        const v = loadNftTransfer(s);
        return {
          query_id: v.queryId.toString(),
          new_owner: address(v.newOwner),
          response_destination: address(v.responseDestination),
          custom_payload: nestedCell(v.customPayload, depth),
          forward_amount: v.forwardAmount.toString(),
          forward_payload: payload(v.forwardPayload, depth),
        };
      },
    },
  ],
  [
    OP.nftOwnershipAssigned,
    {
      name: 'nft_ownership_assigned',
      decode: (s, depth) => {
        const v = loadNftOwnershipAssigned(s);
        return { query_id: v.queryId.toString(), prev_owner: address(v.prevOwner), forward_payload: payload(v.forwardPayload, depth) };
      },
    },
  ],
  [OP.nftGetStaticData, { name: 'get_static_data', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [
    OP.nftReportStaticData,
    {
      name: 'report_static_data',
      decode: (s) => {
        const { queryId } = loadQueryIdOnly(s);
        return { query_id: queryId.toString(), index: s.loadUintBig(256).toString(), collection: address(s.loadAddressAny()) };
      },
    },
  ],
  [
    OP.dnsChangeRecord,
    {
      // One opcode, two schemes: with a value it changes the record, without it deletes it.
      name: 'change_dns_record',
      decode: (s) => {
        const v = loadDnsChangeRecord(s);
        const out: DecodedBody = { query_id: v.queryId.toString(), key: v.key.toString('hex') };
        if (v.value) out['value'] = v.value.toBoc().toString('base64');
        else out['@type'] = 'delete_dns_record';
        return out;
      },
    },
  ],
  [OP.dnsBalanceRelease, { name: 'dns_balance_release', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [
    OP.electorNewStake,
    {
      name: 'elector_new_stake',
      decode: (s) => {
        const v = loadElectorNewStake(s);
        return {
          query_id: v.queryId.toString(),
          validator_pubkey: v.validatorPubkey.toString('hex'),
          stake_at: v.stakeAt,
          max_factor: v.maxFactor,
          adnl_addr: v.adnlAddr.toString('hex'),
          signature: v.signature.toString('hex'),
        };
      },
    },
  ],
  [OP.electorNewStakeConfirmation, { name: 'elector_new_stake_confirmation', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [OP.electorRecoverStakeRequest, { name: 'elector_recover_stake_request', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [OP.electorRecoverStakeResponse, { name: 'elector_recover_stake_response', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [
    OP.multisigNewOrder,
    {
      name: 'mulisig_new_order', // sic: the scheme's own spelling, which toncenter's answers carry
      decode: (s) => {
        const v = loadMultisigNewOrder(s);
        return {
          query_id: v.queryId.toString(),
          order_seqno: v.orderSeqno.toString(),
          signer: v.signer,
          index: v.index,
          expiration_date: v.expirationDate,
          order: v.order.toBoc().toString('base64'),
        };
      },
    },
  ],
  [
    OP.multisigExecute,
    {
      name: 'multisig_execute',
      decode: (s) => {
        const v = loadMultisigExecute(s);
        return {
          query_id: v.queryId.toString(),
          order_seqno: v.orderSeqno.toString(),
          expiration_date: v.expirationDate,
          approvals_num: v.approvalsNum,
          signers_hash: v.signersHash.toString('hex'),
          order: v.order.toBoc().toString('base64'),
        };
      },
    },
  ],
  [
    OP.multisigApprove,
    {
      name: 'multisig_approve',
      decode: (s) => {
        const v = loadMultisigApprove(s);
        return { query_id: v.queryId.toString(), signer_index: v.signerIndex };
      },
    },
  ],
  [
    OP.multisigOrderInit,
    {
      name: 'multisig_order_init',
      decode: (s) => {
        const v = loadMultisigOrderInit(s);
        const signers = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), v.signers);
        return {
          query_id: v.queryId.toString(),
          threshold: v.threshold,
          signers: [...signers.keys()].sort((a, b) => a - b).map((k) => rawAddressUpper(signers.get(k)!)),
          expiration_date: v.expirationDate,
          order: v.order.toBoc().toString('base64'),
          approve_on_init: v.approveOnInit,
          ...(v.approveOnInit ? { signer_index: v.signerIndex } : {}),
        };
      },
    },
  ],
  [OP.multisigApproveAccepted, { name: 'multisig_approve_accepted', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [
    OP.multisigApproveRejected,
    {
      name: 'multisig_approve_rejected',
      decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString(), exit_code: s.loadUint(32) }),
    },
  ],
  [
    OP.vestingSendMessage,
    {
      name: 'vesting_send_message',
      decode: (s) => {
        const v = loadVestingSendMessage(s);
        return { query_id: v.queryId.toString(), send_mode: v.sendMode, message: v.message.toBoc().toString('base64') };
      },
    },
  ],
  [OP.vestingSendMessageResponse, { name: 'vesting_send_message_response', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
  [
    OP.vestingAddWhitelist,
    {
      name: 'vesting_add_white_list',
      decode: (s) => {
        const v = loadVestingAddWhitelist(s);
        return { query_id: v.queryId.toString(), addresses: v.addresses.map((a) => rawAddressUpper(a)) };
      },
    },
  ],
  [OP.vestingAddWhitelistResponse, { name: 'vesting_add_white_list_response', decode: (s) => ({ query_id: loadQueryIdOnly(s).queryId.toString() }) }],
]);

/** Opcodes we name without a body scheme of ours. */
const NAMED_OPCODES = new Map<number, string>([
  [OP.encryptedComment, 'encrypted_text_comment'],
  [OP.bounce, 'bounce'],
  [OP.jettonChangeAdmin, 'jetton_change_admin'],
  [OP.electorNewStakeError, 'elector_new_stake_error'],
  [OP.electorRecoverStakeError, 'elector_recover_stake_error'],
]);

/** The scheme name of an opcode, `unknown` when we have none (as marker answers). */
export function opcodeName(opcode: number): string {
  const op = opcode >>> 0;
  return SCHEMES.get(op)?.name ?? NAMED_OPCODES.get(op) ?? 'unknown';
}

/** A body cell decoded, or `{"error": "unknown: ..."}`. */
export function decodeBodyCell(cell: Cell, depth = 0): DecodedBody {
  if (cell.bits.length === 0 && cell.refs.length === 0) return { '@type': 'empty_cell' };
  const opcode = bodyOpcode(cell);
  if (opcode === undefined) return { error: `unknown: boc is too small, size ${cell.bits.length}` };
  const scheme = SCHEMES.get(opcode);
  if (!scheme) return { error: 'unknown: no parser succeeded' };
  try {
    const fields = scheme.decode(cell.beginParse(true), depth);
    return { '@type': scheme.name, ...fields };
  } catch (err) {
    return { error: `unknown: ${scheme.name}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * Longest body text decoded (a message body is at most 64 KiB of cells on TON; the base64 of a
 * BoC of that is below this). Bounds the work one entry asks for, with the 1000-entry cap.
 */
export const MAX_BODY_TEXT = 96 * 1024;

/**
 * A body as a client sends it to `decode`: base64 BoC (starting `te6`) or hex BoC, as marker
 * reads it; anything unreadable is an `unknown:` error entry, not a failed request.
 */
export function decodeBodyText(text: string): DecodedBody {
  if (text.length > MAX_BODY_TEXT) return { error: `unknown: body longer than ${MAX_BODY_TEXT} characters` };
  let bytes: Buffer;
  if (text.startsWith('te6')) {
    if (!/^[A-Za-z0-9+/=_-]*$/.test(text)) return { error: 'unknown: failed to decode base64' };
    bytes = Buffer.from(text, 'base64');
  } else {
    if (!/^([0-9A-Fa-f]{2})*$/.test(text)) return { error: 'unknown: failed to decode hex' };
    bytes = Buffer.from(text, 'hex');
  }
  let root: Cell;
  try {
    const roots = Cell.fromBoc(bytes);
    if (roots.length !== 1) return { error: 'unknown: failed to deserialize boc: expected one root' };
    root = roots[0]!;
  } catch (err) {
    return { error: `unknown: failed to deserialize boc: ${err instanceof Error ? err.message : String(err)}` };
  }
  return decodeBodyCell(root);
}
