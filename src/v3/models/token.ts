import type { JettonBurnDbRow, JettonMasterDbRow, JettonTransferDbRow, JettonWalletDbRow, NftCollectionDbRow, NftItemDbRow, NftTransferDbRow } from '../sql/tokens';
import { decodeBodyText, type DecodedBody } from './decodedBody';
import { b64, str64 } from './format';

/** ton-index-go's models/jetton.go shapes (addresses raw upper-case, hashes base64, lt as strings). */

export function toJettonMasterJson(row: JettonMasterDbRow) {
  return {
    address: row.address,
    total_supply: row.total_supply,
    mintable: row.mintable,
    admin_address: row.admin_address,
    jetton_content: row.jetton_content,
    jetton_wallet_code_hash: b64(row.jetton_wallet_code_hash),
    code_hash: b64(row.code_hash),
    data_hash: b64(row.data_hash),
    last_transaction_lt: str64(row.last_transaction_lt),
  };
}

export function toJettonWalletJson(row: JettonWalletDbRow) {
  // ScanJettonWallet: mintless_info only for an unclaimed mintless airdrop with an amount.
  const mintless =
    row.mintless_is_claimed === false && row.mintless_amount !== null
      ? { mintless_info: { amount: row.mintless_amount, start_from: row.mintless_start_from === null ? null : Number(row.mintless_start_from), expire_at: row.mintless_expire_at === null ? null : Number(row.mintless_expire_at), custom_payload_api_uri: null } }
      : {};
  return {
    address: row.address,
    balance: row.balance,
    owner: row.owner,
    jetton: row.jetton,
    last_transaction_lt: str64(row.last_transaction_lt),
    code_hash: b64(row.code_hash),
    data_hash: b64(row.data_hash),
    ...mintless,
  };
}

/** A payload (base64 BoC) decoded as the marker decodes it; null when there is none. */
export function decodedPayload(boc: string | null): DecodedBody | null {
  return boc === null ? null : decodeBodyText(boc);
}

export function toJettonTransferJson(row: JettonTransferDbRow) {
  return {
    query_id: row.query_id,
    source: row.source,
    destination: row.destination,
    amount: row.amount,
    source_wallet: row.jetton_wallet_address,
    jetton_master: row.jetton_master_address,
    transaction_hash: b64(row.tx_hash),
    transaction_lt: str64(row.tx_lt),
    transaction_now: Number(row.tx_now),
    transaction_aborted: row.tx_aborted,
    response_destination: row.response_destination,
    custom_payload: row.custom_payload,
    decoded_custom_payload: decodedPayload(row.custom_payload),
    forward_ton_amount: row.forward_ton_amount,
    forward_payload: row.forward_payload,
    decoded_forward_payload: decodedPayload(row.forward_payload),
    trace_id: b64(row.trace_id),
  };
}

export function toJettonBurnJson(row: JettonBurnDbRow) {
  return {
    query_id: row.query_id,
    owner: row.owner,
    jetton_wallet: row.jetton_wallet_address,
    jetton_master: row.jetton_master_address,
    transaction_hash: b64(row.tx_hash),
    transaction_lt: str64(row.tx_lt),
    transaction_now: Number(row.tx_now),
    transaction_aborted: row.tx_aborted,
    amount: row.amount,
    response_destination: row.response_destination,
    custom_payload: row.custom_payload,
    decoded_custom_payload: decodedPayload(row.custom_payload),
    trace_id: b64(row.trace_id),
  };
}

/** A collection's columns, each possibly null (an item's left-joined collection). */
type CollectionColumns = { [K in keyof NftCollectionDbRow]: NftCollectionDbRow[K] | null } & { address: string };

/** models/nft.go's NFTCollection. */
export function toNftCollectionJson(row: CollectionColumns) {
  return {
    address: row.address,
    owner_address: row.owner_address,
    last_transaction_lt: str64(row.last_transaction_lt),
    next_item_index: row.next_item_index,
    collection_content: row.collection_content,
    data_hash: b64(row.data_hash),
    code_hash: b64(row.code_hash),
  };
}

/** NFTItem with its collection; sales are not indexed, so `on_sale` is false. */
export function toNftItemJson(row: NftItemDbRow) {
  return {
    address: row.address,
    init: row.init,
    index: row.index,
    collection_address: row.collection_address,
    owner_address: row.owner_address,
    content: row.content,
    last_transaction_lt: str64(row.last_transaction_lt),
    code_hash: b64(row.code_hash),
    data_hash: b64(row.data_hash),
    collection:
      row.c_address === null
        ? null
        : toNftCollectionJson({
            address: row.c_address,
            next_item_index: row.c_next_item_index,
            owner_address: row.c_owner_address,
            collection_content: row.c_collection_content,
            data_hash: row.c_data_hash,
            code_hash: row.c_code_hash,
            last_transaction_lt: row.c_last_transaction_lt,
          }),
    on_sale: false,
  };
}

export function toNftTransferJson(row: NftTransferDbRow) {
  return {
    query_id: row.query_id,
    nft_address: row.nft_item_address,
    nft_collection: row.nft_collection_address,
    transaction_hash: b64(row.tx_hash),
    transaction_lt: str64(row.tx_lt),
    transaction_now: Number(row.tx_now),
    transaction_aborted: row.tx_aborted,
    old_owner: row.old_owner,
    new_owner: row.new_owner,
    response_destination: row.response_destination,
    custom_payload: row.custom_payload,
    decoded_custom_payload: decodedPayload(row.custom_payload),
    forward_amount: row.forward_amount,
    forward_payload: row.forward_payload,
    decoded_forward_payload: decodedPayload(row.forward_payload),
    trace_id: b64(row.trace_id),
  };
}
