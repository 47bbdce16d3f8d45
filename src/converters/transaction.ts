import { Builder, Cell, Dictionary, DictionaryValue, loadTransaction, Slice, Transaction } from '@ton/core';
import { AccountAddressJson, addressFromAccountId, rawAddressUpper, tonlibAddress, toAccountAddress } from './address';
import { bocBase64 } from '../cells';
import { InternalTransactionIdJson, toTransactionId } from './blockId';
import { parseMessageCell, ParsedMessageCell, RawMessageJson, toRawMessage, toTransactionMessage, TransactionMessageJson } from './message';

/**
 * Transactions as toncenter prints them, in the C++ server's (2.1) forms:
 * - getTransactions / tryLocate*: `ext.transaction` = tonlib's transaction plus `account` (raw
 *   `wc:HEX`, uppercase as the C++ server's `to_hex`), messages `ext.message` with plain-string
 *   addresses and `message`; `in_msg` absent (never null) when there is none.
 * - getBlockTransactionsExt: tonlib's `raw.transaction` plus `account`, messages `raw.message` with
 *   `accountAddress` objects (getTransactionsStd: the same without `account`).
 * Values (BoCs, hashes, fees) are the same in all forms and match the recorded answers.
 */

interface TransactionJsonBase {
  '@type': 'raw.transaction' | 'ext.transaction';
  address: AccountAddressJson;
  utime: number;
  /** BoC of the Transaction cell (its root hash is `transaction_id.hash`). */
  data: string;
  transaction_id: InternalTransactionIdJson;
  /** total_fees + Σ forward fees of the outbound messages. */
  fee: string;
  /** Fees collected by the storage phase, 0 when there is none. */
  storage_fee: string;
  /** fee − storage_fee. */
  other_fee: string;
}

/** tonlib `raw.transaction`. */
export interface RawTransactionJson extends TransactionJsonBase {
  '@type': 'raw.transaction';
  in_msg?: RawMessageJson;
  out_msgs: RawMessageJson[];
}

/** getBlockTransactionsExt item: tonlib form plus the account as raw `wc:HEX` (C++ `to_hex`). */
export interface RawTransactionExtJson extends RawTransactionJson {
  account: string;
}

/** getTransactions / tryLocate* item (C++ `ext.transaction`). */
export interface TransactionJson extends TransactionJsonBase {
  '@type': 'ext.transaction';
  account: string;
  in_msg?: TransactionMessageJson;
  out_msgs: TransactionMessageJson[];
}

export interface TransactionMessages {
  inMessage: ParsedMessageCell | null;
  /** In message-index order. */
  outMessages: ParsedMessageCell[];
}

const messageRefValue: DictionaryValue<Cell> = {
  serialize: (src: Cell, builder: Builder) => {
    builder.storeRef(src);
  },
  parse: (slice: Slice) => slice.loadRef(),
};

/**
 * The message cells exactly as stored in the transaction (their hashes are the message hashes;
 * @ton/core's parsed Message objects do not keep the original cells).
 */
export function transactionMessages(tx: Transaction): TransactionMessages {
  const slice = tx.raw.refs[0].beginParse();
  const inCell = slice.loadBit() ? slice.loadRef() : null;
  const outDict = Dictionary.load(Dictionary.Keys.Uint(15), messageRefValue, slice);
  const outMessages = outDict
    .keys()
    .sort((a, b) => a - b)
    .map((key) => parseMessageCell(outDict.get(key) as Cell));
  return { inMessage: inCell ? parseMessageCell(inCell) : null, outMessages };
}

export function loadTransactionCell(cell: Cell): Transaction {
  return loadTransaction(cell.beginParse());
}

export function loadTransactionBoc(boc: Buffer | string): Transaction {
  const bytes = typeof boc === 'string' ? Buffer.from(boc, 'base64') : boc;
  return loadTransactionCell(Cell.fromBoc(bytes)[0]);
}

export interface TransactionFees {
  fee: bigint;
  storageFee: bigint;
  otherFee: bigint;
}

export function storageFeesCollected(tx: Transaction): bigint {
  const description = tx.description;
  if ('storagePhase' in description && description.storagePhase) {
    return description.storagePhase.storageFeesCollected;
  }
  return 0n;
}

/** tonlib's fee split; forward fees of external-out messages count as 0, as tonlib reports them. */
export function transactionFees(tx: Transaction, outMessages: ParsedMessageCell[]): TransactionFees {
  let fee = tx.totalFees.coins;
  for (const message of outMessages) {
    if (message.info.type === 'internal') fee += message.info.forwardFee;
  }
  const storageFee = storageFeesCollected(tx);
  return { fee, storageFee, otherFee: fee - storageFee };
}

type BaseFields = Omit<TransactionJsonBase, '@type'>;

function baseFields(tx: Transaction, workchain: number, outMessages: ParsedMessageCell[]): BaseFields {
  const fees = transactionFees(tx, outMessages);
  return {
    address: toAccountAddress(tonlibAddress(addressFromAccountId(workchain, tx.address))),
    utime: tx.now,
    data: bocBase64(tx.raw),
    transaction_id: toTransactionId(tx.lt, tx.hash()),
    fee: fees.fee.toString(10),
    storage_fee: fees.storageFee.toString(10),
    other_fee: fees.otherFee.toString(10),
  };
}

/**
 * The transaction cell does not hold its account's workchain, so callers pass it (the queried
 * account's, or the block's for block listings).
 */
export function toRawTransaction(tx: Transaction, workchain: number): RawTransactionJson {
  const messages = transactionMessages(tx);
  const base = baseFields(tx, workchain, messages.outMessages);
  return {
    '@type': 'raw.transaction',
    ...base,
    ...(messages.inMessage ? { in_msg: toRawMessage(messages.inMessage) } : {}),
    out_msgs: messages.outMessages.map((message) => toRawMessage(message)),
  };
}

export function toRawTransactionExt(tx: Transaction, workchain: number): RawTransactionExtJson {
  return { ...toRawTransaction(tx, workchain), account: rawAddressUpper(addressFromAccountId(workchain, tx.address)) };
}

/** getTransactions / tryLocate* item. */
export function toTransactionJson(tx: Transaction, workchain: number): TransactionJson {
  const messages = transactionMessages(tx);
  const { address, ...rest } = baseFields(tx, workchain, messages.outMessages);
  return {
    '@type': 'ext.transaction',
    address,
    account: rawAddressUpper(addressFromAccountId(workchain, tx.address)),
    ...rest,
    ...(messages.inMessage ? { in_msg: toTransactionMessage(messages.inMessage) } : {}),
    out_msgs: messages.outMessages.map((message) => toTransactionMessage(message)),
  };
}
