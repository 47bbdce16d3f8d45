import { beginCell, Builder, Cell, Slice } from '@ton/core';
import { merkleUpdateStub } from '../../src/cells';
import {
  BlockInfo,
  loadBlock,
  loadBlockInfo,
  loadBlkPrevInfo,
  loadExtBlkRef,
  loadGlobalVersion,
  loadKeyExtBlkRef,
  loadKeyMaxLt,
  loadMcBlockExtra,
  loadMcStateExtra,
  loadMerkleUpdateHeader,
  loadOutMsgQueueInfo,
  loadShardDescr,
  loadShardStateUnsplit,
  loadDepthBalanceInfo,
  loadMcStateExtraCells,
  loadMcStateExtraPrevBlocks,
  loadShardStateAccounting,
  loadShardStateHeader,
  storeDepthBalanceInfo,
  loadValidatorDescr,
  loadValidatorSet,
  loadValueFlow,
  McStateExtra,
  ShardDescr,
  storeBlock,
  storeBlockInfo,
  storeBlkPrevInfo,
  storeExtBlkRef,
  storeGlobalVersion,
  storeKeyExtBlkRef,
  storeKeyMaxLt,
  storeMcBlockExtra,
  storeMcStateExtra,
  storeOutMsgQueueInfo,
  storeShardDescr,
  storeShardStateUnsplit,
  storeValidatorDescr,
  storeValidatorSet,
  storeValueFlow,
  ValueFlow,
} from '../../src/tlb';

function roundTrip<T>(store: (v: T) => (b: Builder) => void, load: (s: Slice) => T, value: T): T {
  const cell = beginCell().store(store(value)).endCell();
  const s = cell.beginParse();
  const back = load(s);
  expect(s.remainingBits).toBe(0);
  expect(s.remainingRefs).toBe(0);
  // Storing what was read gives the same cell.
  expect(beginCell().store(store(back)).endCell().hash().equals(cell.hash())).toBe(true);
  return back;
}

const h = (n: number) => Buffer.alloc(32, n);
const ref = { endLt: 123456789n, seqno: 42, rootHash: h(1), fileHash: h(2) };

describe('TL-B builders round-trip', () => {
  it('DepthBalanceInfo (the ShardAccounts extra); split_depth above 30 is refused', () => {
    const value = { splitDepth: 30, balance: { coins: 77n } };
    expect(roundTrip(storeDepthBalanceInfo, loadDepthBalanceInfo, value)).toEqual(value);
    const bad = beginCell().storeUint(31, 5).storeCoins(0).storeBit(false).endCell();
    expect(() => loadDepthBalanceInfo(bad.beginParse())).toThrow(/split_depth 31/);
  });

  it('ExtBlkRef, BlkPrevInfo, GlobalVersion, KeyExtBlkRef, KeyMaxLt', () => {
    expect(roundTrip(storeExtBlkRef, loadExtBlkRef, ref)).toEqual(ref);
    expect(roundTrip(storeBlkPrevInfo, (s) => loadBlkPrevInfo(s, false), { kind: 'single', prev: ref })).toEqual({
      kind: 'single',
      prev: ref,
    });
    const merged = { kind: 'merged' as const, prev1: ref, prev2: { ...ref, seqno: 43 } };
    expect(roundTrip(storeBlkPrevInfo, (s) => loadBlkPrevInfo(s, true), merged)).toEqual(merged);
    expect(roundTrip(storeGlobalVersion, loadGlobalVersion, { version: 12, capabilities: 494n })).toEqual({
      version: 12,
      capabilities: 494n,
    });
    expect(roundTrip(storeKeyExtBlkRef, loadKeyExtBlkRef, { key: true, blkRef: ref })).toEqual({ key: true, blkRef: ref });
    expect(roundTrip(storeKeyMaxLt, loadKeyMaxLt, { key: false, maxEndLt: 99n })).toEqual({ key: false, maxEndLt: 99n });
  });

  it('BlockInfo of a shard block and of a masterchain key block', () => {
    const shard: BlockInfo = {
      version: 0,
      notMaster: true,
      afterMerge: false,
      beforeSplit: false,
      afterSplit: false,
      wantSplit: false,
      wantMerge: true,
      keyBlock: false,
      vertSeqnoIncr: false,
      flags: 1,
      seqno: 7,
      vertSeqno: 0,
      shard: { workchainId: 0, shardPrefixBits: 0, shardPrefix: 0n },
      genUtime: 1_700_000_000,
      startLt: 6_000_000n,
      endLt: 7_000_000n,
      genValidatorListHashShort: 0xdeadbeef,
      genCatchainSeqno: 3,
      minRefMcSeqno: 6,
      prevKeyBlockSeqno: 1,
      genSoftware: { version: 12, capabilities: 494n },
      masterRef: ref,
      prevRef: { kind: 'single', prev: ref },
      prevVertRef: null,
    };
    expect(roundTrip(storeBlockInfo, loadBlockInfo, shard)).toEqual(shard);
    const master = { ...shard, notMaster: false, keyBlock: true, masterRef: null, flags: 0, genSoftware: null };
    expect(roundTrip(storeBlockInfo, loadBlockInfo, master)).toEqual(master);
    expect(() => beginCell().store(storeBlockInfo({ ...shard, masterRef: null }))).toThrow(/master_ref/);
  });

  it('ValueFlow v1 and v2', () => {
    const c = (n: bigint) => ({ coins: n });
    const vf: ValueFlow = {
      fromPrevBlk: c(1n),
      toNextBlk: c(2n),
      imported: c(3n),
      exported: c(4n),
      feesCollected: c(5n),
      burned: null,
      feesImported: c(6n),
      recovered: c(7n),
      created: c(8n),
      minted: c(9n),
    };
    expect(roundTrip(storeValueFlow, loadValueFlow, vf)).toEqual(vf);
    expect(roundTrip(storeValueFlow, loadValueFlow, { ...vf, burned: c(10n) }).burned).toEqual(c(10n));
  });

  it('ShardDescr, OutMsgQueueInfo, ValidatorDescr, ValidatorSet', () => {
    const descr: ShardDescr = {
      seqno: 5,
      regMcSeqno: 5,
      startLt: 1n,
      endLt: 2n,
      rootHash: h(3),
      fileHash: h(4),
      beforeSplit: false,
      beforeMerge: false,
      wantSplit: false,
      wantMerge: false,
      nxCcUpdated: true,
      flags: 0,
      nextCatchainSeqno: 9,
      nextValidatorShard: 0x8000000000000000n,
      minRefMcSeqno: 4,
      genUtime: 100,
      splitMergeAt: { kind: 'split', splitUtime: 5, interval: 6 },
      feesCollected: { coins: 0n },
      fundsCreated: { coins: 11n },
    };
    expect(roundTrip(storeShardDescr, loadShardDescr, descr)).toEqual(descr);
    const queue = {
      outQueue: { root: null, extra: 0n },
      procInfo: { root: null },
      extra: { dispatchQueue: { root: null, extra: 0n }, outQueueSize: 0n },
    };
    expect(roundTrip(storeOutMsgQueueInfo, loadOutMsgQueueInfo, queue)).toEqual(queue);
    const v = { publicKey: h(5), weight: 1n << 60n, adnlAddr: null };
    expect(roundTrip(storeValidatorDescr, loadValidatorDescr, v)).toEqual(v);
    const withAddr = { ...v, adnlAddr: h(6) };
    expect(roundTrip(storeValidatorDescr, loadValidatorDescr, withAddr)).toEqual(withAddr);
    const list = beginCell().storeUint(1, 1).endCell();
    const vset = { utimeSince: 1, utimeUntil: 2, total: 1, main: 1, totalWeight: 5n, list: { root: list } };
    const back = roundTrip(storeValidatorSet, loadValidatorSet, vset);
    expect(back.list.root?.hash().equals(list.hash())).toBe(true);
  });

  it('ShardStateUnsplit with McStateExtra, Block with McBlockExtra', () => {
    const config = beginCell().storeUint(0, 2).endCell();
    const extra: McStateExtra = {
      shardHashes: { root: beginCell().storeUint(3, 8).endCell() },
      config: { configAddr: h(7), config },
      flags: 0,
      validatorInfo: { validatorListHashShort: 1, catchainSeqno: 2, nxCcUpdated: false },
      prevBlocks: { root: null, extra: { key: false, maxEndLt: 0n } },
      afterKeyBlock: true,
      lastKeyBlock: ref,
      globalBalance: { coins: 500_000_000_000_000_000n },
    };
    const mcExtraBack = roundTrip(storeMcStateExtra, loadMcStateExtra, extra);
    expect(mcExtraBack.lastKeyBlock).toEqual(ref);
    expect(mcExtraBack.globalBalance.coins).toBe(500_000_000_000_000_000n);
    const state = {
      globalId: -239,
      shardId: { workchainId: -1, shardPrefixBits: 0, shardPrefix: 0n },
      seqno: 3,
      vertSeqno: 0,
      genUtime: 10,
      genLt: 20n,
      minRefMcSeqno: 2,
      outMsgQueueInfo: Cell.EMPTY,
      beforeSplit: false,
      accounts: beginCell().storeBit(false).storeUint(0, 5).storeCoins(0).storeBit(false).endCell(),
      overloadHistory: 0n,
      underloadHistory: 0n,
      totalBalance: { coins: 5n },
      totalValidatorFees: { coins: 0n },
      libraries: { root: null },
      masterRef: null,
      custom: extra,
    };
    const back = roundTrip(storeShardStateUnsplit, loadShardStateUnsplit, state);
    expect(back.seqno).toBe(3);
    expect(back.custom?.validatorInfo).toEqual(extra.validatorInfo);

    // The partial reads the local chain's proofs and sealing use, on the same state.
    const stateCell = beginCell().store(storeShardStateUnsplit(state)).endCell();
    const s = stateCell.beginParse();
    expect(loadShardStateHeader(s).genLt).toBe(20n);
    expect(loadShardStateAccounting(s.loadRef().beginParse()).totalBalance).toEqual({ coins: 5n });
    const cells = loadMcStateExtraCells(stateCell.beginParse());
    expect(cells?.config.hash().equals(config.hash())).toBe(true);
    expect(cells?.shardHashes?.hash().equals(extra.shardHashes.root!.hash())).toBe(true);
    expect(cells?.custom.hash().equals(beginCell().store(storeMcStateExtra(extra)).endCell().hash())).toBe(true);
    const more = loadMcStateExtraPrevBlocks(cells!.more.beginParse());
    expect(more).toEqual({ flags: 0, validatorInfo: extra.validatorInfo, prevBlocks: null });
    expect(
      loadMcStateExtraCells(
        beginCell()
          .store(storeShardStateUnsplit({ ...state, custom: null }))
          .endCell()
          .beginParse(),
      ),
    ).toBeNull();

    const mcBlockExtra = {
      keyBlock: true,
      shardHashes: { root: null },
      shardFees: { root: null, extra: { fees: { coins: 0n }, create: { coins: 0n } } },
      prevBlkSignatures: { root: null },
      recoverCreateMsg: null,
      mintMsg: null,
      config: { configAddr: h(8), config },
    };
    expect(roundTrip(storeMcBlockExtra, loadMcBlockExtra, mcBlockExtra).config?.configAddr).toEqual(h(8));
    const update = merkleUpdateStub(Cell.EMPTY, config);
    const blockCell = beginCell()
      .store(
        storeBlock({
          globalId: -239,
          info: {
            ...loadBlockInfo(
              beginCell()
                .store(
                  storeBlockInfo({
                    version: 0,
                    notMaster: false,
                    afterMerge: false,
                    beforeSplit: false,
                    afterSplit: false,
                    wantSplit: false,
                    wantMerge: false,
                    keyBlock: true,
                    vertSeqnoIncr: false,
                    flags: 0,
                    seqno: 1,
                    vertSeqno: 0,
                    shard: { workchainId: -1, shardPrefixBits: 0, shardPrefix: 0n },
                    genUtime: 1,
                    startLt: 0n,
                    endLt: 1n,
                    genValidatorListHashShort: 0,
                    genCatchainSeqno: 0,
                    minRefMcSeqno: 0,
                    prevKeyBlockSeqno: 0,
                    genSoftware: null,
                    masterRef: null,
                    prevRef: { kind: 'single', prev: ref },
                    prevVertRef: null,
                  }),
                )
                .endCell()
                .beginParse(),
            ),
          },
          valueFlow: {
            fromPrevBlk: { coins: 0n },
            toNextBlk: { coins: 0n },
            imported: { coins: 0n },
            exported: { coins: 0n },
            feesCollected: { coins: 0n },
            burned: null,
            feesImported: { coins: 0n },
            recovered: { coins: 0n },
            created: { coins: 0n },
            minted: { coins: 0n },
          },
          stateUpdate: update,
          extra: {
            inMsgDescr: Cell.EMPTY,
            outMsgDescr: Cell.EMPTY,
            accountBlocks: Cell.EMPTY,
            randSeed: h(9),
            createdBy: h(10),
            custom: mcBlockExtra,
          },
        }),
      )
      .endCell();
    const block = loadBlock(blockCell.beginParse());
    expect(block.info.keyBlock).toBe(true);
    expect(block.extra.custom?.keyBlock).toBe(true);
    expect(loadMerkleUpdateHeader(block.stateUpdate).newHash.equals(config.hash())).toBe(true);
  });
});
