import { Address, Cell, CellType, Dictionary, DictionaryValue, Slice, toNano } from '@ton/core';
import { createHash } from 'crypto';
import nacl from 'tweetnacl';
import { describeWithFixtures, fixtureResult, loadFixtures } from '../helpers/fixtures';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { CALL_MODES, callV2, resultOf, sendTransfer, type CallMode } from '../helpers/v2Calls';

/**
 * Blocks and block transactions end to end: HTTP (GET, POST, JSON-RPC) -> pool -> ADNL/TCP ->
 * the local chain. A transfer from a funded wallet to three others is sent first; the suites walk
 * from getMasterchainInfo to the block that holds it and check every answer against the chain.
 */

const FULL_SHARD = '-9223372036854775808';

interface BlockId {
  '@type': 'ton.blockIdExt';
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}
interface ShortTx {
  '@type': 'blocks.shortTxId';
  mode: number;
  account: string;
  lt: string;
  hash: string;
}
interface BlockTransactions {
  '@type': string;
  id: BlockId;
  req_count: number;
  incomplete: boolean;
  transactions: ShortTx[];
}
interface RawMessage {
  source: { account_address: string };
  destination: { account_address: string };
  value: string;
  msg_data: { '@type': string; text?: string };
}
interface ExtTransaction {
  '@type': string;
  account: string;
  address: { account_address: string };
  data: string;
  transaction_id: { lt: string; hash: string };
  in_msg?: RawMessage;
  out_msgs: RawMessage[];
}
interface BlockHeader {
  '@type': 'blocks.header';
  id: BlockId;
  global_id: number;
  is_key_block: boolean;
  prev_key_block_seqno: number;
  start_lt: string;
  end_lt: string;
  gen_utime: number;
  prev_blocks: BlockId[];
  [field: string]: unknown;
}

const blockParams = (id: BlockId) => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  root_hash: id.root_hash,
  file_hash: id.file_hash,
});
const raw = (address: Address) => `${address.workChain}:${address.hash.toString('hex')}`;
const b64 = (bytes: Buffer) => bytes.toString('base64');

let stack: LocalStack;
let sender: Address;
let recipients: Address[];
let seqnoBefore: number;

beforeAll(async () => {
  // One basechain shard: these checks follow a transfer and its three deliveries within one shard
  // block. Across shards, see localnetNetwork.test.ts.
  stack = await startLocalStack(['--shards', '1']);
  const wallets = stack.localnet.wallets.wallets;
  recipients = [
    wallets.find((w) => w.version === 'v4r2' && w.index === 1)!.address,
    wallets.find((w) => w.version === 'v5r1' && w.index === 0)!.address,
    wallets.find((w) => w.version === 'v5r1' && w.index === 1)!.address,
  ];
  ({ seqnoBefore, sender } = await sendTransfer(stack, recipients, toNano('1')));
}, 60000);

afterAll(async () => {
  await stack?.stop();
});

/** getMasterchainInfo -> getShards of each newer masterchain block -> getBlockTransactions, until the sender's transaction shows up. */
async function walkToTransfer(mode: CallMode): Promise<{ mcSeqno: number; shardBlock: BlockId; list: BlockTransactions }> {
  const info = await resultOf<{ last: BlockId }>(stack, mode, 'getMasterchainInfo');
  for (let seqno = info.last.seqno; seqno > seqnoBefore; seqno--) {
    const { shards } = await resultOf<{ shards: BlockId[] }>(stack, mode, 'getShards', { seqno });
    for (const shardBlock of shards) {
      const list = await resultOf<BlockTransactions>(stack, mode, 'getBlockTransactions', { ...blockParams(shardBlock), count: 40 });
      if (list.transactions.some((tx) => tx.account === raw(sender))) return { mcSeqno: seqno, shardBlock, list };
    }
  }
  throw new Error('the transfer is in no block after the one it was sent at');
}

function storedBlock(id: BlockId) {
  const shard = id.shard === undefined ? 0x8000000000000000n : BigInt.asUintN(64, BigInt(id.shard));
  const block = stack.localnet.chain.store.bySeqno(id.workchain, id.seqno, shard);
  if (!block) throw new Error(`the chain has no block ${id.workchain}:${id.seqno}`);
  return block;
}

describe.each(CALL_MODES)('%s', (mode) => {
  test('walk: getMasterchainInfo -> getShards -> getBlockTransactions(Ext) -> the transfer and its three deliveries', async () => {
    const { mcSeqno, shardBlock, list } = await walkToTransfer(mode);
    const stored = storedBlock(shardBlock);
    expect(shardBlock).toEqual({
      '@type': 'ton.blockIdExt',
      workchain: 0,
      shard: FULL_SHARD,
      seqno: stored.id.seqno,
      root_hash: b64(stored.id.rootHash),
      file_hash: b64(stored.id.fileHash),
    });
    expect(stack.localnet.chain.store.bySeqno(-1, mcSeqno)!.shardTops).toContainEqual(stored.id);

    // Short ids: (account, lt) order, lowercase raw accounts, mode 135, exactly the block's transactions.
    expect(list).toMatchObject({ '@type': 'blocks.transactions', id: shardBlock, req_count: 40, incomplete: false });
    expect(list.transactions).toEqual(
      stored.transactions.map((tx) => ({
        '@type': 'blocks.shortTxId',
        mode: 135,
        account: `0:${tx.address.toString('hex')}`,
        lt: tx.lt.toString(),
        hash: b64(tx.hash),
      })),
    );
    const accounts = list.transactions.map((tx) => tx.account);
    expect(accounts).toEqual(expect.arrayContaining([sender, ...recipients].map(raw)));

    const ext = await resultOf<{ '@type': string; id: BlockId; req_count: number; incomplete: boolean; transactions: ExtTransaction[] }>(
      stack,
      mode,
      'getBlockTransactionsExt',
      { ...blockParams(shardBlock), count: 40 },
    );
    expect(ext).toMatchObject({ '@type': 'blocks.transactionsExt', id: shardBlock, req_count: 40, incomplete: false });
    // C++ prints the shortTxId account with lowercase hex, the Ext transaction's with uppercase (to_hex).
    expect(ext.transactions.map((tx) => [tx.account, tx.transaction_id.lt, tx.transaction_id.hash])).toEqual(
      list.transactions.map((tx) => [tx.account.toUpperCase(), tx.lt, tx.hash]),
    );
    for (const tx of ext.transactions) {
      expect(tx['@type']).toBe('raw.transaction');
      expect(Cell.fromBase64(tx.data).hash().toString('base64')).toBe(tx.transaction_id.hash);
      expect(Address.parse(tx.address.account_address).equals(Address.parseRaw(tx.account))).toBe(true);
    }
    const sent = ext.transactions.find((tx) => tx.account === raw(sender).toUpperCase())!;
    expect(sent.in_msg?.source.account_address).toBe('');
    expect(sent.out_msgs.map((m) => Address.parse(m.destination.account_address).toRawString()).sort()).toEqual(recipients.map(raw).sort());
    for (const recipient of recipients) {
      const delivered = ext.transactions.find((tx) => tx.account === raw(recipient).toUpperCase())!;
      expect(delivered.in_msg?.source.account_address).toBe(sender.toString({ bounceable: true, urlSafe: true, testOnly: false }));
      expect(delivered.in_msg?.value).toBe(toNano('1').toString());
      expect(delivered.in_msg?.msg_data).toEqual({ '@type': 'msg.dataText', text: Buffer.from('blocks e2e').toString('base64') });
    }
  });

  test('lookupBlock by seqno, by lt and by unixtime', async () => {
    const { mcSeqno, shardBlock, list } = await walkToTransfer(mode);
    const mc = storedBlock({ workchain: -1, seqno: mcSeqno } as BlockId);
    const bySeqno = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: mcSeqno });
    expect(bySeqno).toEqual({
      '@type': 'ton.blockIdExt',
      workchain: -1,
      shard: FULL_SHARD,
      seqno: mcSeqno,
      root_hash: b64(mc.id.rootHash),
      file_hash: b64(mc.id.fileHash),
    });
    expect(await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: 0, shard: FULL_SHARD, seqno: shardBlock.seqno })).toEqual(
      shardBlock,
    );

    // tonlib's rule for the block found by lt / utime: prev.end_lt <= lt <= end_lt, prev.gen_utime <= utime <= gen_utime.
    const lt = list.transactions.find((tx) => tx.account === raw(sender))!.lt;
    const byLt = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: 0, shard: FULL_SHARD, lt });
    expect(byLt).toEqual(shardBlock);
    const header = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', blockParams(byLt));
    const prevHeader = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', blockParams(header.prev_blocks[0]));
    expect(BigInt(prevHeader.end_lt)).toBeLessThanOrEqual(BigInt(lt));
    expect(BigInt(lt)).toBeLessThanOrEqual(BigInt(header.end_lt));

    const unixtime = header.gen_utime;
    const byTime = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, unixtime });
    const timeHeader = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', blockParams(byTime));
    expect(timeHeader.gen_utime).toBeGreaterThanOrEqual(unixtime);
    if (byTime.seqno > 1) {
      const before = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', blockParams(timeHeader.prev_blocks[0]));
      expect(before.gen_utime).toBeLessThanOrEqual(unixtime);
    }
    expect(byTime.seqno).toBeLessThanOrEqual(mcSeqno);
  });

  test('lookupBlock: exactly one key (422), and an unknown block is a prompt lite-server 500', async () => {
    const ambiguous: Record<string, number>[] = [{}, { seqno: 1, lt: 5 }, { seqno: 1, unixtime: 5 }];
    for (const params of ambiguous) {
      const res = await callV2(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, ...params });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        ok: false,
        code: 422,
        error: 'failed to validate request: exactly one of seqno, lt, unixtime should be specified',
      });
    }
    const unknown: Record<string, number>[] = [{ seqno: 10_000_000 }, { unixtime: 2_000_000_000 }];
    for (const params of unknown) {
      const res = await callV2(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, ...params });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ ok: false, code: 500, error: expect.stringMatching(/^LITE_SERVER_NOTREADY: block not found/) });
    }
  });

  test('getBlockHeader: every field from the header proof, masterchain and shardchain', async () => {
    const { mcSeqno, shardBlock } = await walkToTransfer(mode);
    const stored = storedBlock(shardBlock);
    const header = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', { workchain: 0, shard: FULL_SHARD, seqno: shardBlock.seqno });
    const previous = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: 0, shard: FULL_SHARD, seqno: shardBlock.seqno - 1 });
    expect(header).toEqual({
      '@type': 'blocks.header',
      id: shardBlock,
      global_id: stack.localnet.chain.globalId,
      version: expect.any(Number),
      flags: expect.any(Number),
      after_merge: false,
      after_split: false,
      before_split: false,
      want_merge: false,
      want_split: false,
      validator_list_hash_short: expect.any(Number),
      catchain_seqno: expect.any(Number),
      min_ref_mc_seqno: expect.any(Number),
      is_key_block: false,
      // tonlib leaves it 0 for shardchain blocks.
      prev_key_block_seqno: 0,
      start_lt: stored.startLt.toString(),
      end_lt: stored.endLt.toString(),
      gen_utime: stored.genUtime,
      vert_seqno: expect.any(Number),
      prev_blocks: [previous],
    });

    const mc = storedBlock({ workchain: -1, seqno: mcSeqno } as BlockId);
    const mcId = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: mcSeqno });
    // Both hashes given: used as they are, no lookup.
    const mcHeader = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', blockParams(mcId));
    expect(mcHeader).toMatchObject({
      id: mcId,
      is_key_block: false,
      prev_key_block_seqno: mc.prevKeyBlockSeqno,
      start_lt: mc.startLt.toString(),
      end_lt: mc.endLt.toString(),
      gen_utime: mc.genUtime,
      prev_blocks: [await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: mcSeqno - 1 })],
    });
    const first = await resultOf<BlockHeader>(stack, mode, 'getBlockHeader', { workchain: -1, shard: FULL_SHARD, seqno: 1 });
    expect(first.is_key_block).toBe(true);
    expect(first.prev_blocks[0]).toMatchObject({ seqno: 0, root_hash: b64(stack.localnet.chain.zeroState.id.rootHash) });

    const wrong = await callV2(stack, mode, 'getBlockHeader', { ...blockParams(mcId), root_hash: b64(Buffer.alloc(32, 7)) });
    expect(wrong.status).toBe(500);
    expect(wrong.body.error).toMatch(/^LITE_SERVER_/);
  });

  test('getMasterchainBlockSignatures: signatures that verify against config param 34', async () => {
    const { mcSeqno } = await walkToTransfer(mode);
    const validators = parseValidatorSet(await configParam34(mode));
    for (const seqno of [1, mcSeqno]) {
      const id = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno });
      const result = await resultOf<{
        '@type': string;
        id: BlockId;
        signatures: { '@type': string; node_id_short: string; signature: string }[];
      }>(stack, mode, 'getMasterchainBlockSignatures', { seqno });
      expect(result['@type']).toBe('blocks.blockSignatures');
      expect(result.id).toEqual(id);
      expect(result.signatures.length).toBeGreaterThan(0);
      const payload = Buffer.concat([u32le(0xc50b6e70), Buffer.from(id.root_hash, 'base64'), Buffer.from(id.file_hash, 'base64')]);
      let signedWeight = 0n;
      for (const signature of result.signatures) {
        expect(signature['@type']).toBe('blocks.signature');
        const validator = validators.list.find((v) => b64(v.nodeIdShort) === signature.node_id_short);
        expect(validator).toBeDefined();
        expect(nacl.sign.detached.verify(payload, Buffer.from(signature.signature, 'base64'), validator!.publicKey)).toBe(true);
        signedWeight += validator!.weight;
      }
      expect(signedWeight * 3n).toBeGreaterThan(validators.totalWeight * 2n);
      // A signature of another block does not verify: the check above can fail.
      const other = Buffer.concat([u32le(0xc50b6e70), Buffer.alloc(64, 1)]);
      expect(nacl.sign.detached.verify(other, Buffer.from(result.signatures[0].signature, 'base64'), validators.list[0].publicKey)).toBe(
        false,
      );
    }
    const missing = await callV2(stack, mode, 'getMasterchainBlockSignatures', { seqno: 10_000_000 });
    expect(missing.status).toBe(500);
    expect(missing.body.error).toMatch(/^LITE_SERVER_NOTREADY: block not found/);
  });

  test('getShardBlockProof: shard links to the registering masterchain block, a backward link from the start block', async () => {
    const { mcSeqno, shardBlock } = await walkToTransfer(mode);
    const mcId = await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: mcSeqno });
    type Proof = {
      '@type': string;
      from: BlockId;
      mc_id: BlockId;
      links: { '@type': string; id: BlockId; proof: string }[];
      mc_proof: {
        '@type': string;
        to_key_block: boolean;
        from: BlockId;
        to: BlockId;
        dest_proof: string;
        proof: string;
        state_proof: string;
      }[];
    };
    const proof = await resultOf<Proof>(stack, mode, 'getShardBlockProof', { workchain: 0, shard: FULL_SHARD, seqno: shardBlock.seqno });
    expect(Object.keys(proof)).toEqual(['@type', 'from', 'mc_id', 'links', 'mc_proof']);
    expect(proof.mc_id).toEqual(mcId);
    expect(proof.links).toHaveLength(1);
    expect(proof.links[0]).toMatchObject({ '@type': 'blocks.shardBlockLink', id: shardBlock });
    expect(provenHash(proof.links[0].proof)).toBe(mcId.root_hash);
    expect(proof.from.seqno).toBeGreaterThanOrEqual(mcSeqno);
    expect(proof.from).toEqual(
      await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: proof.from.seqno }),
    );
    if (proof.from.seqno > mcSeqno) {
      expect(proof.mc_proof).toHaveLength(1);
      const link = proof.mc_proof[0];
      expect(link).toMatchObject({ '@type': 'blocks.blockLinkBack', to_key_block: false, from: proof.from, to: mcId });
      expect(provenHash(link.dest_proof)).toBe(mcId.root_hash);
      expect(provenHash(link.proof)).toBe(proof.from.root_hash);
      // tonlib serialises these proofs again, without CRC32C.
      expect(link.state_proof.startsWith('te6ccg')).toBe(true);
    }

    // A masterchain block proves itself; a start block before it cannot prove it.
    const self = await resultOf<Proof>(stack, mode, 'getShardBlockProof', {
      workchain: -1,
      shard: FULL_SHARD,
      seqno: mcSeqno,
      from_seqno: mcSeqno,
    });
    expect(self).toEqual({ '@type': 'blocks.shardBlockProof', from: mcId, mc_id: mcId, links: [], mc_proof: [] });
    await stack.localnet.chain.waitForMasterchainSeqno(mcSeqno + 1, 5000);
    const fromShard = await resultOf<Proof>(stack, mode, 'getShardBlockProof', {
      workchain: 0,
      shard: FULL_SHARD,
      seqno: shardBlock.seqno,
      from_seqno: mcSeqno + 1,
    });
    expect(fromShard.mc_proof).toHaveLength(1);
    expect(fromShard.mc_proof[0]).toMatchObject({ from: { seqno: mcSeqno + 1 }, to: mcId });
    const tooOld = await callV2(stack, mode, 'getShardBlockProof', {
      workchain: 0,
      shard: FULL_SHARD,
      seqno: shardBlock.seqno,
      from_seqno: mcSeqno - 1,
    });
    // A start block before the one that registers the shard block is the client's mistake: a 422, not a 500.
    expect(tooOld.status).toBe(422);
    expect(tooOld.body.error).toBe(
      `failed to validate request: from mc block is too old: the shard block is registered by masterchain block ${mcSeqno}, after from_seqno ${mcSeqno - 1}`,
    );
  });

  test('getOutMsgQueueSize: the masterchain head, then every shard top', async () => {
    const result = await resultOf<{
      '@type': string;
      shards: { '@type': string; id: BlockId; size: number }[];
      ext_msg_queue_size_limit: number;
    }>(stack, mode, 'getOutMsgQueueSize');
    expect(Object.keys(result)).toEqual(['@type', 'shards', 'ext_msg_queue_size_limit']);
    expect(result['@type']).toBe('blocks.outMsgQueueSizes');
    expect(result.ext_msg_queue_size_limit).toBeGreaterThan(0);
    expect(result.shards.map((s) => [s['@type'], s.id.workchain, s.size])).toEqual([
      ['blocks.outMsgQueueSize', -1, 0],
      ['blocks.outMsgQueueSize', 0, 0],
    ]);
    // Tagged chain.blockIdExt, as the seed specifies for this method; otherwise the same ids.
    expect(result.shards.map((s) => (s.id as unknown as Record<string, unknown>)['@type'])).toEqual([
      'chain.blockIdExt',
      'chain.blockIdExt',
    ]);
    const [mc, top] = result.shards.map((s) => ({ ...s.id, '@type': 'ton.blockIdExt' }));
    expect(mc).toEqual(await resultOf<BlockId>(stack, mode, 'lookupBlock', { workchain: -1, shard: FULL_SHARD, seqno: mc.seqno }));
    const { shards } = await resultOf<{ shards: BlockId[] }>(stack, mode, 'shards', { seqno: mc.seqno });
    expect(shards).toEqual([top]);
  });
});

describe('getBlockTransactions(Ext) paging by after_lt / after_hash', () => {
  test('count and the (account, lt) cursor cut the list exactly where the lite server does', async () => {
    const { shardBlock, list } = await walkToTransfer('GET');
    const all = list.transactions;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const page = (params: Record<string, string | number>) =>
      resultOf<BlockTransactions>(stack, 'GET', 'getBlockTransactions', { ...blockParams(shardBlock), ...params });
    const first = await page({ count: 2 });
    expect(first).toMatchObject({ req_count: 2, incomplete: true, transactions: all.slice(0, 2) });
    // after_hash is the account of the cursor: raw address, or the bare 256-bit id.
    const second = await page({ count: 2, after_lt: all[1].lt, after_hash: all[1].account });
    expect(second.transactions).toEqual(all.slice(2, 4));
    const third = await page({ count: 2, after_lt: all[1].lt, after_hash: all[1].account.split(':')[1] });
    expect(third.transactions).toEqual(all.slice(2, 4));
    const rest = await page({ count: 40, after_lt: all[all.length - 1].lt, after_hash: all[all.length - 1].account });
    expect(rest).toMatchObject({ incomplete: false, transactions: [] });

    // One at a time through the Ext form visits the same transactions in the same order.
    const visited: string[] = [];
    let cursor: Record<string, string> = {};
    for (let i = 0; i <= all.length; i++) {
      const ext = await resultOf<{ incomplete: boolean; transactions: ExtTransaction[] }>(stack, 'POST', 'getBlockTransactionsExt', {
        ...blockParams(shardBlock),
        count: 1,
        ...cursor,
      });
      if (ext.transactions.length === 0) {
        expect(ext.incomplete).toBe(false);
        break;
      }
      const tx = ext.transactions[0];
      visited.push(tx.transaction_id.hash);
      cursor = { after_lt: tx.transaction_id.lt, after_hash: tx.account };
    }
    expect(visited).toEqual(all.map((tx) => tx.hash));
  });

  test('validation: after_lt and after_hash together, count in 1..10000', async () => {
    const { shardBlock } = await walkToTransfer('GET');
    const res = await callV2(stack, 'GET', 'getBlockTransactions', { ...blockParams(shardBlock), after_lt: 5 });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('failed to validate request: after_lt and after_hash should be used together');
    const big = await callV2(stack, 'JSON-RPC', 'getBlockTransactionsExt', { ...blockParams(shardBlock), count: 10001 });
    expect(big.status).toBe(422);
  });
});

describeWithFixtures('getConsensusBlock against the recordings', () => {
  test('every recorded key is there with the recorded type', async () => {
    const ours = await resultOf<Record<string, unknown>>(stack, 'GET', 'getConsensusBlock');
    expect(ours['consensus_block']).toBe(stack.server.pool.consensusSeqno());
    for (const fixture of loadFixtures('getConsensusBlock')) {
      const recorded = fixtureResult(fixture) as Record<string, unknown>;
      for (const [key, value] of Object.entries(recorded)) expect([key, typeof ours[key]]).toEqual([key, typeof value]);
    }
  });
});

// ---- validator set of config param 34 ------------------------------------------------------

function u32le(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value, 0);
  return out;
}

function provenHash(boc: string): string {
  const root = Cell.fromBase64(boc);
  expect(root.type).toBe(CellType.MerkleProof);
  return b64(root.refs[0].hash(0));
}

async function configParam34(mode: CallMode): Promise<Cell> {
  const info = await resultOf<{ config: { bytes: string } }>(stack, mode, 'getConfigParam', { config_id: 34 });
  return Cell.fromBase64(info.config.bytes);
}

interface Validator {
  publicKey: Buffer;
  weight: bigint;
  nodeIdShort: Buffer;
}

const validatorDescr: DictionaryValue<Validator> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (slice: Slice): Validator => {
    const tag = slice.loadUint(8);
    if (tag !== 0x53 && tag !== 0x73) throw new Error(`unknown ValidatorDescr tag ${tag}`);
    if (slice.loadUint(32) !== 0x8e81278a) throw new Error('not an ed25519 key');
    const publicKey = slice.loadBuffer(32);
    const weight = slice.loadUintBig(64);
    const nodeIdShort = createHash('sha256').update(u32le(0x4813b4c6)).update(publicKey).digest();
    return { publicKey, weight, nodeIdShort };
  },
};

/** validators#11 (Hashmap 16 inline) or validators_ext#12 (HashmapE 16, total_weight). */
function parseValidatorSet(cell: Cell): { totalWeight: bigint; list: Validator[] } {
  const slice = cell.beginParse();
  const tag = slice.loadUint(8);
  slice.skip(32 + 32 + 16 + 16);
  if (tag === 0x12) {
    const totalWeight = slice.loadUintBig(64);
    const list = slice.loadDict(Dictionary.Keys.Uint(16), validatorDescr).values();
    return { totalWeight, list };
  }
  if (tag !== 0x11) throw new Error(`unknown ValidatorSet tag ${tag}`);
  const list = Dictionary.loadDirect(Dictionary.Keys.Uint(16), validatorDescr, slice).values();
  return { totalWeight: list.reduce((sum, v) => sum + v.weight, 0n), list };
}
