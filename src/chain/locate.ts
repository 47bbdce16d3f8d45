import { FULL_SHARD_SIGNED, LITE_ERROR, MASTERCHAIN } from '../constants';
import { Address, Transaction } from '@ton/core';
import { transactionMessages } from '../converters';
import { LiteServerError, NotFoundError } from '../errors';
import type { BlockIdExt } from '../tl';
import { tlBlockId, type BlockRef, type ChainSession } from '../proofs';
import { BLOCK_TRANSACTIONS_MODE, checkPage, listedId } from './blockTransactions';
import { blockByLt as lookupByLt, blockBySeqno } from './blockRefs';
import { fetchTransactions, LITE_TRANSACTIONS_PER_QUERY, TransactionCursor } from './transactions';

/**
 * tryLocate*: following an internal message (source, destination, created_lt) to the transaction
 * that received it or the one that sent it. As toncenter does, the block holding that lt is
 * looked up in the account's shard, and only that block (and, for the receiving side, the next
 * two) is searched; anything further is "not found".
 */

export const NOT_FOUND_TEXT = 'transaction was not found';
/** Blocks after the one holding created_lt in which the receiving transaction is looked for. */
const RESULT_BLOCKS = 3;

/**
 * The shard to look up for `address`: for basechain accounts, the deepest shard containing the
 * account (a lite server resolves it to the real shard holding that prefix); the masterchain has
 * one shard.
 */
export function accountShardPrefix(address: Address): string {
  if (address.workChain === MASTERCHAIN) return FULL_SHARD_SIGNED;
  const prefix = address.hash.readBigUInt64BE(0);
  return BigInt.asIntN(64, (prefix & ~1n) | 1n).toString();
}

/** The account's transactions in `block` with lt > afterLt, oldest first. */
async function accountTransactionsInBlock(
  session: ChainSession,
  block: BlockRef,
  address: Address,
  afterLt: bigint,
): Promise<TransactionCursor[]> {
  const found: TransactionCursor[] = [];
  let after = afterLt;
  for (;;) {
    const cursor = { kind: 'liteServer.transactionId3', account: address.hash, lt: after.toString() } as const;
    const answer = await session.liteQuery(
      {
        kind: 'liteServer.listBlockTransactions',
        id: tlBlockId(block),
        mode: BLOCK_TRANSACTIONS_MODE,
        count: LITE_TRANSACTIONS_PER_QUERY,
        after: cursor,
        reverseOrder: null,
        wantProof: true,
      },
      (sent) => checkPage(block, cursor, sent.id, sent.proof, sent.incomplete, () => sent.ids.map(listedId)),
    );
    let otherAccount = false;
    for (const id of answer.ids) {
      if (!id.account || !id.account.equals(address.hash) || id.lt === null || !id.hash) {
        otherAccount = true;
        break;
      }
      found.push({ lt: BigInt(id.lt), hash: id.hash });
    }
    if (otherAccount || !answer.incomplete || answer.ids.length === 0) return found;
    after = found[found.length - 1].lt;
  }
}

async function blockByLt(session: ChainSession, address: Address, lt: bigint): Promise<BlockIdExt | null> {
  try {
    return await lookupByLt(session, { workchain: address.workChain, shard: accountShardPrefix(address) }, lt);
  } catch (err) {
    if (err instanceof LiteServerError && err.liteCode === LITE_ERROR.notReady) return null;
    throw err;
  }
}

async function nextBlock(session: ChainSession, block: BlockIdExt): Promise<BlockIdExt | null> {
  try {
    return await blockBySeqno(session, block, block.seqno + 1);
  } catch (err) {
    if (err instanceof LiteServerError && err.liteCode === LITE_ERROR.notReady) return null;
    throw err;
  }
}

/** The newest-first transactions ending at `ids`' newest (all of them are consecutive in the history). */
async function loadAll(session: ChainSession, address: Address, ids: TransactionCursor[]): Promise<Transaction[]> {
  const out: Transaction[] = [];
  for (let end = ids.length; end > 0; end -= LITE_TRANSACTIONS_PER_QUERY) {
    const count = Math.min(LITE_TRANSACTIONS_PER_QUERY, end);
    out.push(...(await fetchTransactions(session, address, ids[end - 1], count)));
  }
  return out;
}

export interface MessageRef {
  source: Address;
  destination: Address;
  createdLt: bigint;
}

/** The destination's transaction whose inbound message came from `source` with `createdLt`. */
export async function locateResultTransaction(session: ChainSession, ref: MessageRef): Promise<Transaction> {
  let block = await blockByLt(session, ref.destination, ref.createdLt);
  for (let i = 0; block && i < RESULT_BLOCKS; i++) {
    const ids = await accountTransactionsInBlock(session, block, ref.destination, ref.createdLt);
    for (const tx of await loadAll(session, ref.destination, ids)) {
      const inMessage = transactionMessages(tx).inMessage;
      const info = inMessage?.info;
      if (info?.type === 'internal' && info.createdLt === ref.createdLt && info.src.equals(ref.source)) return tx;
    }
    block = i + 1 < RESULT_BLOCKS ? await nextBlock(session, block) : null;
  }
  throw new NotFoundError(NOT_FOUND_TEXT);
}

/** The source's transaction that emitted a message to `destination` with `createdLt`. */
export async function locateSourceTransaction(session: ChainSession, ref: MessageRef): Promise<Transaction> {
  const block = await blockByLt(session, ref.source, ref.createdLt);
  if (block) {
    // The sender is the source's last transaction in that block that started before created_lt.
    const ids = (await accountTransactionsInBlock(session, block, ref.source, 0n)).filter((id) => id.lt < ref.createdLt);
    const candidate = ids[ids.length - 1];
    if (candidate) {
      const [tx] = await fetchTransactions(session, ref.source, candidate, 1);
      const sent = tx
        ? transactionMessages(tx).outMessages.some(
            (message) =>
              message.info.type === 'internal' && message.info.createdLt === ref.createdLt && message.info.dest.equals(ref.destination),
          )
        : false;
      if (tx && sent) return tx;
    }
  }
  throw new NotFoundError(NOT_FOUND_TEXT);
}
