import { beginCell, Cell, loadAccount, storeAccount } from '@ton/core';
import type { BlockIdExt } from '../../src/tl';

/** Lies a tampering lite server tells, built from true answers. */

/** The same Account BoC with `extra` nanotons more on the balance. */
export function withBalanceRaised(state: Buffer, extra: bigint): Buffer {
  const slice = Cell.fromBoc(state)[0].beginParse();
  if (!slice.loadBit()) throw new Error('not an existing account');
  const account = loadAccount(slice);
  account.storage.balance.coins += extra;
  return beginCell().storeBit(1).store(storeAccount(account)).endCell().toBoc();
}

/** The masterchain block `seqno` (mode 1 lookup) as the chain has it. */
export function mcLookup(seqno: number) {
  return {
    kind: 'liteServer.lookupBlock',
    mode: 1,
    id: { kind: 'tonNode.blockId', workchain: -1, shard: '-9223372036854775808', seqno },
    lt: null,
    utime: null,
  } as const;
}

export function sameId(a: BlockIdExt, b: BlockIdExt): boolean {
  return a.seqno === b.seqno && a.rootHash.equals(b.rootHash);
}
