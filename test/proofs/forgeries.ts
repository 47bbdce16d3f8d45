import {
  beginCell,
  Cell,
  convertToMerkleProof,
  Dictionary,
  external,
  internal,
  loadAccount,
  SendMode,
  storeAccount,
  storeMessage,
  toNano,
} from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import type { Localnet } from '../../src/localnet';
import { serializeBoc } from '../../src/cells';
import type { BlockIdExt } from '../../src/tl';
import { loadBlockInfo, storeBlockInfo } from '../../src/tlb';

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

/** `n` transfers from wallet 0 (v4r2) to wallet 1 sealed into blocks: a history to walk. */
export async function makeHistory(localnet: Localnet, n: number): Promise<void> {
  const wallet = localnet.wallets.wallets[0].contract as WalletContractV4;
  for (let seqno = 0; seqno < n; seqno++) {
    const transfer = wallet.createTransfer({
      seqno,
      secretKey: localnet.wallets.keyPair.secretKey,
      messages: [internal({ to: localnet.wallets.wallets[1].address, value: toNano('1'), bounce: false })],
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    });
    const ext = beginCell()
      .store(storeMessage(external({ to: wallet.address, body: transfer })))
      .endCell();
    await localnet.chain.sendExternalMessage(ext.toBoc());
  }
  await localnet.chain.seal();
}

/** A multi-root BoC with its roots reordered by `reorder`. */
export function withRoots(boc: Buffer, reorder: (roots: Cell[]) => Cell[]): Buffer {
  return serializeBoc(reorder(Cell.fromBoc(boc)));
}

/** PREV_TRANS_HASH_OFFSET: `transaction$0111 account_addr:bits256 lt:uint64` precede it. */
const PREV_TRANS_HASH_OFFSET = 4 + 256 + 64;

/** The same transaction cell with another `prev_trans_hash`. */
export function withPrevHash(transaction: Cell, prevHash: Buffer): Cell {
  const s = transaction.beginParse();
  const b = beginCell().storeBits(s.loadBits(PREV_TRANS_HASH_OFFSET));
  s.skip(256);
  b.storeBuffer(prevHash).storeBits(s.loadBits(s.remainingBits));
  while (s.remainingRefs > 0) b.storeRef(s.loadRef());
  return b.endCell();
}

/** The same (ordinary) cell with reference `index` replaced: what rebuilding a forged path takes. */
export function withRef(cell: Cell, index: number, ref: Cell): Cell {
  const b = beginCell().storeBits(cell.bits);
  cell.refs.forEach((original, i) => b.storeRef(i === index ? ref : original));
  return b.endCell();
}

/** A header proof of the same block whose BlockInfo says it was generated `shift` seconds later. */
export function withForgedGenUtime(headerProof: Buffer, shift: number): Buffer {
  const content = Cell.fromBoc(headerProof)[0].refs[0];
  const info = loadBlockInfo(content.refs[0].beginParse());
  const forged = beginCell()
    .store(storeBlockInfo({ ...info, genUtime: info.genUtime + shift }))
    .endCell();
  return convertToMerkleProof(withRef(content, 0, forged)).toBoc();
}

/**
 * A configInfo config proof whose config dictionary holds only `param`, with `value` in it: a
 * forged parameter in an otherwise well-formed proof of the state.
 */
export function withForgedConfigParam(configProof: Buffer, param: number, value: Cell): Buffer {
  const state = Cell.fromBoc(configProof)[0].refs[0];
  const custom = state.refs[3];
  // McStateExtra: tag(16), shard_hashes (Maybe ^), then config_addr + ^config.
  const configIndex = custom.beginParse().skip(16).loadBit() ? 1 : 0;
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  dict.set(param, value);
  const forgedConfig = beginCell().storeDictDirect(dict).endCell();
  return convertToMerkleProof(withRef(state, 3, withRef(custom, configIndex, forgedConfig))).toBoc();
}
