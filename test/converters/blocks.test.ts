import { beginCell, Cell, convertToMerkleProof } from '@ton/core';
import { toBlockHeader, previousBlockIds } from '../../src/converters/blockHeader';
import { shardChild, shardParent } from '../../src/tlb';
import {
  BlockIdExtInput,
  emptyTransactionId,
  shardToString,
  toBlockIdExt,
  toTransactionId,
  zeroStateToBlockIdExt,
} from '../../src/converters/blockId';
import { loadBlockHeaderPart, shardIdentToShardId } from '../../src/tlb/blockHeaderPart';
import { loadBlockInfo, storeBlockInfo, type BlockInfo } from '../../src/tlb';
import { toBlockTransactions, toBlockTransactionsExt, toShortTxId } from '../../src/converters/blockTransactions';
import { toConfigInfo, toTvmCell } from '../../src/converters/config';
import { toLibraryResult } from '../../src/converters/libraries';
import { toMasterchainInfo } from '../../src/converters/masterchainInfo';
import { toBlockShards } from '../../src/converters/shards';
import { toBlockSignatures, toBlockSignaturesSimplex } from '../../src/converters/signatures';
import { loadTransactionBoc } from '../../src/converters/transaction';
import { bocBase64 } from '../../src/cells/bocWriter';
import { describeWithFixtures, fixtureResult, loadFixtures } from '../helpers/fixtures';
import { type RecordedId, fixtureRows, idInput, keyOrder, projectOnto, result, withoutExtra } from './support';

/** GetBlock's 2023 recordings have alphabetically re-sorted keys; only native-order ones pin key order. */
const sortedKeys = (file: string) => /-01\.json$/.test(file) && !file.startsWith('lookupBlock-03');

describeWithFixtures('block objects against the recordings', () => {
  test.each(fixtureRows('lookupBlock'))('%s: ton.blockIdExt', (file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as RecordedId;
    const converted = toBlockIdExt(idInput(recorded));
    expect(converted).toEqual(recorded);
    if (!sortedKeys(file)) expect(Object.keys(converted)).toEqual(Object.keys(recorded));
  });

  test('lookupBlock-02 was asked with the unsigned hex shard 8000000000000000 and answers the signed form', () => {
    expect(shardToString(BigInt('0x' + String(loadFixtures('lookupBlock')[1].params['shard'])))).toBe('-9223372036854775808');
  });

  test.each(fixtureRows('shards'))('%s: blocks.shards', (file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as { shards: RecordedId[] };
    // The ids go in as unsigned bigints, as a block parser produces them.
    const converted = toBlockShards(recorded.shards.map((id) => ({ ...idInput(id), shard: BigInt.asUintN(64, BigInt(id.shard)) })));
    expect(converted).toEqual(recorded);
    if (!sortedKeys(file)) expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });

  test.each(fixtureRows('getMasterchainInfo'))('%s: blocks.masterchainInfo', (file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as { last: RecordedId; init: RecordedId; state_root_hash: string };
    const converted = toMasterchainInfo({
      last: idInput(recorded.last),
      stateRootHash: Buffer.from(recorded.state_root_hash, 'base64'),
      init: {
        workchain: recorded.init.workchain,
        rootHash: Buffer.from(recorded.init.root_hash, 'base64'),
        fileHash: Buffer.from(recorded.init.file_hash, 'base64'),
      },
    });
    expect(converted).toEqual(recorded);
    expect(converted.init.shard).toBe('0');
    if (!sortedKeys(file)) expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });

  test.each(fixtureRows('getBlockTransactions'))('%s: blocks.transactions', (file, f) => {
    type Short = { account: string; lt: string; hash: string; mode: number };
    const recorded = withoutExtra(fixtureResult(f)) as { id: RecordedId; req_count: number; incomplete: boolean; transactions: Short[] };
    const converted = toBlockTransactions({
      id: idInput(recorded.id),
      reqCount: recorded.req_count,
      incomplete: recorded.incomplete,
      transactions: recorded.transactions.map((tx) => ({
        account: Buffer.from(tx.account.split(':')[1], 'hex'),
        lt: BigInt(tx.lt),
        hash: Buffer.from(tx.hash, 'base64'),
      })),
    });
    expect(converted).toEqual(recorded);
    if (!sortedKeys(file)) expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });

  test('getBlockTransactions-02 and getBlockTransactionsExt-01 list the same block; the Ext ids match the short ids', () => {
    const short = fixtureResult(loadFixtures('getBlockTransactions')[1]) as {
      transactions: { lt: string; hash: string; account: string }[];
    };
    const ext = withoutExtra(fixtureResult(loadFixtures('getBlockTransactionsExt')[0])) as {
      id: RecordedId;
      req_count: number;
      incomplete: boolean;
      transactions: { data: string }[];
    };
    const converted = toBlockTransactionsExt({
      id: idInput(ext.id),
      reqCount: ext.req_count,
      incomplete: ext.incomplete,
      transactions: ext.transactions.map((tx) => loadTransactionBoc(tx.data)),
    });
    expect(projectOnto(converted, ext)).toEqual(ext);
    expect(converted.transactions.map((tx) => [tx.account, tx.transaction_id.lt, tx.transaction_id.hash])).toEqual(
      short.transactions.map((tx) => [tx.account, tx.lt, tx.hash]),
    );
  });

  test.each(fixtureRows('getConfigParam'))('%s: configInfo', (_file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as { config: { bytes: string } };
    expect(toConfigInfo(Cell.fromBase64(recorded.config.bytes))).toEqual(recorded);
  });

  test('getMasterchainBlockSignatures-01: 80 signatures', () => {
    const recorded = withoutExtra(result('getMasterchainBlockSignatures-01')) as {
      id: RecordedId;
      signatures: { node_id_short: string; signature: string }[];
    };
    expect(recorded.signatures).toHaveLength(80);
    const converted = toBlockSignatures(
      idInput(recorded.id),
      recorded.signatures.map((s) => ({
        nodeIdShort: Buffer.from(s.node_id_short, 'base64'),
        signature: Buffer.from(s.signature, 'base64'),
      })),
    );
    expect(converted).toEqual(recorded);
    expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });

  // No BoC of these headers was recorded: a BlockInfo carrying the recorded values is built, stored as a
  // block cell, parsed back, and converted; this pins every field mapping and the prev_blocks rule.
  test.each(fixtureRows('getBlockHeader'))('%s: blocks.header from a BlockInfo', (file, f) => {
    const recorded = withoutExtra(fixtureResult(f)) as Record<string, unknown> & { id: RecordedId; prev_blocks: RecordedId[] };
    const prev = recorded.prev_blocks[0];
    const info: BlockInfo = {
      version: recorded['version'] as number,
      notMaster: false,
      afterMerge: recorded['after_merge'] as boolean,
      beforeSplit: recorded['before_split'] as boolean,
      afterSplit: recorded['after_split'] as boolean,
      wantSplit: recorded['want_split'] as boolean,
      wantMerge: recorded['want_merge'] as boolean,
      keyBlock: recorded['is_key_block'] as boolean,
      vertSeqnoIncr: false,
      flags: recorded['flags'] as number,
      seqno: recorded.id.seqno,
      vertSeqno: recorded['vert_seqno'] as number,
      shard: { shardPrefixBits: 0, workchainId: -1, shardPrefix: 0n },
      genUtime: recorded['gen_utime'] as number,
      startLt: BigInt(recorded['start_lt'] as string),
      endLt: BigInt(recorded['end_lt'] as string),
      genValidatorListHashShort: (recorded['validator_list_hash_short'] as number) >>> 0,
      genCatchainSeqno: recorded['catchain_seqno'] as number,
      minRefMcSeqno: recorded['min_ref_mc_seqno'] as number,
      prevKeyBlockSeqno: recorded['prev_key_block_seqno'] as number,
      genSoftware: { version: 8, capabilities: 0x2en },
      masterRef: null,
      prevRef: {
        kind: 'single',
        prev: {
          endLt: BigInt(recorded['start_lt'] as string),
          seqno: prev.seqno,
          rootHash: Buffer.from(prev.root_hash, 'base64'),
          fileHash: Buffer.from(prev.file_hash, 'base64'),
        },
      },
      prevVertRef: null,
    };
    const blockCell = beginCell()
      .storeUint(0x11ef55aa, 32)
      .storeInt(recorded['global_id'] as number, 32)
      .storeRef(beginCell().store(storeBlockInfo(info)).endCell())
      .endCell();
    const { globalId, info: parsed } = loadBlockHeaderPart(blockCell);
    const converted = toBlockHeader({ id: idInput(recorded.id), globalId, info: parsed });
    expect(converted).toEqual(recorded);
    if (!sortedKeys(file)) expect(keyOrder(converted)).toEqual(keyOrder(recorded));
  });
});

// ---------------------------------------------------------------------------------------------

const HASH_A = Buffer.alloc(32, 0xaa);
const HASH_B = Buffer.alloc(32, 0xbb);

describe('block ids', () => {
  test('shards are printed as signed 64-bit decimals whatever form they come in', () => {
    expect(shardToString(0x8000000000000000n)).toBe('-9223372036854775808');
    expect(shardToString(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(shardToString('-9223372036854775808')).toBe('-9223372036854775808');
    expect(shardToString('0x2000000000000000')).toBe('2305843009213693952');
    expect(shardToString(0xa000000000000000n)).toBe('-6917529027641081856');
  });

  test('ton.blockIdExt and the transaction ids', () => {
    expect(toBlockIdExt({ workchain: 0, shard: 0x6000000000000000n, seqno: 5, rootHash: HASH_A, fileHash: HASH_B })).toEqual({
      '@type': 'ton.blockIdExt',
      workchain: 0,
      shard: '6917529027641081856',
      seqno: 5,
      root_hash: HASH_A.toString('base64'),
      file_hash: HASH_B.toString('base64'),
    });
    expect(emptyTransactionId()).toEqual({
      '@type': 'internal.transactionId',
      lt: '0',
      hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    });
    expect(toTransactionId(12n, 0xffn).hash).toBe(Buffer.concat([Buffer.alloc(31), Buffer.from([0xff])]).toString('base64'));
    expect(() => toBlockIdExt({ workchain: 0, shard: 1n, seqno: 1, rootHash: Buffer.alloc(31), fileHash: HASH_B })).toThrow();
    expect(zeroStateToBlockIdExt({ workchain: -1, rootHash: HASH_A, fileHash: HASH_B })).toMatchObject({ shard: '0', seqno: 0 });
  });
});

describe('block header', () => {
  const ref = (seqno: number, byte: number) => ({
    endLt: 100n,
    seqno,
    rootHash: Buffer.alloc(32, byte),
    fileHash: Buffer.alloc(32, byte + 1),
  });
  const baseInfo: BlockInfo = {
    version: 0,
    notMaster: true,
    afterMerge: false,
    beforeSplit: false,
    afterSplit: false,
    wantSplit: false,
    wantMerge: false,
    keyBlock: false,
    vertSeqnoIncr: true,
    flags: 0,
    seqno: 10,
    vertSeqno: 1,
    shard: { shardPrefixBits: 2, workchainId: 0, shardPrefix: 0x4000000000000000n },
    genUtime: 1700000000,
    startLt: 1000n,
    endLt: 1005n,
    genValidatorListHashShort: 0xfffffffe,
    genCatchainSeqno: 3,
    minRefMcSeqno: 4,
    prevKeyBlockSeqno: 5,
    genSoftware: null,
    masterRef: ref(77, 1),
    prevRef: { kind: 'single', prev: ref(9, 3) },
    prevVertRef: { kind: 'single', prev: ref(8, 5) },
  };

  test('BlockInfo store/load round trip (shardchain block with master_ref and prev_vert_ref)', () => {
    const cell = beginCell().store(storeBlockInfo(baseInfo)).endCell();
    expect(loadBlockInfo(cell.beginParse())).toEqual(baseInfo);
    expect(shardIdentToShardId(baseInfo.shard)).toBe(0x6000000000000000n);
    const merged: BlockInfo = { ...baseInfo, afterMerge: true, prevRef: { kind: 'merged', prev1: ref(9, 3), prev2: ref(7, 9) } };
    expect(loadBlockInfo(beginCell().store(storeBlockInfo(merged)).endCell().beginParse())).toEqual(merged);
  });

  test('shard arithmetic', () => {
    expect(shardParent(0x6000000000000000n)).toBe(0x4000000000000000n);
    expect(shardParent(0x4000000000000000n)).toBe(0x8000000000000000n);
    expect(shardChild(0x8000000000000000n, true)).toBe(0x4000000000000000n);
    expect(shardChild(0x8000000000000000n, false)).toBe(0xc000000000000000n);
  });

  test('prev_blocks: same shard, parent after a split, both children after a merge', () => {
    const id: BlockIdExtInput = { workchain: 0, shard: 0x6000000000000000n, seqno: 10, rootHash: HASH_A, fileHash: HASH_B };
    expect(previousBlockIds(id, baseInfo).map((p) => [p.shard, p.seqno])).toEqual([[0x6000000000000000n, 9]]);
    expect(previousBlockIds(id, { ...baseInfo, afterSplit: true }).map((p) => p.shard)).toEqual([0x4000000000000000n]);
    const merged: BlockInfo = { ...baseInfo, afterMerge: true, prevRef: { kind: 'merged', prev1: ref(9, 3), prev2: ref(7, 9) } };
    expect(previousBlockIds(id, merged).map((p) => [p.shard, p.seqno])).toEqual([
      [0x5000000000000000n, 9],
      [0x7000000000000000n, 7],
    ]);
  });

  test('blocks.header: signed int32 fields, decimal lts, read through a Merkle proof of the block', () => {
    const block = beginCell()
      .storeUint(0x11ef55aa, 32)
      .storeInt(-239, 32)
      .storeRef(beginCell().store(storeBlockInfo(baseInfo)).endCell())
      .storeRef(beginCell().storeUint(1, 8).endCell())
      .endCell();
    const part = loadBlockHeaderPart(convertToMerkleProof(block));
    const id: BlockIdExtInput = { workchain: 0, shard: 0x6000000000000000n, seqno: 10, rootHash: HASH_A, fileHash: HASH_B };
    const header = toBlockHeader({ id, ...part });
    expect(header).toMatchObject({
      '@type': 'blocks.header',
      global_id: -239,
      validator_list_hash_short: -2,
      start_lt: '1000',
      end_lt: '1005',
      vert_seqno: 1,
      prev_blocks: [{ shard: '6917529027641081856', seqno: 9 }],
    });
    expect(Object.keys(header)).toEqual([
      '@type',
      'id',
      'global_id',
      'version',
      'flags',
      'after_merge',
      'after_split',
      'before_split',
      'want_merge',
      'want_split',
      'validator_list_hash_short',
      'catchain_seqno',
      'min_ref_mc_seqno',
      'is_key_block',
      'prev_key_block_seqno',
      'start_lt',
      'end_lt',
      'gen_utime',
      'vert_seqno',
      'prev_blocks',
    ]);
  });
});

describe('other block-level objects', () => {
  const id: BlockIdExtInput = { workchain: -1, shard: '-9223372036854775808', seqno: 3, rootHash: HASH_A, fileHash: HASH_B };

  test('blocks.shortTxId: lowercase raw account of the block workchain, mode 135 by default', () => {
    expect(toShortTxId(-1, { account: 0xabn, lt: 5n, hash: HASH_A })).toEqual({
      '@type': 'blocks.shortTxId',
      mode: 135,
      account: '-1:' + '0'.repeat(62) + 'ab',
      lt: '5',
      hash: HASH_A.toString('base64'),
    });
    expect(toBlockTransactions({ id, reqCount: 40, incomplete: true, transactions: [], mode: 7 })).toEqual({
      '@type': 'blocks.transactions',
      id: toBlockIdExt(id),
      req_count: 40,
      incomplete: true,
      transactions: [],
    });
  });

  test('configInfo / tvm.cell / smc.libraryResult / signatures', () => {
    const cell = beginCell().storeUint(5, 8).endCell();
    expect(toConfigInfo(cell)).toEqual({ '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bocBase64(cell) } });
    expect(toTvmCell(cell).bytes.startsWith('te6cck')).toBe(true);
    const raw = Buffer.from('not re-serialised');
    expect(
      toLibraryResult([
        { hash: HASH_A, data: cell },
        { hash: 1n, data: raw },
      ]),
    ).toEqual({
      '@type': 'smc.libraryResult',
      result: [
        { '@type': 'smc.libraryEntry', hash: HASH_A.toString('base64'), data: bocBase64(cell) },
        {
          '@type': 'smc.libraryEntry',
          hash: Buffer.concat([Buffer.alloc(31), Buffer.from([1])]).toString('base64'),
          data: raw.toString('base64'),
        },
      ],
    });
    const signature = { nodeIdShort: HASH_B, signature: Buffer.alloc(64, 1) };
    expect(toBlockSignatures(id, [signature]).signatures[0]).toEqual({
      '@type': 'blocks.signature',
      node_id_short: HASH_B.toString('base64'),
      signature: Buffer.alloc(64, 1).toString('base64'),
    });
    expect(
      toBlockSignaturesSimplex({ id, signatures: [signature], sessionId: HASH_A, slot: 4, candidate: Buffer.from([1, 2]) }),
    ).toMatchObject({
      '@type': 'blocks.blockSignatures.simplex',
      session_id: HASH_A.toString('base64'),
      slot: 4,
      candidate: 'AQI=',
    });
  });
});
