import { type Cell, loadCurrencyCollection } from '@ton/core';
import { dictLookupPathInline } from '../localnet/cells';
import { loadAccountBlockHead } from '../tlb';
import { merkleProofContents, proofFailure, provenBlock, provenDictValue, proving } from './proofs';
import type { BlockRef } from './session';

/**
 * The proof of a listBlockTransactions(Ext) page (mode bit 5): a Merkle proof of the block whose
 * `extra.account_blocks` holds, for every id listed, the account's AccountBlock and in its
 * transactions dictionary the lt, referencing a Transaction cell with the listed hash. Ids must
 * come in the walk's order, after the cursor.
 */

export interface ListedTransaction {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
}

function compareIds(a: { account: Buffer; lt: bigint }, b: { account: Buffer; lt: bigint }): number {
  return a.account.compare(b.account) || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0);
}

export function checkBlockTransactionsProof(
  block: BlockRef,
  listed: readonly ListedTransaction[],
  after: { account: Buffer; lt: bigint } | null,
  proof: Buffer,
): void {
  const what = 'block transactions proof';
  let previous = after;
  for (const tx of listed) {
    if (previous && compareIds(previous, tx) >= 0) proofFailure(`${what}: transactions out of order`);
    previous = tx;
  }
  if (listed.length === 0) return;
  const [content] = merkleProofContents(proof, 1, what);
  const root = provenBlock(content, block, what);
  const accountBlocks = proving(what, () => {
    const extra: Cell | undefined = root.refs[3];
    const blocks: Cell | undefined = extra?.refs[2];
    if (!extra || extra.isExotic || !blocks || blocks.isExotic) throw new Error('the proof prunes the account blocks');
    const s = blocks.beginParse();
    return s.loadBit() ? s.loadRef() : null;
  });
  for (const tx of listed) {
    proving(what, () => {
      const accountBlock = provenDictValue(accountBlocks, 256, BigInt(`0x${tx.account.toString('hex')}`), what);
      if (!accountBlock) throw new Error('a listed account has no transactions in the block');
      loadCurrencyCollection(accountBlock);
      if (!loadAccountBlockHead(accountBlock).accountAddr.equals(tx.account)) throw new Error('AccountBlock of another account');
      const leaf = dictLookupPathInline(accountBlock, 64, tx.lt).value;
      if (!leaf) throw new Error(`the account has no transaction at lt ${tx.lt} in the block`);
      loadCurrencyCollection(leaf);
      if (!leaf.loadRef().hash(0).equals(tx.hash)) throw new Error(`the transaction at lt ${tx.lt} has another hash`);
    });
  }
}
