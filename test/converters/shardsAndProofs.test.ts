import { beginCell, Builder, Cell, Dictionary } from '@ton/core';
import { toBlockHeader } from '../../src/converters/blockHeader';
import { BlockIdExtInput, toBlockIdExt } from '../../src/converters/blockId';
import { shardChild, type BlockInfo } from '../../src/tlb';
import { toConfigInfo } from '../../src/converters/config';
import { toOutMsgQueueSizes } from '../../src/converters/outMsgQueueSizes';
import { toShardBlockProof } from '../../src/converters/shardBlockProof';
import { loadShardDescrHead, loadShardHashesTopBlocks } from '../../src/tlb/shardHashes';
import { toBlockShards } from '../../src/converters/shards';
import { describeWithFixtures, fixtureResult } from '../helpers/fixtures';
import { type RecordedId, fixtureRows, idInput, keyOrder, withoutExtra } from './support';

/** GetBlock's 2023 recordings (`-01`) have alphabetically re-sorted keys: no key-order check for them. */
const nativeOrder = (file: string) => !/-01\.json$/.test(file);

// ---- ShardHashes as a lite server sends them (liteServer.allShardsInfo `data`) ----------------

const ROOT_SHARD = 0x8000000000000000n;

/** A whole `shard_descr_new#a` (or the older `#b` with fees inline) for a shard top. */
function storeShardDescr(id: BlockIdExtInput, oldForm = false): (builder: Builder) => void {
  return (builder) => {
    builder
      .storeUint(oldForm ? 0xb : 0xa, 4)
      .storeUint(id.seqno, 32)
      .storeUint(id.seqno - 3, 32) // reg_mc_seqno
      .storeUint(1000n, 64)
      .storeUint(1005n, 64)
      .storeBuffer(id.rootHash, 32)
      .storeBuffer(id.fileHash, 32)
      .storeUint(0b00010, 5) // before_split before_merge want_split want_merge nx_cc_updated
      .storeUint(0, 3)
      .storeUint(77, 32)
      .storeUint(0x8000000000000000n, 64)
      .storeUint(id.seqno - 9, 32)
      .storeUint(1700000000, 32)
      .storeUint(0, 1); // fsm_none
    const fees = beginCell().storeCoins(5).storeBit(false).storeCoins(0).storeBit(false);
    if (oldForm) builder.storeBuilder(fees);
    else builder.storeRef(fees.endCell());
  };
}

/** The BinTree of a workchain whose leaves are exactly `tops` (unsigned shard ids). */
function binTree(shard: bigint, tops: Map<bigint, BlockIdExtInput>, oldForm: boolean): Cell {
  const top = tops.get(shard);
  if (top) return beginCell().storeBit(false).store(storeShardDescr(top, oldForm)).endCell();
  if ((shard & -shard) === 1n) throw new Error('no leaf covers this shard');
  return beginCell()
    .storeBit(true)
    .storeRef(binTree(shardChild(shard, true), tops, oldForm))
    .storeRef(binTree(shardChild(shard, false), tops, oldForm))
    .endCell();
}

function shardHashesData(ids: BlockIdExtInput[], oldForm = false): Cell {
  const byWorkchain = new Map<number, Map<bigint, BlockIdExtInput>>();
  for (const id of ids) {
    const tops = byWorkchain.get(id.workchain) ?? new Map<bigint, BlockIdExtInput>();
    tops.set(BigInt.asUintN(64, BigInt(id.shard)), id);
    byWorkchain.set(id.workchain, tops);
  }
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const [workchain, tops] of byWorkchain) dict.set(workchain, binTree(ROOT_SHARD, tops, oldForm));
  return beginCell().storeDict(dict).endCell();
}

describeWithFixtures('shards against the recordings: ids parsed out of a ShardHashes tree', () => {
  test.each(fixtureRows('shards'))('%s: blocks.shards from allShardsInfo data', (file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as { shards: RecordedId[] };
    // The tree is built in another order than the recording lists it: the parser decides the order.
    const data = shardHashesData([...recorded.shards].reverse().map(idInput));
    const converted = toBlockShards(loadShardHashesTopBlocks(data.beginParse()));
    expect(converted).toEqual(recorded);
    if (nativeOrder(file)) expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });
});

describe('ShardHashes parsing', () => {
  const id = (workchain: number, shard: bigint, seqno: number): BlockIdExtInput => ({
    workchain,
    shard,
    seqno,
    rootHash: Buffer.alloc(32, seqno & 0xff),
    fileHash: Buffer.alloc(32, (seqno + 1) & 0xff),
  });

  test("tonlib's order: workchains by key bits (0, 1, then negative ids), shards left to right; both descr forms", () => {
    const tops = [
      id(0, 0xc000000000000000n, 12),
      id(0, 0x2000000000000000n, 10),
      id(0, 0x6000000000000000n, 11),
      id(-5, ROOT_SHARD, 30),
      id(1, 0x4000000000000000n, 20),
      id(1, 0xc000000000000000n, 21),
    ];
    const expected = [tops[1], tops[2], tops[0], tops[4], tops[5], tops[3]].map((t) => toBlockIdExt(t));
    for (const oldForm of [false, true]) {
      expect(loadShardHashesTopBlocks(shardHashesData(tops, oldForm).beginParse()).map((t) => toBlockIdExt(t))).toEqual(expected);
    }
  });

  test('an empty ShardHashes has no shards; a bad ShardDescr tag is an error', () => {
    expect(loadShardHashesTopBlocks(beginCell().storeBit(false).endCell().beginParse())).toEqual([]);
    const bad = beginCell().storeUint(0x5, 4).storeUint(1, 32).endCell();
    expect(() => loadShardDescrHead(bad.beginParse())).toThrow('invalid ShardDescr tag 0x5');
  });
});

// ---- getShardBlockProof -------------------------------------------------------------------------

interface RecordedLinkBack {
  to_key_block: boolean;
  from: RecordedId;
  to: RecordedId;
  dest_proof: string;
  proof: string;
  state_proof: string;
}

describeWithFixtures('getShardBlockProof against the recordings', () => {
  test.each(fixtureRows('getShardBlockProof'))('%s: every field, proofs re-serialised from their cells as tonlib does', (file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as {
      from: RecordedId;
      mc_id: RecordedId;
      links: { id: RecordedId; proof: string }[];
      mc_proof: RecordedLinkBack[];
    };
    expect(recorded.mc_proof.length).toBeGreaterThan(0);
    const converted = toShardBlockProof({
      from: idInput(recorded.from),
      mcId: idInput(recorded.mc_id),
      links: recorded.links.map((link) => ({ id: idInput(link.id), proof: Buffer.from(link.proof, 'base64') })),
      mcProof: recorded.mc_proof.map((link) => ({
        toKeyBlock: link.to_key_block,
        from: idInput(link.from),
        to: idInput(link.to),
        destProof: Cell.fromBase64(link.dest_proof),
        proof: Cell.fromBase64(link.proof),
        stateProof: Cell.fromBase64(link.state_proof),
      })),
    });
    expect(converted).toEqual(recorded);
    if (nativeOrder(file)) expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });
});

describe('shard block proof objects', () => {
  const mc: BlockIdExtInput = { workchain: -1, shard: ROOT_SHARD, seqno: 9, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) };
  const shard: BlockIdExtInput = {
    workchain: 0,
    shard: 0x6000000000000000n,
    seqno: 40,
    rootHash: Buffer.alloc(32, 3),
    fileHash: Buffer.alloc(32, 4),
  };

  test('shard links keep the lite-server bytes; absent link proofs print as ""; proofs lose the CRC32C', () => {
    const cell = beginCell().storeUint(0xfeed, 16).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
    const json = toShardBlockProof({
      from: mc,
      mcId: { ...mc, seqno: 8 },
      links: [{ id: shard, proof: Buffer.from('passed through') }],
      mcProof: [{ toKeyBlock: true, from: mc, to: { ...mc, seqno: 8 }, destProof: cell, proof: null, stateProof: cell }],
    });
    expect(json.links).toEqual([
      { '@type': 'blocks.shardBlockLink', id: toBlockIdExt(shard), proof: Buffer.from('passed through').toString('base64') },
    ]);
    expect(json.mc_proof[0]).toMatchObject({ '@type': 'blocks.blockLinkBack', to_key_block: true, proof: '' });
    expect(json.mc_proof[0].dest_proof.startsWith('te6ccg')).toBe(true);
    expect(Cell.fromBase64(json.mc_proof[0].state_proof).hash().equals(cell.hash())).toBe(true);
    expect(json.mc_id.seqno).toBe(8);
  });
});

// ---- getOutMsgQueueSize, absent config params -------------------------------------------------

describe('queue sizes and config cells', () => {
  test('blocks.outMsgQueueSizes: the shape the seed describes, ids as chain.blockIdExt', () => {
    const mc: BlockIdExtInput = {
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: 3,
      rootHash: Buffer.alloc(32, 1),
      fileHash: Buffer.alloc(32, 2),
    };
    const top: BlockIdExtInput = { ...mc, workchain: 0, seqno: 7 };
    const json = toOutMsgQueueSizes({
      shards: [
        { id: mc, size: 0 },
        { id: top, size: 12 },
      ],
      extMsgQueueSizeLimit: 8000,
    });
    expect(json).toEqual({
      '@type': 'blocks.outMsgQueueSizes',
      shards: [
        { '@type': 'blocks.outMsgQueueSize', id: { ...toBlockIdExt(mc), '@type': 'chain.blockIdExt' }, size: 0 },
        { '@type': 'blocks.outMsgQueueSize', id: { ...toBlockIdExt(top), '@type': 'chain.blockIdExt' }, size: 12 },
      ],
      ext_msg_queue_size_limit: 8000,
    });
    expect(keyOrder(json)[0]).toBe('$: @type,shards,ext_msg_queue_size_limit');
    expect(Object.keys(json.shards[0].id)).toEqual(['@type', 'workchain', 'shard', 'seqno', 'root_hash', 'file_hash']);
    expect(json.shards[1].id).toMatchObject({ '@type': 'chain.blockIdExt', workchain: 0, shard: '-9223372036854775808', seqno: 7 });
  });

  test('a config parameter the chain does not have is a tvm.cell with empty bytes', () => {
    expect(toConfigInfo(null)).toEqual({ '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: '' } });
  });
});

describe('shardchain block headers', () => {
  test('prev_key_block_seqno is reported for masterchain blocks only (tonlib)', () => {
    const ref = { endLt: 1n, seqno: 4, rootHash: Buffer.alloc(32, 5), fileHash: Buffer.alloc(32, 6) };
    const info: BlockInfo = {
      version: 0,
      notMaster: true,
      afterMerge: false,
      beforeSplit: false,
      afterSplit: false,
      wantSplit: false,
      wantMerge: false,
      keyBlock: false,
      vertSeqnoIncr: false,
      flags: 0,
      seqno: 5,
      vertSeqno: 0,
      shard: { shardPrefixBits: 0, workchainId: 0, shardPrefix: 0n },
      genUtime: 1,
      startLt: 2n,
      endLt: 3n,
      genValidatorListHashShort: 0,
      genCatchainSeqno: 0,
      minRefMcSeqno: 1,
      prevKeyBlockSeqno: 17,
      genSoftware: null,
      masterRef: ref,
      prevRef: { kind: 'single', prev: ref },
      prevVertRef: null,
    };
    const id: BlockIdExtInput = { workchain: 0, shard: ROOT_SHARD, seqno: 5, rootHash: Buffer.alloc(32, 7), fileHash: Buffer.alloc(32, 8) };
    expect(toBlockHeader({ id, globalId: -217, info }).prev_key_block_seqno).toBe(0);
    expect(
      toBlockHeader({ id: { ...id, workchain: -1 }, globalId: -217, info: { ...info, notMaster: false, masterRef: null } })
        .prev_key_block_seqno,
    ).toBe(17);
  });
});
