import { type Cell, loadCurrencyCollection } from '@ton/core';
import { dictEntriesAfter } from '../cells';
import { loadAccountBlockHead } from '../tlb';
import { merkleProofContents, provenBlock, proving } from './checks';
import type { BlockRef } from './chainSession';

/**
 * The proof of a listBlockTransactions(Ext) page (mode bit 5): a Merkle proof of the block whose
 * `extra.account_blocks` holds, for every id listed, the account's AccountBlock and in its
 * transactions dictionary the lt, referencing a Transaction cell with the listed hash, walked in
 * (account, lt) order from the cursor as the lite server walks it.
 */

export interface ListedTransaction {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
}

/** (account, lt, hash) of every transaction of the proven `account_blocks` after the cursor, in walk order. */
function* provenTransactionsAfter(accountBlocks: Cell | null, after: { account: Buffer; lt: bigint } | null): Generator<ListedTransaction> {
  const cursorAccount = after ? BigInt(`0x${after.account.toString('hex')}`) : null;
  // Accounts from the cursor's own one (its later transactions), then the next ones.
  const fromAccount = cursorAccount !== null && cursorAccount > 0n ? cursorAccount - 1n : null;
  for (const { key, value } of dictEntriesAfter(accountBlocks, 256, fromAccount)) {
    loadCurrencyCollection(value);
    const account = loadAccountBlockHead(value).accountAddr;
    if (BigInt(`0x${account.toString('hex')}`) !== key) throw new Error('an AccountBlock under another account key');
    const fromLt = after && key === cursorAccount ? after.lt : null;
    for (const tx of dictEntriesAfter(value, 64, fromLt)) {
      loadCurrencyCollection(tx.value);
      yield { account, lt: tx.key, hash: tx.value.loadRef().hash(0) };
    }
  }
}

/**
 * Checks a page against the block as tonlib does: the ids listed are exactly the block's next
 * transactions after the cursor, in order, none left out; with `incomplete` false, the proof
 * also shows that the block has no transaction after the last one listed.
 */
export function checkBlockTransactionsProof(
  block: BlockRef,
  listed: readonly ListedTransaction[],
  after: { account: Buffer; lt: bigint } | null,
  incomplete: boolean,
  proof: Buffer,
): void {
  const what = 'block transactions proof';
  const [content] = merkleProofContents(proof, 1, what);
  const root = provenBlock(content, block, what);
  proving(what, () => {
    const extra: Cell | undefined = root.refs[3];
    const blocks: Cell | undefined = extra?.refs[2];
    if (!extra || extra.isExotic || !blocks || blocks.isExotic) throw new Error('the proof prunes the account blocks');
    const s = blocks.beginParse();
    const accountBlocks = s.loadBit() ? s.loadRef() : null;
    let index = 0;
    // An incomplete page ends at its last id: the walk must not go on (the proof stops there).
    if (!(incomplete && listed.length === 0)) {
      for (const tx of provenTransactionsAfter(accountBlocks, after)) {
        if (index === listed.length) throw new Error('the page leaves out transactions of the block and says it is complete');
        const expected = listed[index]!;
        if (!tx.account.equals(expected.account) || tx.lt !== expected.lt) {
          throw new Error(`the block's next transaction is not the one listed (lt ${expected.lt})`);
        }
        if (!tx.hash.equals(expected.hash)) throw new Error(`the transaction at lt ${expected.lt} has another hash`);
        index++;
        if (incomplete && index === listed.length) break;
      }
    }
    if (index < listed.length) throw new Error(`the block has no transaction at lt ${listed[index]!.lt} after the cursor`);
  });
}
