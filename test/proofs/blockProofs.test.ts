import { beginCell } from '@ton/core';
import { describeForgery } from './forgeryCase';
import { makeHistory, withForgedGenUtime, withPrevHash, withRoots } from './forgeries';

/** Issue 13, blocks: header proofs and block transaction lists are checked against the block. */

const MC = 'workchain=-1&shard=-9223372036854775808';
let headerSeqno = 0;

describeForgery({
  name: 'a forged block header',
  prepare: async (stack) => {
    await stack.localnet.chain.seal();
    headerSeqno = (await stack.liar.upstreamQuery({ kind: 'liteServer.getMasterchainInfo' })).last.seqno;
  },
  path: () => `getBlockHeader?${MC}&seqno=${headerSeqno}`,
  apply: (stack) =>
    stack.liar.tamper('liteServer.getBlockHeader', (answer) => ({ ...answer, headerProof: withForgedGenUtime(answer.headerProof, 3600) })),
});

let transferSeqno = 0;

describeForgery({
  name: 'a block transaction list with a transaction swapped for another',
  prepare: async (stack) => {
    // The masterchain block sealing the transfers holds the wallet's shard... and its own ticktocks.
    await makeHistory(stack.localnet, 1);
    transferSeqno = (await stack.liar.upstreamQuery({ kind: 'liteServer.getMasterchainInfo' })).last.seqno;
  },
  path: () => `getBlockTransactionsExt?${MC}&seqno=${transferSeqno}`,
  apply: (stack) =>
    stack.liar.tamper('liteServer.listBlockTransactionsExt', (answer) => {
      if (answer.transactions.length === 0) throw new Error('the block has no transactions to swap');
      return {
        ...answer,
        transactions: withRoots(answer.transactions, (roots) => [withPrevHash(roots[0], Buffer.alloc(32, 9)), ...roots.slice(1)]),
      };
    }),
});

describeForgery({
  name: 'a shard list the block does not hold',
  path: (stack) => `getShards?seqno=${stack.localnet.chain.lastMasterchainBlock().id.seqno}`,
  apply: (stack) =>
    stack.liar.tamper('liteServer.getAllShardsInfo', (answer) => ({ ...answer, data: beginCell().storeMaybeRef(null).endCell().toBoc() })),
});
