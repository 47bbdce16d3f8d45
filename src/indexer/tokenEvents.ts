import { Address, type Cell } from '@ton/core';
import { rawAddressUpper } from '../converters';
import type { JettonBurnRow, JettonTransferRow, NftTransferRow, TokenEventRows } from '../indexdb';
import { loadJettonBurn, loadJettonTransfer, loadNftTransfer, OP, type EitherPayload, type MsgAddress } from '../tlb';
import type { ParsedTransaction } from './parseBlock';
import type { BlockTokens } from './tokenDetection';

/**
 * Jetton transfers and burns and NFT transfers of one masterchain block's transactions, parsed as
 * toncenter's index worker parses them (pure): a transaction of a confirmed jetton wallet whose
 * inbound internal message is a TEP-74 `transfer` or `burn`, of a confirmed NFT item whose inbound
 * message is a TEP-62 `transfer`. The sender of that message is the source/owner/old owner; the
 * master or collection comes from the contract's detected state. Payloads are kept as toncenter
 * keeps them: base64 BoCs of the referenced cells (an inline `Either` payload is not kept).
 */

function addressOf(address: MsgAddress): string | null {
  return address instanceof Address ? rawAddressUpper(address) : null;
}

function boc(cell: Cell | null): string | null {
  return cell ? cell.toBoc().toString('base64') : null;
}

/** toncenter's `fetch_maybe_ref` on an `Either Cell ^Cell`: the referenced cell, else nothing. */
function referenced(payload: EitherPayload): string | null {
  return payload.inRef ? boc(payload.cell) : null;
}

export function tokenEvents(transactions: readonly ParsedTransaction[], tokens: BlockTokens, mcSeqno: number): TokenEventRows {
  const out: TokenEventRows = { jettonTransfers: [], jettonBurns: [], nftTransfers: [] };
  for (const tx of transactions) {
    const message = tx.inMessage;
    if (!message || !message.internal || !message.row.source) continue;
    const op = message.row.opcode === null ? null : message.row.opcode >>> 0;
    const wallet = tokens.jettonWallets.get(tx.row.account);
    const item = tokens.nftItems.get(tx.row.account);
    if (op === null || (!wallet && !item)) continue;
    const base = {
      tx_hash: tx.row.hash,
      tx_lt: tx.row.lt,
      tx_now: tx.row.now,
      tx_aborted: tx.row.aborted ?? false,
      mc_seqno: mcSeqno,
      trace_id: tx.row.trace_id,
    };
    try {
      if (wallet && op === OP.jettonTransfer) {
        const body = loadJettonTransfer(message.body.beginParse());
        const row: JettonTransferRow = {
          ...base,
          query_id: body.queryId.toString(),
          amount: body.amount.toString(),
          source: message.row.source,
          destination: addressOf(body.destination),
          jetton_wallet_address: tx.row.account,
          jetton_master_address: wallet.jetton,
          response_destination: addressOf(body.responseDestination),
          custom_payload: boc(body.customPayload),
          forward_ton_amount: body.forwardTonAmount.toString(),
          forward_payload: referenced(body.forwardPayload),
        };
        out.jettonTransfers.push(row);
      } else if (wallet && op === OP.jettonBurn) {
        const body = loadJettonBurn(message.body.beginParse());
        const row: JettonBurnRow = {
          ...base,
          query_id: body.queryId.toString(),
          owner: message.row.source,
          jetton_wallet_address: tx.row.account,
          jetton_master_address: wallet.jetton,
          amount: body.amount.toString(),
          response_destination: addressOf(body.responseDestination),
          custom_payload: boc(body.customPayload),
        };
        out.jettonBurns.push(row);
      } else if (item && op === OP.nftTransfer) {
        const body = loadNftTransfer(message.body.beginParse());
        const row: NftTransferRow = {
          ...base,
          query_id: body.queryId.toString(),
          nft_item_address: tx.row.account,
          nft_item_index: item.index,
          nft_collection_address: item.collection,
          old_owner: message.row.source,
          new_owner: addressOf(body.newOwner),
          response_destination: addressOf(body.responseDestination),
          custom_payload: boc(body.customPayload),
          forward_amount: body.forwardAmount.toString(),
          forward_payload: referenced(body.forwardPayload),
        };
        out.nftTransfers.push(row);
      }
    } catch {
      // A body that does not parse as the standard one is no event (toncenter skips it too).
    }
  }
  return out;
}
