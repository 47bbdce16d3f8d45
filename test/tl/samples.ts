/** Sample values for every lite function and answer, covering each optional field both ways. */
import {
  AccountId,
  BlockId,
  BlockIdExt,
  LiteAnswerMap,
  LiteQuery,
  LiteQueryKind,
  Signature,
  TransactionId,
  ZeroStateIdExt,
} from '../../src/tl';

export function hash(seed: number): Buffer {
  return Buffer.alloc(32, seed);
}

export const mcBlock: BlockIdExt = {
  kind: 'tonNode.blockIdExt',
  workchain: -1,
  shard: '-9223372036854775808',
  seqno: 12345,
  rootHash: hash(1),
  fileHash: hash(2),
};
export const shardBlock: BlockIdExt = {
  kind: 'tonNode.blockIdExt',
  workchain: 0,
  shard: '-9223372036854775808',
  seqno: 777,
  rootHash: hash(3),
  fileHash: hash(4),
};
const blockId: BlockId = { kind: 'tonNode.blockId', workchain: 0, shard: '6917529027641081856', seqno: 99 };
const zeroState: ZeroStateIdExt = { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: hash(5), fileHash: hash(6) };
const account: AccountId = { kind: 'liteServer.accountId', workchain: 0, id: hash(7) };
/** 300 bytes: exercises the long (0xFE + 3-byte length) form of TL bytes. */
const longBytes = Buffer.from(Array.from({ length: 300 }, (_, i) => i & 0xff));
const signature: Signature = { kind: 'liteServer.signature', nodeIdShort: hash(8), signature: Buffer.alloc(64, 9) };

/**
 * Every request shape; `liteClientCompatible` marks samples ton-lite-client's generator encodes
 * identically (it drops zero-valued optionals and mis-encodes `true` flags).
 */
export const sampleQueries: { query: LiteQuery; liteClientCompatible: boolean }[] = [
  { query: { kind: 'liteServer.getMasterchainInfo' }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getMasterchainInfoExt', mode: 0 }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getTime' }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getVersion' }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getBlock', id: mcBlock }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getState', id: shardBlock }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getBlockHeader', id: mcBlock, mode: 1 }, liteClientCompatible: true },
  { query: { kind: 'liteServer.sendMessage', body: longBytes }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getAccountState', id: mcBlock, account }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getAccountStatePrunned', id: mcBlock, account }, liteClientCompatible: true },
  {
    query: {
      kind: 'liteServer.runSmcMethod',
      mode: 4,
      id: mcBlock,
      account: { kind: 'liteServer.accountId', workchain: -1, id: hash(10) },
      methodId: '85143',
      params: Buffer.from('b5ee9c72', 'hex'),
    },
    liteClientCompatible: true,
  },
  {
    query: { kind: 'liteServer.getShardInfo', id: mcBlock, workchain: 0, shard: '-9223372036854775808', exact: true },
    liteClientCompatible: true,
  },
  { query: { kind: 'liteServer.getAllShardsInfo', id: mcBlock }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getOneTransaction', id: shardBlock, account, lt: '47000000000001' }, liteClientCompatible: true },
  {
    query: { kind: 'liteServer.getTransactions', count: 16, account, lt: '47000000000001', hash: hash(11) },
    liteClientCompatible: true,
  },
  { query: { kind: 'liteServer.lookupBlock', mode: 1, id: blockId, lt: null, utime: null }, liteClientCompatible: true },
  { query: { kind: 'liteServer.lookupBlock', mode: 2, id: blockId, lt: '123456789', utime: null }, liteClientCompatible: true },
  { query: { kind: 'liteServer.lookupBlock', mode: 4, id: blockId, lt: null, utime: 1700000000 }, liteClientCompatible: true },
  // utime 0 with its bit set: ton-lite-client would drop the field.
  { query: { kind: 'liteServer.lookupBlock', mode: 4, id: blockId, lt: null, utime: 0 }, liteClientCompatible: false },
  {
    query: { kind: 'liteServer.lookupBlockWithProof', mode: 2, id: blockId, mcBlockId: mcBlock, lt: '-1', utime: null },
    liteClientCompatible: false,
  },
  {
    query: {
      kind: 'liteServer.listBlockTransactions',
      id: shardBlock,
      mode: 7,
      count: 100,
      after: null,
      reverseOrder: null,
      wantProof: null,
    },
    liteClientCompatible: true,
  },
  {
    query: {
      kind: 'liteServer.listBlockTransactions',
      id: shardBlock,
      mode: 7 | 128,
      count: 40,
      after: { kind: 'liteServer.transactionId3', account: hash(12), lt: '47000000000002' },
      reverseOrder: null,
      wantProof: null,
    },
    liteClientCompatible: true,
  },
  {
    query: {
      kind: 'liteServer.listBlockTransactions',
      id: shardBlock,
      mode: 7 | 32 | 64 | 128 | 256,
      count: 1,
      after: { kind: 'liteServer.transactionId3', account: hash(13), lt: '0' },
      reverseOrder: true,
      wantProof: true,
    },
    liteClientCompatible: false,
  },
  {
    query: {
      kind: 'liteServer.listBlockTransactionsExt',
      id: shardBlock,
      mode: 64,
      count: 10,
      after: null,
      reverseOrder: true,
      wantProof: null,
    },
    liteClientCompatible: false,
  },
  { query: { kind: 'liteServer.getBlockProof', mode: 0, knownBlock: mcBlock, targetBlock: null }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getBlockProof', mode: 1, knownBlock: mcBlock, targetBlock: shardBlock }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getConfigAll', mode: 0, id: mcBlock }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getConfigParams', mode: 0, id: mcBlock, paramList: [0, 1, -999, 34] }, liteClientCompatible: true },
  {
    query: { kind: 'liteServer.getValidatorStats', mode: 5, id: mcBlock, limit: 10, startAfter: hash(14), modifiedAfter: 0 },
    liteClientCompatible: false,
  },
  { query: { kind: 'liteServer.getLibraries', libraryList: [hash(15), hash(16)] }, liteClientCompatible: true },
  {
    query: { kind: 'liteServer.getLibrariesWithProof', id: mcBlock, mode: 1, libraryList: [hash(17)] },
    liteClientCompatible: false,
  },
  { query: { kind: 'liteServer.getShardBlockProof', id: shardBlock }, liteClientCompatible: true },
  { query: { kind: 'liteServer.getOutMsgQueueSizes', mode: 0, wc: null, shard: null }, liteClientCompatible: false },
  // wc 0 with bit 0 set is exactly the case ton-lite-client's generator breaks.
  {
    query: { kind: 'liteServer.getOutMsgQueueSizes', mode: 1, wc: 0, shard: '-9223372036854775808' },
    liteClientCompatible: false,
  },
  { query: { kind: 'liteServer.getBlockOutMsgQueueSize', mode: 1, id: shardBlock, wantProof: true }, liteClientCompatible: false },
  { query: { kind: 'liteServer.getBlockOutMsgQueueSize', mode: 0, id: shardBlock, wantProof: null }, liteClientCompatible: false },
];

const txIdFull: TransactionId = {
  kind: 'liteServer.transactionId',
  mode: 7,
  account: hash(20),
  lt: '47000000000003',
  hash: hash(21),
  metadata: null,
};
const txIdWithMetadata: TransactionId = {
  kind: 'liteServer.transactionId',
  mode: 7 | 256,
  account: hash(22),
  lt: '0',
  hash: hash(23),
  metadata: {
    kind: 'liteServer.transactionMetadata',
    mode: 0,
    depth: 2,
    initiator: { kind: 'liteServer.accountId', workchain: -1, id: hash(24) },
    initiatorLt: '46999999999999',
  },
};
const txIdLtOnly: TransactionId = { kind: 'liteServer.transactionId', mode: 2, account: null, lt: '5', hash: null, metadata: null };

/** Answer samples; the first of each list is one ton-lite-client can decode. */
export const sampleAnswers: { [K in LiteQueryKind]: LiteAnswerMap[K][] } = {
  'liteServer.getMasterchainInfo': [{ kind: 'liteServer.masterchainInfo', last: mcBlock, stateRootHash: hash(30), init: zeroState }],
  'liteServer.getMasterchainInfoExt': [
    {
      kind: 'liteServer.masterchainInfoExt',
      mode: 0,
      version: 0x200,
      capabilities: '7',
      last: mcBlock,
      lastUtime: 1700000000,
      now: 1700000005,
      stateRootHash: hash(31),
      init: zeroState,
    },
  ],
  'liteServer.getTime': [{ kind: 'liteServer.currentTime', now: 1700000000 }],
  'liteServer.getVersion': [{ kind: 'liteServer.version', mode: 0, version: 0x101, capabilities: '1', now: 1700000000 }],
  'liteServer.getBlock': [{ kind: 'liteServer.blockData', id: mcBlock, data: longBytes }],
  'liteServer.getState': [{ kind: 'liteServer.blockState', id: mcBlock, rootHash: hash(32), fileHash: hash(33), data: Buffer.alloc(0) }],
  'liteServer.getBlockHeader': [{ kind: 'liteServer.blockHeader', id: mcBlock, mode: 1, headerProof: Buffer.from([1, 2, 3]) }],
  'liteServer.sendMessage': [{ kind: 'liteServer.sendMsgStatus', status: 1 }],
  'liteServer.getAccountState': [
    {
      kind: 'liteServer.accountState',
      id: mcBlock,
      shardblk: shardBlock,
      shardProof: Buffer.from([1]),
      proof: Buffer.from([2, 2]),
      state: longBytes,
    },
  ],
  'liteServer.getAccountStatePrunned': [
    {
      kind: 'liteServer.accountState',
      id: mcBlock,
      shardblk: shardBlock,
      shardProof: Buffer.alloc(0),
      proof: Buffer.alloc(0),
      state: Buffer.alloc(0),
    },
  ],
  'liteServer.runSmcMethod': [
    {
      kind: 'liteServer.runMethodResult',
      mode: 4,
      id: mcBlock,
      shardblk: shardBlock,
      shardProof: null,
      proof: null,
      stateProof: null,
      initC7: null,
      libExtras: null,
      exitCode: 0,
      result: Buffer.from('b5ee9c7241', 'hex'),
    },
    // Every optional field present, two of them empty: each must still be written.
    {
      kind: 'liteServer.runMethodResult',
      mode: 31,
      id: mcBlock,
      shardblk: shardBlock,
      shardProof: Buffer.alloc(0),
      proof: Buffer.from([5]),
      stateProof: Buffer.from([6]),
      initC7: Buffer.alloc(0),
      libExtras: Buffer.from([7]),
      exitCode: -14,
      result: Buffer.from([8]),
    },
  ],
  'liteServer.getShardInfo': [
    { kind: 'liteServer.shardInfo', id: mcBlock, shardblk: shardBlock, shardProof: Buffer.from([1]), shardDescr: Buffer.from([2]) },
  ],
  'liteServer.getAllShardsInfo': [{ kind: 'liteServer.allShardsInfo', id: mcBlock, proof: Buffer.from([1]), data: longBytes }],
  'liteServer.getOneTransaction': [{ kind: 'liteServer.transactionInfo', id: shardBlock, proof: Buffer.alloc(0), transaction: longBytes }],
  'liteServer.getTransactions': [
    { kind: 'liteServer.transactionList', ids: [shardBlock, mcBlock], transactions: longBytes },
    { kind: 'liteServer.transactionList', ids: [], transactions: Buffer.alloc(0) },
  ],
  'liteServer.lookupBlock': [{ kind: 'liteServer.blockHeader', id: shardBlock, mode: 4, headerProof: longBytes }],
  'liteServer.lookupBlockWithProof': [
    {
      kind: 'liteServer.lookupBlockResult',
      id: shardBlock,
      mode: 2,
      mcBlockId: mcBlock,
      clientMcStateProof: Buffer.from([1]),
      mcBlockProof: Buffer.from([2]),
      shardLinks: [{ kind: 'liteServer.shardBlockLink', id: shardBlock, proof: Buffer.from([3]) }],
      header: Buffer.from([4]),
      prevHeader: Buffer.alloc(0),
    },
  ],
  'liteServer.listBlockTransactions': [
    {
      kind: 'liteServer.blockTransactions',
      id: shardBlock,
      reqCount: 100,
      incomplete: false,
      ids: [txIdFull, txIdLtOnly],
      proof: Buffer.alloc(0),
    },
    {
      kind: 'liteServer.blockTransactions',
      id: shardBlock,
      reqCount: 1,
      incomplete: true,
      ids: [txIdWithMetadata],
      proof: Buffer.from([1]),
    },
  ],
  'liteServer.listBlockTransactionsExt': [
    {
      kind: 'liteServer.blockTransactionsExt',
      id: shardBlock,
      reqCount: 10,
      incomplete: true,
      transactions: longBytes,
      proof: Buffer.alloc(0),
    },
  ],
  'liteServer.getBlockProof': [
    {
      kind: 'liteServer.partialBlockProof',
      complete: true,
      from: mcBlock,
      to: mcBlock,
      steps: [
        {
          kind: 'liteServer.blockLinkBack',
          toKeyBlock: false,
          from: mcBlock,
          to: shardBlock,
          destProof: Buffer.from([1]),
          proof: Buffer.from([2]),
          stateProof: Buffer.from([3]),
        },
        {
          kind: 'liteServer.blockLinkForward',
          toKeyBlock: true,
          from: mcBlock,
          to: shardBlock,
          destProof: Buffer.from([4]),
          configProof: Buffer.from([5]),
          signatures: {
            kind: 'liteServer.signatureSet.ordinary',
            validatorSetHash: -123456,
            catchainSeqno: 42,
            signatures: [signature, signature],
          },
        },
      ],
    },
    {
      kind: 'liteServer.partialBlockProof',
      complete: false,
      from: mcBlock,
      to: shardBlock,
      steps: [
        {
          kind: 'liteServer.blockLinkForward',
          toKeyBlock: false,
          from: mcBlock,
          to: shardBlock,
          destProof: Buffer.alloc(0),
          configProof: Buffer.alloc(0),
          signatures: {
            kind: 'liteServer.signatureSet.simplex',
            ccSeqno: 3,
            validatorSetHash: 77,
            signatures: [signature],
            sessionId: hash(40),
            slot: 9,
            candidate: longBytes,
          },
        },
      ],
    },
  ],
  'liteServer.getConfigAll': [
    { kind: 'liteServer.configInfo', mode: 0, id: mcBlock, stateProof: Buffer.from([1]), configProof: longBytes },
  ],
  'liteServer.getConfigParams': [
    { kind: 'liteServer.configInfo', mode: 0, id: mcBlock, stateProof: Buffer.alloc(0), configProof: Buffer.from([2]) },
  ],
  'liteServer.getValidatorStats': [
    {
      kind: 'liteServer.validatorStats',
      mode: 0,
      id: mcBlock,
      count: 0,
      complete: true,
      stateProof: Buffer.alloc(0),
      dataProof: Buffer.alloc(0),
    },
  ],
  'liteServer.getLibraries': [
    {
      kind: 'liteServer.libraryResult',
      result: [{ kind: 'liteServer.libraryEntry', hash: hash(50), data: longBytes }],
    },
    { kind: 'liteServer.libraryResult', result: [] },
  ],
  'liteServer.getLibrariesWithProof': [
    {
      kind: 'liteServer.libraryResultWithProof',
      id: mcBlock,
      mode: 1,
      result: [{ kind: 'liteServer.libraryEntry', hash: hash(51), data: Buffer.from([1]) }],
      stateProof: Buffer.from([2]),
      dataProof: Buffer.from([3]),
    },
  ],
  'liteServer.getShardBlockProof': [
    {
      kind: 'liteServer.shardBlockProof',
      masterchainId: mcBlock,
      links: [{ kind: 'liteServer.shardBlockLink', id: shardBlock, proof: longBytes }],
    },
  ],
  'liteServer.getOutMsgQueueSizes': [
    {
      kind: 'liteServer.outMsgQueueSizes',
      shards: [
        { kind: 'liteServer.outMsgQueueSize', id: mcBlock, size: 0 },
        { kind: 'liteServer.outMsgQueueSize', id: shardBlock, size: 12 },
      ],
      extMsgQueueSizeLimit: 8000,
    },
  ],
  'liteServer.getBlockOutMsgQueueSize': [
    { kind: 'liteServer.blockOutMsgQueueSize', mode: 0, id: shardBlock, size: '0', proof: null },
    { kind: 'liteServer.blockOutMsgQueueSize', mode: 1, id: shardBlock, size: '9007199254740993', proof: Buffer.alloc(0) },
  ],
};
