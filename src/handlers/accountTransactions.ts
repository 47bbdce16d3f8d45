import { Address, Cell, loadTransaction, Transaction } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { hashToBuffer } from '../converters';
import { readAccount } from './accountState';

/**
 * An account's history walked from one transaction back through `prev_trans_lt/hash`, the way
 * toncenter's getTransactions does it: the starting transaction included, newest first, several
 * lite-server pages joined, stopping at `limit`, at `lt <= toLt` or at the first transaction.
 */

export interface TransactionCursor {
  lt: bigint;
  hash: Buffer;
}

export interface HistoryPage {
  transactions: Transaction[];
  /** Where the next page would start: the transaction before the oldest returned; null at the start of history. */
  next: TransactionCursor | null;
}

/** A lite server returns at most this many transactions per getTransactions query. */
export const LITE_TRANSACTIONS_PER_QUERY = 16;

export function previousOf(tx: Transaction): TransactionCursor | null {
  return tx.prevTransactionLt === 0n ? null : { lt: tx.prevTransactionLt, hash: hashToBuffer(tx.prevTransactionHash) };
}

/** Up to `count` transactions from `from` (inclusive) back, in one lite-server query. */
export async function fetchTransactions(
  client: LiteClient,
  address: Address,
  from: TransactionCursor,
  count: number,
): Promise<Transaction[]> {
  const page = await client.getAccountTransactions(address, from.lt.toString(), from.hash, count);
  if (page.transactions.length === 0) return [];
  return Cell.fromBoc(page.transactions).map((cell) => loadTransaction(cell.beginParse()));
}

export interface WalkOptions {
  limit: number;
  /** Exclusive lower bound: only transactions with lt > toLt. */
  toLt?: bigint | undefined;
}

export async function walkHistory(
  client: LiteClient,
  address: Address,
  from: TransactionCursor,
  options: WalkOptions,
): Promise<HistoryPage> {
  const transactions: Transaction[] = [];
  let cursor: TransactionCursor | null = from;
  while (cursor && transactions.length < options.limit) {
    const count = Math.min(LITE_TRANSACTIONS_PER_QUERY, options.limit - transactions.length);
    const page = await fetchTransactions(client, address, cursor, count);
    if (page.length === 0) break;
    for (const tx of page) {
      if (options.toLt !== undefined && tx.lt <= options.toLt) return { transactions, next: cursor };
      transactions.push(tx);
      cursor = previousOf(tx);
    }
  }
  return { transactions, next: cursor };
}

/** The account's last transaction at the current head, or null for an account without history. */
export async function lastTransactionOf(client: LiteClient, address: Address): Promise<TransactionCursor | null> {
  const read = await readAccount(client, address);
  return read.lastTransaction ? { lt: read.lastTransaction.lt, hash: hashToBuffer(read.lastTransaction.hash) } : null;
}
