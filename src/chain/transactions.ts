import { LITE_ERROR } from '../constants';
import { Address, loadTransaction, Transaction } from '@ton/core';
import { LiteServerError } from '../errors';
import { hashToBuffer } from '../converters';
import { accountAt } from './accounts';
import { bocRoots, parseLiteAnswer, checkTransactionChain, type ChainSession, type McBlock } from '../proofs';

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
  session: ChainSession,
  address: Address,
  from: TransactionCursor,
  count: number,
): Promise<Transaction[]> {
  const page = await session.liteQuery(
    {
      kind: 'liteServer.getTransactions',
      count,
      account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
      lt: from.lt.toString(),
      hash: from.hash,
    },
    (answer) => checkTransactionChain(address.hash, from, count, answer.ids.length, answer.transactions),
  );
  const roots = bocRoots(page.transactions, 'transactionList transactions');
  return parseLiteAnswer('transactionList transactions', () => roots.map((cell) => loadTransaction(cell.beginParse())));
}

export interface WalkOptions {
  limit: number;
  /** Exclusive lower bound: only transactions with lt > toLt. */
  toLt?: bigint | undefined;
}

export async function walkHistory(
  session: ChainSession,
  address: Address,
  from: TransactionCursor,
  options: WalkOptions,
): Promise<HistoryPage> {
  const transactions: Transaction[] = [];
  let cursor: TransactionCursor | null = from;
  while (cursor && transactions.length < options.limit) {
    const count = Math.min(LITE_TRANSACTIONS_PER_QUERY, options.limit - transactions.length);
    let page: Transaction[];
    try {
      page = await fetchTransactions(session, address, cursor, count);
    } catch (err) {
      // Older blocks are gone from every server we have (a non-archival node, the local chain's
      // --keep-blocks window): the history ends where theirs does, as one lite query's would.
      if (transactions.length > 0 && err instanceof LiteServerError && err.liteCode === LITE_ERROR.notReady) break;
      throw err;
    }
    if (page.length === 0) break;
    for (const tx of page) {
      if (options.toLt !== undefined && tx.lt <= options.toLt) return { transactions, next: cursor };
      transactions.push(tx);
      cursor = previousOf(tx);
    }
  }
  return { transactions, next: cursor };
}

/** The account's last transaction at masterchain block `block`, or null for an account without history. */
export async function lastTransactionAt(session: ChainSession, block: McBlock, address: Address): Promise<TransactionCursor | null> {
  const read = await accountAt(session, block, address);
  return read.lastTransaction ? { lt: read.lastTransaction.lt, hash: hashToBuffer(read.lastTransaction.hash) } : null;
}

/**
 * The history page getTransactions(Std) answer: from `start` if given, else from the account's
 * last transaction at `block`.
 */
export async function accountHistory(
  session: ChainSession,
  block: McBlock,
  address: Address,
  start: TransactionCursor | null,
  options: WalkOptions,
): Promise<HistoryPage> {
  const from = start ?? (await lastTransactionAt(session, block, address));
  return from ? walkHistory(session, address, from, options) : { transactions: [], next: null };
}
