import {
  beginCell,
  BitBuilder,
  BitString,
  Cell,
  CommonMessageInfo,
  CurrencyCollection,
  loadCommonMessageInfo,
  loadStateInit,
  Slice,
} from '@ton/core';
import { AccountAddressJson, tonlibAddress, toAccountAddress } from './address';
import { bocBase64, optionalBocBase64, paddedCellData } from '../cells';

/**
 * Messages as toncenter prints them.
 *
 * Two renderings exist: tonlib's `raw.message` (addresses as `accountAddress` objects, used by
 * getBlockTransactionsExt and getTransactionsStd) and the flattened form of getTransactions /
 * tryLocate* (addresses as plain strings plus a `message` string). Key order follows the newest
 * recorded toncenter output: hash, source, destination, value, extra_currencies, fwd_fee, ihr_fee,
 * created_lt, body_hash, msg_data[, message].
 */

export interface ExtraCurrencyJson {
  '@type': 'extraCurrency';
  id: number;
  amount: string;
}

export interface MsgDataRawJson {
  '@type': 'msg.dataRaw';
  body: string;
  init_state: string;
}

export interface MsgDataTextJson {
  '@type': 'msg.dataText';
  /** base64 of the comment bytes. */
  text: string;
}

export interface MsgDataEncryptedTextJson {
  '@type': 'msg.dataEncryptedText';
  text: string;
}

export interface MsgDataDecryptedTextJson {
  '@type': 'msg.dataDecryptedText';
  text: string;
}

export type MsgDataJson = MsgDataRawJson | MsgDataTextJson | MsgDataEncryptedTextJson | MsgDataDecryptedTextJson;

interface MessageJsonBase {
  '@type': 'raw.message' | 'ext.message';
  /** Representation hash of the whole message cell. */
  hash: string;
  value: string;
  extra_currencies: ExtraCurrencyJson[];
  fwd_fee: string;
  ihr_fee: string;
  created_lt: string;
  body_hash: string;
  msg_data: MsgDataJson;
}

/** tonlib `raw.message`. */
export interface RawMessageJson extends MessageJsonBase {
  '@type': 'raw.message';
  source: AccountAddressJson;
  destination: AccountAddressJson;
}

/** The getTransactions / tryLocate* message (C++ `ext.message`): plain-string addresses plus `message`. */
export interface TransactionMessageJson extends MessageJsonBase {
  '@type': 'ext.message';
  source: string;
  destination: string;
  message: string;
}

/** A message cell split the way tonlib splits it. */
export interface ParsedMessageCell {
  cell: Cell;
  hash: Buffer;
  info: CommonMessageInfo;
  /** StateInit as its own cell (inline StateInits are rebuilt from their bits and refs), or null. */
  init: Cell | null;
  /** Body as its own cell (an inline body becomes a cell of the remaining bits and refs). */
  body: Cell;
}

export function parseMessageCell(cell: Cell): ParsedMessageCell {
  const slice = cell.beginParse();
  const info = loadCommonMessageInfo(slice);
  let init: Cell | null = null;
  if (slice.loadBit()) {
    init = slice.loadBit() ? slice.loadRef() : takeInlineStateInit(slice);
  }
  const body = slice.loadBit() ? slice.loadRef() : slice.asCell();
  return { cell, hash: cell.hash(), info, init, body };
}

/** Cuts exactly the bits and refs of an inline StateInit out of the slice, as tonlib does. */
function takeInlineStateInit(slice: Slice): Cell {
  const probe = slice.clone();
  loadStateInit(probe);
  const bits = slice.remainingBits - probe.remainingBits;
  const refs = slice.remainingRefs - probe.remainingRefs;
  const builder = beginCell().storeBits(slice.loadBits(bits));
  for (let i = 0; i < refs; i++) builder.storeRef(slice.loadRef());
  return builder.endCell();
}

export function toExtraCurrencies(value: CurrencyCollection | null | undefined): ExtraCurrencyJson[] {
  const other = value?.other;
  if (!other || other.size === 0) return [];
  return other
    .keys()
    .sort((a, b) => a - b)
    .map((id) => ({ '@type': 'extraCurrency', id, amount: (other.get(id) ?? 0n).toString(10) }));
}

const OP_TEXT_COMMENT = 0;
const OP_ENCRYPTED_COMMENT = 0x2167da4b;

/**
 * tonlib's `CellString::load`: the bits of the slice plus the bits of the cells reached through the
 * first reference of each cell, concatenated; fails unless the total is a whole number of bytes.
 */
export function loadSnakeBytes(slice: Slice): Buffer | null {
  const chunks: BitString[] = [slice.clone().loadBits(slice.remainingBits)];
  let next: Cell | null = slice.remainingRefs > 0 ? slice.preloadRef() : null;
  while (next) {
    chunks.push(next.bits);
    next = next.refs.length > 0 ? next.refs[0] : null;
  }
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (total % 8 !== 0) return null;
  const bits = new BitBuilder(total);
  for (const chunk of chunks) bits.writeBits(chunk);
  return bits.buffer();
}

/** The `msg_data` tonlib produces for a body (and StateInit). */
export function toMsgData(body: Cell, init: Cell | null = null): MsgDataJson {
  if (body.bits.length >= 32) {
    const slice = body.beginParse(true);
    const op = slice.loadUint(32);
    if (op === OP_TEXT_COMMENT || op === OP_ENCRYPTED_COMMENT) {
      const bytes = loadSnakeBytes(slice);
      if (bytes) {
        const text = bytes.toString('base64');
        return op === OP_TEXT_COMMENT ? { '@type': 'msg.dataText', text } : { '@type': 'msg.dataEncryptedText', text };
      }
    }
  }
  return { '@type': 'msg.dataRaw', body: bocBase64(body), init_state: optionalBocBase64(init) };
}

/**
 * The C++ server's rendering of raw body bytes: one line of base64 and a trailing newline (kept
 * "for back compatibility" with Python's `base64.encodebytes`, which also broke lines every 76
 * characters, as the 2023 recordings show); `""` for no bytes.
 */
export function messageBase64(bytes: Buffer): string {
  return bytes.length === 0 ? '' : bytes.toString('base64') + '\n';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The `message` string toncenter adds to every message: for raw bodies the base64 of the root
 * body cell's data bytes (zero-padded) plus a newline, for text comments the comment as UTF-8 (`""` if it is not
 * valid UTF-8), for encrypted comments `""` (nothing readable to show, but the key must exist for
 * clients that require it).
 */
export function toMessageText(msgData: MsgDataJson, body: Cell): string {
  switch (msgData['@type']) {
    case 'msg.dataRaw':
      return messageBase64(paddedCellData(body.bits, false));
    case 'msg.dataText':
    case 'msg.dataDecryptedText':
      try {
        return utf8.decode(Buffer.from(msgData.text, 'base64'));
      } catch {
        return '';
      }
    case 'msg.dataEncryptedText':
      return '';
  }
}

interface MessageParts {
  source: string;
  destination: string;
  value: string;
  extraCurrencies: ExtraCurrencyJson[];
  fwdFee: string;
  createdLt: string;
}

/** tonlib reports value, fees and created_lt only for internal messages; externals get zeros. */
function messageParts(info: CommonMessageInfo): MessageParts {
  switch (info.type) {
    case 'internal':
      return {
        source: tonlibAddress(info.src),
        destination: tonlibAddress(info.dest),
        value: info.value.coins.toString(10),
        extraCurrencies: toExtraCurrencies(info.value),
        fwdFee: info.forwardFee.toString(10),
        createdLt: info.createdLt.toString(10),
      };
    case 'external-in':
      return {
        source: '',
        destination: tonlibAddress(info.dest),
        value: '0',
        extraCurrencies: [],
        fwdFee: '0',
        createdLt: '0',
      };
    case 'external-out':
      return {
        source: tonlibAddress(info.src),
        destination: '',
        value: '0',
        extraCurrencies: [],
        fwdFee: '0',
        createdLt: '0',
      };
  }
}

function asParsed(message: Cell | ParsedMessageCell): ParsedMessageCell {
  return message instanceof Cell ? parseMessageCell(message) : message;
}

/** tonlib's `raw.message` (accountAddress objects, no `message`). */
export function toRawMessage(message: Cell | ParsedMessageCell): RawMessageJson {
  const parsed = asParsed(message);
  const parts = messageParts(parsed.info);
  return {
    '@type': 'raw.message',
    hash: parsed.hash.toString('base64'),
    source: toAccountAddress(parts.source),
    destination: toAccountAddress(parts.destination),
    value: parts.value,
    extra_currencies: parts.extraCurrencies,
    fwd_fee: parts.fwdFee,
    // The field became extra_flags in the 2025 TL-B; tonlib reports 0 since.
    ihr_fee: '0',
    created_lt: parts.createdLt,
    body_hash: parsed.body.hash().toString('base64'),
    msg_data: toMsgData(parsed.body, parsed.init),
  };
}

/** The getTransactions / tryLocate* message (plain-string addresses plus `message`). */
export function toTransactionMessage(message: Cell | ParsedMessageCell): TransactionMessageJson {
  const parsed = asParsed(message);
  const parts = messageParts(parsed.info);
  const msgData = toMsgData(parsed.body, parsed.init);
  return {
    '@type': 'ext.message',
    hash: parsed.hash.toString('base64'),
    source: parts.source,
    destination: parts.destination,
    value: parts.value,
    extra_currencies: parts.extraCurrencies,
    fwd_fee: parts.fwdFee,
    ihr_fee: '0',
    created_lt: parts.createdLt,
    body_hash: parsed.body.hash().toString('base64'),
    msg_data: msgData,
    message: toMessageText(msgData, parsed.body),
  };
}
