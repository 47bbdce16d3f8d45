import { Builder, Cell, Slice } from '@ton/core';

/**
 * `account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount`,
 * the account kept as its cell: proofs compare its hash, never need its content.
 */
export interface ShardAccountRef {
  account: Cell;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

export function storeShardAccountRef(src: ShardAccountRef) {
  return (b: Builder) => {
    b.storeRef(src.account).storeBuffer(src.lastTransHash, 32).storeUint(src.lastTransLt, 64);
  };
}

export function loadShardAccountRef(s: Slice): ShardAccountRef {
  return { account: s.loadRef(), lastTransHash: s.loadBuffer(32), lastTransLt: s.loadUintBig(64) };
}

/**
 * The fixed head of a Transaction (`transaction$0111 account_addr:bits256 lt:uint64
 * prev_trans_hash:bits256 prev_trans_lt:uint64 ...`): what links a history together, read
 * without parsing the messages and phases behind it.
 */
export interface TransactionHead {
  accountAddr: Buffer;
  lt: bigint;
  prevTransHash: Buffer;
  prevTransLt: bigint;
}

const TRANSACTION_TAG = 0b0111;

export function storeTransactionHead(src: TransactionHead) {
  return (b: Builder) => {
    b.storeUint(TRANSACTION_TAG, 4)
      .storeBuffer(src.accountAddr, 32)
      .storeUint(src.lt, 64)
      .storeBuffer(src.prevTransHash, 32)
      .storeUint(src.prevTransLt, 64);
  };
}

export function loadTransactionHead(s: Slice): TransactionHead {
  if (s.loadUint(4) !== TRANSACTION_TAG) throw new Error('invalid Transaction tag');
  return { accountAddr: s.loadBuffer(32), lt: s.loadUintBig(64), prevTransHash: s.loadBuffer(32), prevTransLt: s.loadUintBig(64) };
}
