import { StoredBlock, StoredTransaction } from '../../ledger/store';
import { MAX_BLOCK_TRANSACTIONS } from './common';

export interface BlockTransactionPage {
  transactions: StoredTransaction[];
  incomplete: boolean;
}

/**
 * TON's listBlockTransactions walk over (account, lt): forward from after `after` (mode 128) or
 * from the start; reverse (mode 64) from before `after` or from the end. `incomplete` is true
 * unless the walk ran out of accounts before filling the page, exactly as the real server
 * reports it.
 */
export function pageBlockTransactions(
  block: StoredBlock,
  mode: number,
  count: number,
  after: { account: Buffer; lt: string } | null,
): BlockTransactionPage {
  const reverse = (mode & 64) !== 0;
  const limit = Math.min(count, MAX_BLOCK_TRANSACTIONS);
  const groups = groupByAccount(block.transactions);
  if (reverse) groups.reverse();
  let cursorAccount: Buffer | null = null;
  let cursorLt = reverse ? (1n << 64n) - 1n : 0n;
  if (mode & 128 && after) {
    cursorAccount = after.account;
    cursorLt = BigInt(after.lt);
  }
  const out: StoredTransaction[] = [];
  let eof = false;
  let g = 0;
  // First account: the cursor's own account or the next one in walk order.
  if (cursorAccount) {
    const cursor = cursorAccount;
    while (g < groups.length && (reverse ? groups[g].account.compare(cursor) > 0 : groups[g].account.compare(cursor) < 0)) g++;
  }
  while (!eof && out.length < limit) {
    if (g >= groups.length) {
      eof = true;
      break;
    }
    const group = groups[g++];
    const sameAccount = cursorAccount !== null && group.account.equals(cursorAccount);
    const txs = reverse ? [...group.txs].reverse() : group.txs;
    for (const tx of txs) {
      if (out.length >= limit) break;
      if (sameAccount && (reverse ? tx.lt >= cursorLt : tx.lt <= cursorLt)) continue;
      out.push(tx);
    }
  }
  return { transactions: out, incomplete: !eof };
}

/** The block's transactions by account, in the order of its account_blocks dictionary (account, then lt). */
function groupByAccount(txs: readonly StoredTransaction[]): { account: Buffer; txs: StoredTransaction[] }[] {
  const groups: { account: Buffer; txs: StoredTransaction[] }[] = [];
  // Stored in execution order; the lite server walks the dictionary, i.e. by address and lt.
  const ordered = [...txs].sort((a, b) => a.address.compare(b.address) || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  for (const tx of ordered) {
    const last = groups[groups.length - 1];
    if (last && last.account.equals(tx.address)) last.txs.push(tx);
    else groups.push({ account: tx.address, txs: [tx] });
  }
  return groups;
}
