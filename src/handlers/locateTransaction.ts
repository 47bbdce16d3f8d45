import { Address, Transaction } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { BlockID } from 'ton-lite-client/dist/types';
import { transactionMessages } from '../converters';
import { LiteServerError, NotFoundError } from '../errors';
import { fetchTransactions, LITE_TRANSACTIONS_PER_QUERY, TransactionCursor } from './accountTransactions';
import { FULL_SHARD, MASTERCHAIN } from './blockRefs';
import { liteQuery, tlBlockId } from './liteAnswers';

/**
 * tryLocate*: following an internal message (source, destination, created_lt) to the transaction
 * that received it or the one that sent it. As toncenter does, the block holding that lt is
 * looked up in the account's shard, and only that block (and, for the receiving side, the next
 * two) is searched; anything further is "not found".
 */

export const NOT_FOUND_TEXT = 'transaction was not found';
const BLOCK_NOT_FOUND = 651;
/** Blocks after the one holding created_lt in which the receiving transaction is looked for. */
const RESULT_BLOCKS = 3;

/**
 * The shard to look up for `address`: for basechain accounts, the deepest shard containing the
 * account (a lite server resolves it to the real shard holding that prefix); the masterchain has
 * one shard.
 */
export function accountShardPrefix(address: Address): string {
  if (address.workChain === MASTERCHAIN) return FULL_SHARD;
  const prefix = address.hash.readBigUInt64BE(0);
  return BigInt.asIntN(64, (prefix & ~1n) | 1n).toString();
}

/** The account's transactions in `block` with lt > afterLt, oldest first. */
async function accountTransactionsInBlock(
  client: LiteClient,
  block: BlockID,
  address: Address,
  afterLt: bigint,
): Promise<TransactionCursor[]> {
  const found: TransactionCursor[] = [];
  let after = afterLt;
  for (;;) {
    const answer = await liteQuery(client, {
      kind: 'liteServer.listBlockTransactions',
      id: tlBlockId(block),
      mode: 1 + 2 + 4 + 128,
      count: LITE_TRANSACTIONS_PER_QUERY,
      after: { kind: 'liteServer.transactionId3', account: address.hash, lt: after.toString() },
      reverseOrder: null,
      wantProof: null,
    });
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

async function blockByLt(client: LiteClient, address: Address, lt: bigint): Promise<BlockID | null> {
  try {
    return (await client.lookupBlockByLt({ workchain: address.workChain, shard: accountShardPrefix(address), lt })).id;
  } catch (err) {
    if (err instanceof LiteServerError && err.liteCode === BLOCK_NOT_FOUND) return null;
    throw err;
  }
}

async function nextBlock(client: LiteClient, block: BlockID): Promise<BlockID | null> {
  try {
    return (await client.lookupBlockByID({ workchain: block.workchain, shard: block.shard, seqno: block.seqno + 1 })).id;
  } catch (err) {
    if (err instanceof LiteServerError && err.liteCode === BLOCK_NOT_FOUND) return null;
    throw err;
  }
}

/** The newest-first transactions ending at `ids`' newest (all of them are consecutive in the history). */
async function loadAll(client: LiteClient, address: Address, ids: TransactionCursor[]): Promise<Transaction[]> {
  const out: Transaction[] = [];
  for (let end = ids.length; end > 0; end -= LITE_TRANSACTIONS_PER_QUERY) {
    const count = Math.min(LITE_TRANSACTIONS_PER_QUERY, end);
    out.push(...(await fetchTransactions(client, address, ids[end - 1], count)));
  }
  return out;
}

export interface MessageRef {
  source: Address;
  destination: Address;
  createdLt: bigint;
}

/** The destination's transaction whose inbound message came from `source` with `createdLt`. */
export async function locateResultTransaction(client: LiteClient, ref: MessageRef): Promise<Transaction> {
  let block = await blockByLt(client, ref.destination, ref.createdLt);
  for (let i = 0; block && i < RESULT_BLOCKS; i++) {
    const ids = await accountTransactionsInBlock(client, block, ref.destination, ref.createdLt);
    for (const tx of await loadAll(client, ref.destination, ids)) {
      const inMessage = transactionMessages(tx).inMessage;
      const info = inMessage?.info;
      if (info?.type === 'internal' && info.createdLt === ref.createdLt && info.src.equals(ref.source)) return tx;
    }
    block = i + 1 < RESULT_BLOCKS ? await nextBlock(client, block) : null;
  }
  throw new NotFoundError(NOT_FOUND_TEXT);
}

/** The source's transaction that emitted a message to `destination` with `createdLt`. */
export async function locateSourceTransaction(client: LiteClient, ref: MessageRef): Promise<Transaction> {
  const block = await blockByLt(client, ref.source, ref.createdLt);
  if (block) {
    // The sender is the source's last transaction in that block that started before created_lt.
    const ids = (await accountTransactionsInBlock(client, block, ref.source, 0n)).filter((id) => id.lt < ref.createdLt);
    const candidate = ids[ids.length - 1];
    if (candidate) {
      const [tx] = await fetchTransactions(client, ref.source, candidate, 1);
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
