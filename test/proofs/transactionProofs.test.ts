import { randomBytes } from 'node:crypto';
import { describeForgery } from './forgeryCase';
import { makeHistory, withPrevHash, withRoots } from './forgeries';

/** Issue 13, transaction lists: each transaction must be the one the previous one links to. */

const historyPath = (stack: { localnet: { wallets: { wallets: { address: { toString(): string } }[] } } }) =>
  `getTransactions?address=${stack.localnet.wallets.wallets[0].address.toString()}&limit=4`;

describeForgery({
  name: 'a transaction list with two transactions swapped',
  prepare: (stack) => makeHistory(stack.localnet, 3),
  path: historyPath,
  apply: (stack) =>
    stack.liar.tamper('liteServer.getTransactions', (answer) => ({
      ...answer,
      transactions: withRoots(answer.transactions, (roots) => (roots.length > 1 ? [roots[1], roots[0], ...roots.slice(2)] : roots)),
    })),
});

describeForgery({
  name: 'a transaction list with a wrong prev hash',
  prepare: (stack) => makeHistory(stack.localnet, 3),
  path: historyPath,
  apply: (stack) =>
    stack.liar.tamper('liteServer.getTransactions', (answer) => ({
      ...answer,
      transactions: withRoots(answer.transactions, (roots) => [withPrevHash(roots[0], randomBytes(32)), ...roots.slice(1)]),
    })),
});
