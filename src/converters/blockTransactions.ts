import { Transaction } from '@ton/core';
import { addressFromAccountId, rawAddressLower } from './address';
import { BlockIdExtInput, hashToBase64, toBlockIdExt, TonBlockIdExtJson } from './blockId';
import { RawTransactionExtJson, toRawTransactionExt } from './transaction';

/** getBlockTransactions (`blocks.transactions`) and getBlockTransactionsExt (`blocks.transactionsExt`). */

export interface ShortTxIdJson {
  '@type': 'blocks.shortTxId';
  mode: number;
  /** Lowercase raw `wc:hex`. */
  account: string;
  lt: string;
  hash: string;
}

export interface BlockTransactionsJson {
  '@type': 'blocks.transactions';
  id: TonBlockIdExtJson;
  req_count: number;
  incomplete: boolean;
  transactions: ShortTxIdJson[];
}

export interface BlockTransactionsExtJson {
  '@type': 'blocks.transactionsExt';
  id: TonBlockIdExtJson;
  req_count: number;
  incomplete: boolean;
  transactions: RawTransactionExtJson[];
}

/** One `liteServer.transactionId` of a block listing. */
export interface ShortTxIdInput {
  /** 256-bit account id (the workchain is the block's). */
  account: Buffer | bigint;
  lt: bigint | string;
  hash: Buffer | bigint;
}

/**
 * tonlib echoes the mode it asked the lite server with: toncenter always asks 7 + 128 (account, lt,
 * hash, reverse-order flag), so every recorded shortTxId has mode 135.
 */
export const SHORT_TX_ID_MODE = 135;

export function toShortTxId(workchain: number, tx: ShortTxIdInput, mode: number = SHORT_TX_ID_MODE): ShortTxIdJson {
  return {
    '@type': 'blocks.shortTxId',
    mode,
    account: rawAddressLower(addressFromAccountId(workchain, tx.account)),
    lt: BigInt(tx.lt).toString(10),
    hash: hashToBase64(tx.hash),
  };
}

export interface BlockTransactionsInput {
  id: BlockIdExtInput;
  /** The `count` the client asked for. */
  reqCount: number;
  /** The `incomplete` flag of the last chunk fetched. */
  incomplete: boolean;
  transactions: ShortTxIdInput[];
  mode?: number;
}

export function toBlockTransactions(input: BlockTransactionsInput): BlockTransactionsJson {
  return {
    '@type': 'blocks.transactions',
    id: toBlockIdExt(input.id),
    req_count: input.reqCount,
    incomplete: input.incomplete,
    transactions: input.transactions.map((tx) => toShortTxId(input.id.workchain, tx, input.mode)),
  };
}

export interface BlockTransactionsExtInput {
  id: BlockIdExtInput;
  reqCount: number;
  incomplete: boolean;
  transactions: Transaction[];
}

export function toBlockTransactionsExt(input: BlockTransactionsExtInput): BlockTransactionsExtJson {
  return {
    '@type': 'blocks.transactionsExt',
    id: toBlockIdExt(input.id),
    req_count: input.reqCount,
    incomplete: input.incomplete,
    transactions: input.transactions.map((tx) => toRawTransactionExt(tx, input.id.workchain)),
  };
}
