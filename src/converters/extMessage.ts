import { beginCell, Cell } from '@ton/core';
import { parseMessageCell } from './message';

/** sendBocReturnHash: `raw.extMessageInfo` with the message hash and its normalized hash. */

export interface ExtMessageInfoJson {
  '@type': 'raw.extMessageInfo';
  hash: string;
  hash_norm: string;
}

/**
 * The normalized form of an inbound external message (TEP-467): src addr_none, import_fee 0, no
 * StateInit, body in a reference. Its hash stays the same whatever way a wallet serialized the
 * message, so it identifies the message across re-encodings.
 */
export function normalizeExternalMessage(message: Cell): Cell {
  const parsed = parseMessageCell(message);
  if (parsed.info.type !== 'external-in') throw new Error('only inbound external messages have a normalized form');
  return beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0b00, 2) // src: addr_none
    .storeAddress(parsed.info.dest)
    .storeCoins(0) // import_fee
    .storeBit(0) // init: nothing
    .storeBit(1) // body: ^Cell
    .storeRef(parsed.body)
    .endCell();
}

export function toExtMessageInfo(message: Cell): ExtMessageInfoJson {
  return {
    '@type': 'raw.extMessageInfo',
    hash: message.hash().toString('base64'),
    hash_norm: normalizeExternalMessage(message).hash().toString('base64'),
  };
}
