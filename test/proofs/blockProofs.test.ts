import { beginCell, Cell } from '@ton/core';
import type { BlockIdExt } from '../../src/tl';
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

describeForgery({
  name: 'a shard block the masterchain never registered (its own header proof consistent)',
  prepare: async (stack) => {
    for (let i = 0; i < 3; i++) await stack.localnet.chain.seal();
  },
  // A prefix inside the first of the two basechain shards.
  path: () => 'lookupBlock?workchain=0&shard=2305843009213693952&seqno=2',
  apply: (stack) => {
    let real: BlockIdExt | undefined;
    let forged: BlockIdExt | undefined;
    stack.liar.tamper('liteServer.lookupBlock', (answer) => {
      if (answer.id.workchain !== 0) return answer;
      const headerProof = withForgedGenUtime(answer.headerProof, 3600);
      real = answer.id;
      forged = { ...answer.id, rootHash: Cell.fromBoc(headerProof)[0]!.refs[0]!.hash(0) };
      return { ...answer, id: forged, headerProof };
    });
    // The chain does not know the forged block: the liar builds its links from the real one's.
    stack.liar.replace('liteServer.getShardBlockProof', async (query) => {
      if (!real || !forged || !query.id.rootHash.equals(forged.rootHash)) return stack.liar.upstreamQuery(query);
      const proof = await stack.liar.upstreamQuery({ ...query, id: real });
      return { ...proof, links: proof.links.map((link, i) => (i === proof.links.length - 1 ? { ...link, id: forged! } : link)) };
    });
  },
});

describeForgery({
  name: 'a block transaction list that leaves one out and says it is complete',
  prepare: async (stack) => {
    await makeHistory(stack.localnet, 1);
    transferSeqno = (await stack.liar.upstreamQuery({ kind: 'liteServer.getMasterchainInfo' })).last.seqno;
  },
  path: () => `getBlockTransactions?${MC}&seqno=${transferSeqno}`,
  apply: (stack) =>
    stack.liar.tamper('liteServer.listBlockTransactions', (answer) => {
      // Tick, the block's own transactions, tock: drop the middle one, keep the honest proof.
      if (answer.ids.length < 2 || answer.incomplete) throw new Error('the block has too few transactions to leave one out');
      return { ...answer, ids: answer.ids.filter((_, i) => i !== 1) };
    }),
});
