import { Address, beginCell, type Cell } from '@ton/core';
import { invalid } from '../errors';
import { MAX_MESSAGE_PART_DEPTH } from '../params';
import { buildExternalMessage, parseCellParam } from './externalMessages';

/**
 * The external message a wallet would receive for a TON Connect request (toncenter's
 * TonConnectProcessor): the wallet's body for its version with a zero signature (emulated with
 * signature checks off), each requested message an internal message with send mode 3 (pay fees
 * separately, ignore errors). Decodes client BoCs: run in a TVM worker thread.
 */

/** The wallet families TON Connect emulation knows (toncenter: v3 r1/r2, v4 r1/r2, v5 r1). */
export type TonConnectWallet = 'v3' | 'v4' | 'v5';

export interface TonConnectMessagePart {
  /** Raw form `wc:hex`. */
  readonly address: string;
  /** The bounce flag, from the user-friendly form (raw addresses bounce). */
  readonly bounce: boolean;
  /** Decimal nanotons. */
  readonly amount: string;
  readonly payload?: Uint8Array;
  readonly stateInit?: Uint8Array;
}

export interface TonConnectRequest {
  readonly wallet: TonConnectWallet;
  /** Raw form `wc:hex` of the wallet. */
  readonly from: string;
  readonly seqno: number;
  readonly walletId: number;
  /** Unix seconds the wallet accepts the message until. */
  readonly validUntil: number;
  /** created_at of the internal messages. */
  readonly now: number;
  readonly messages: readonly TonConnectMessagePart[];
}

/** Send mode of every message (toncenter's): pay transfer fees separately, ignore errors. */
const SEND_MODE = 3;
const V5_EXTERNAL_SIGNED = 0x7369676e;
const V5_ACTION_SEND_MSG = 0x0ec3c86d;
const ZERO_SIGNATURE = Buffer.alloc(64);

function bytes(part: Uint8Array | undefined): Buffer {
  return part ? Buffer.from(part.buffer, part.byteOffset, part.byteLength) : Buffer.alloc(0);
}

function internalMessage(from: Address, part: TonConnectMessagePart, index: number, now: number): Cell {
  const payload = parseCellParam(`messages[${index}].payload`, bytes(part.payload));
  const stateInit = parseCellParam(`messages[${index}].stateInit`, bytes(part.stateInit));
  const builder = beginCell();
  // int_msg_info$0 ihr_disabled:1 bounce bounced:0 src dest value ihr_fee/extra_flags:0 fwd_fee:0 created_lt:0 created_at
  builder
    .storeUint(0, 1)
    .storeBit(true)
    .storeBit(part.bounce)
    .storeBit(false)
    .storeAddress(from)
    .storeAddress(Address.parseRaw(part.address))
    .storeCoins(BigInt(part.amount))
    .storeBit(false) // no extra currencies
    .storeCoins(0)
    .storeCoins(0)
    .storeUint(0, 64)
    .storeUint(now, 32);
  if (stateInit) builder.storeBit(true).storeBit(true).storeRef(stateInit);
  else builder.storeBit(false);
  if (payload) builder.storeBit(true).storeRef(payload);
  else builder.storeBit(false);
  return builder.endCell();
}

function walletBody(request: TonConnectRequest, messages: Cell[]): Cell {
  switch (request.wallet) {
    case 'v3':
    case 'v4': {
      const body = beginCell()
        .storeBuffer(ZERO_SIGNATURE)
        .storeUint(request.walletId, 32)
        .storeUint(request.validUntil, 32)
        .storeUint(request.seqno, 32);
      if (request.wallet === 'v4') body.storeUint(0, 8); // op: simple send
      for (const message of messages) body.storeUint(SEND_MODE, 8).storeRef(message);
      return body.endCell();
    }
    case 'v5': {
      let actions = beginCell().endCell();
      for (const message of messages) {
        actions = beginCell().storeUint(V5_ACTION_SEND_MSG, 32).storeUint(SEND_MODE, 8).storeRef(actions).storeRef(message).endCell();
      }
      return beginCell()
        .storeUint(V5_EXTERNAL_SIGNED, 32)
        .storeUint(request.walletId, 32)
        .storeUint(request.validUntil, 32)
        .storeUint(request.seqno, 32)
        .storeBit(true)
        .storeRef(actions)
        .storeBit(false) // no extended actions
        .storeBuffer(ZERO_SIGNATURE)
        .endCell();
    }
  }
}

/** The inbound external message of a TON Connect request, as a BoC. */
export function tonConnectExternalMessage(request: TonConnectRequest): Buffer {
  const from = Address.parseRaw(request.from);
  const messages = request.messages.map((part, index) => internalMessage(from, part, index, request.now));
  const body = walletBody(request, messages);
  if (body.depth() > MAX_MESSAGE_PART_DEPTH)
    invalid(`the wallet message is ${body.depth()} cells deep, at most ${MAX_MESSAGE_PART_DEPTH} are accepted`);
  return buildExternalMessage(from, body, null).toBoc();
}
