import { loadTransaction, Transaction } from '@ton/core';

import type { ShortTxIdInput } from '../converters';
import type { TransactionId3 } from '../tl';
import { loadTransactionHead } from '../tlb';
import {
  bocRoots,
  invalidLiteAnswer,
  parseLiteAnswer,
  sameBlock,
  tlBlockId,
  checkBlockTransactionsProof,
  type ListedTransaction,
  proofFailure,
  proving,
  type BlockRef,
  type ChainSession,
} from '../proofs';

/**
 * toncenter's paging over a block's transactions, shared by getBlockTransactions and
 * getBlockTransactionsExt: ask for min(256, remaining) at a time with mode 7 + 128 (account, lt,
 * hash, after the cursor), move the cursor to the last (account, lt) returned, and stop at `count`
 * or when the lite server says the list is complete.
 */

/** account + lt + hash of each id, a proof of them (32), and `after` present (128). */
export const BLOCK_TRANSACTIONS_MODE = 7 + 32 + 128;
/** The most a lite server returns per call. */
export const BLOCK_TRANSACTIONS_CHUNK = 256;

export interface BlockTransactionsCursor {
  /** 256-bit account id (toncenter's `after_hash`). */
  account: Buffer;
  lt: bigint;
}

export interface BlockTransactionsPage<T> {
  transactions: T[];
  /** The `incomplete` flag of the last chunk. */
  incomplete: boolean;
}

export interface BlockTransactionsChunk<T> {
  items: T[];
  incomplete: boolean;
}

const START: BlockTransactionsCursor = { account: Buffer.alloc(32), lt: 0n };

/** The cursor from toncenter's `after_hash` (an account id) and `after_lt`, given together or not at all. */
export function blockTransactionsCursor(afterHash: Buffer | undefined, afterLt: bigint | undefined): BlockTransactionsCursor | undefined {
  return afterHash !== undefined && afterLt !== undefined ? { account: afterHash, lt: afterLt } : undefined;
}

/** The paging loop itself, over any chunk source (exported for its unit test). */
export async function collectBlockTransactions<T>(
  count: number,
  after: BlockTransactionsCursor | undefined,
  fetch: (chunkSize: number, after: TransactionId3) => Promise<BlockTransactionsChunk<T>>,
  cursorOf: (item: T) => BlockTransactionsCursor,
): Promise<BlockTransactionsPage<T>> {
  const out: T[] = [];
  let cursor = after ?? START;
  let incomplete = true;
  while (out.length < count) {
    const remaining = count - out.length;
    const chunk = await fetch(Math.min(BLOCK_TRANSACTIONS_CHUNK, remaining), {
      kind: 'liteServer.transactionId3',
      account: cursor.account,
      lt: cursor.lt.toString(),
    });
    const items = chunk.items.slice(0, remaining);
    out.push(...items);
    incomplete = chunk.incomplete;
    // An empty chunk cannot move the cursor: asking again would loop forever.
    if (!incomplete || items.length === 0) break;
    cursor = cursorOf(items[items.length - 1]);
  }
  return { transactions: out, incomplete };
}

export function listedId(id: { account: Buffer | null; lt: string | null; hash: Buffer | null }): ListedTransaction {
  if (!id.account || id.lt === null || !id.hash) throw new Error('transaction id without account, lt or hash');
  return { account: id.account, lt: BigInt(id.lt), hash: id.hash };
}

/** One page's check: about the block asked for, and every transaction listed proven in it. */
export function checkPage(
  block: BlockRef,
  cursor: TransactionId3,
  id: BlockRef,
  proof: Buffer,
  incomplete: boolean,
  listed: () => ListedTransaction[],
): void {
  if (!sameBlock(id, block)) proofFailure('block transactions: the answer is about another block');
  const after = { account: cursor.account, lt: BigInt(cursor.lt) };
  const isStart = after.lt === 0n && after.account.every((byte) => byte === 0);
  checkBlockTransactionsProof(block, proving('block transactions', listed), isStart ? null : after, incomplete, proof);
}

/** Short ids (account, lt, hash) of up to `count` transactions of the block after the cursor. */
export function listBlockShortTxIds(
  session: ChainSession,
  block: BlockRef,
  count: number,
  after?: BlockTransactionsCursor,
): Promise<BlockTransactionsPage<ShortTxIdInput & { account: Buffer }>> {
  return collectBlockTransactions(
    count,
    after,
    async (chunkSize, cursor) => {
      const answer = await session.liteQuery(
        {
          kind: 'liteServer.listBlockTransactions',
          id: tlBlockId(block),
          mode: BLOCK_TRANSACTIONS_MODE,
          count: chunkSize,
          after: cursor,
          reverseOrder: null,
          wantProof: true,
        },
        (sent) => checkPage(block, cursor, sent.id, sent.proof, sent.incomplete, () => sent.ids.map(listedId)),
      );
      if (!sameBlock(answer.id, block)) throw invalidLiteAnswer('listBlockTransactions', 'answer is about another block');
      const items = answer.ids.map((id) => {
        if (!id.account || id.lt === null || !id.hash)
          throw invalidLiteAnswer('listBlockTransactions', 'transaction id without account, lt or hash');
        return { account: id.account, lt: BigInt(id.lt), hash: id.hash };
      });
      return { items, incomplete: answer.incomplete };
    },
    (tx) => ({ account: tx.account, lt: BigInt(tx.lt) }),
  );
}

/** Full transactions of the block after the cursor, as listBlockTransactionsExt's BoC holds them. */
export function listBlockTransactionsExt(
  session: ChainSession,
  block: BlockRef,
  count: number,
  after?: BlockTransactionsCursor,
): Promise<BlockTransactionsPage<Transaction>> {
  return collectBlockTransactions(
    count,
    after,
    async (chunkSize, cursor) => {
      const answer = await session.liteQuery(
        {
          kind: 'liteServer.listBlockTransactionsExt',
          id: tlBlockId(block),
          mode: BLOCK_TRANSACTIONS_MODE,
          count: chunkSize,
          after: cursor,
          reverseOrder: null,
          wantProof: true,
        },
        (sent) =>
          checkPage(block, cursor, sent.id, sent.proof, sent.incomplete, () =>
            bocRoots(sent.transactions, 'listBlockTransactionsExt transactions').map((root) => {
              const head = loadTransactionHead(root.beginParse());
              return { account: head.accountAddr, lt: head.lt, hash: root.hash() };
            }),
          ),
      );
      if (!sameBlock(answer.id, block)) throw invalidLiteAnswer('listBlockTransactionsExt', 'answer is about another block');
      const roots = bocRoots(answer.transactions, 'listBlockTransactionsExt transactions');
      const items = parseLiteAnswer('listBlockTransactionsExt transactions', () => roots.map((root) => loadTransaction(root.beginParse())));
      return { items, incomplete: answer.incomplete };
    },
    (tx) => ({ account: Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'), lt: tx.lt }),
  );
}
