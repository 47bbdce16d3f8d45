/**
 * The local chain through an unmodified ton-lite-client over TCP: block lookups, headers, shard
 * descriptions, block transaction lists, configuration, libraries, queues and proofs.
 */
import { beginCell, Cell, Dictionary } from '@ton/core';
import { createHash } from 'crypto';
import { Functions } from 'ton-lite-client/dist/schema';
import nacl from 'tweetnacl';
import { dictLookupPath } from '../../src/cells';
import { signedBlockIdBytes } from '../../src/tl';
import { shardContains, shardToLong } from '../../src/localnet/ledger/ids';
import { shardTreePath } from '../../src/localnet/ledger/proofs';
import { LiteClientFunctions } from '../../src/tl';
import { loadBlockInfo, loadMerkleUpdateHeader, loadShardDescr, loadValidatorDescr, loadValidatorSet } from '../../src/tlb';
import { ConnectedLocalnet, startConnectedLocalnet } from './helpers/liteClient';

type TlBlockId = { kind: 'tonNode.blockIdExt'; workchain: number; shard: string; seqno: number; rootHash: Buffer; fileHash: Buffer };

const SHARD = '-9223372036854775808';

function virtualRoot(proof: Cell): Cell {
  expect(proof.isExotic).toBe(true);
  return proof.refs[0];
}

function tlId(id: { workchain: number; shard: string; seqno: number; rootHash: Buffer; fileHash: Buffer }): TlBlockId {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: id.shard,
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

describe('local lite server: blocks, config, proofs', () => {
  let ctx: ConnectedLocalnet;

  beforeAll(async () => {
    ctx = await startConnectedLocalnet({ accounts: 3, seed: 'blocks-test' });
    await ctx.net.chain.seal();
    await ctx.net.chain.seal();
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('looks blocks up by seqno, lt and utime, and reports unknown ones as not found', async () => {
    const chain = ctx.net.chain;
    // The full shard's id, as a prefix, lies in the shard holding accounts 0x8000...
    const holder = chain.shards.find((s) => shardContains(s, BigInt.asUintN(64, BigInt(SHARD))))!;
    const shard2 = chain.store.bySeqno(0, 2, holder)!;
    const bySeqno = await ctx.client.lookupBlockByID({ workchain: 0, shard: SHARD, seqno: 2 });
    expect(bySeqno.id.rootHash.equals(shard2.id.rootHash)).toBe(true);
    expect(bySeqno.id.fileHash.equals(shard2.id.fileHash)).toBe(true);
    const byLt = await ctx.client.lookupBlockByLt({ workchain: 0, shard: SHARD, lt: shard2.startLt + 1n });
    expect(byLt.id.seqno).toBe(2);
    const atEnd = await ctx.client.lookupBlockByLt({ workchain: -1, shard: SHARD, lt: shard2.endLt });
    expect(atEnd.id.seqno).toBe(2);
    const first = chain.store.bySeqno(-1, 1)!;
    const byUtime = await ctx.client.lookupBlockByUtime({ workchain: -1, shard: SHARD, utime: first.genUtime });
    expect(byUtime.id.seqno).toBe(1);
    await expect(ctx.client.lookupBlockByID({ workchain: -1, shard: SHARD, seqno: 9999 })).rejects.toThrow('block not found');
    await expect(ctx.client.lookupBlockByUtime({ workchain: 0, shard: SHARD, utime: 2_000_000_000 })).rejects.toThrow('block not found');
    await expect(ctx.client.lookupBlockByID({ workchain: 7, shard: SHARD, seqno: 1 })).rejects.toThrow('block not found');
  });

  it('returns header proofs whose BlockInfo describes the requested block', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const header = await ctx.client.getBlockHeader(info.last);
    const root = virtualRoot(Cell.fromBoc(header.headerProof)[0]);
    expect(root.hash(0).equals(info.last.rootHash)).toBe(true);
    const blockInfo = loadBlockInfo(root.refs[0].beginParse());
    expect(blockInfo.seqno).toBe(info.last.seqno);
    expect(blockInfo.notMaster).toBe(false);
    expect(blockInfo.genUtime).toBe(ctx.net.chain.lastMasterchainBlock().genUtime);
    // mode 1 reveals the state update: it names the state whose hash getMasterchainInfo reports.
    expect(loadMerkleUpdateHeader(root.refs[2]).newHash.equals(info.stateRootHash)).toBe(true);
  });

  it('serves block data whose SHA-256 is the file hash, and states', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const data = await ctx.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: tlId(info.last) });
    expect(createHash('sha256').update(data.data).digest().equals(info.last.fileHash)).toBe(true);
    expect(Cell.fromBoc(data.data)[0].hash().equals(info.last.rootHash)).toBe(true);
    const state = await ctx.engine.query(Functions.liteServer_getState, { kind: 'liteServer.getState', id: tlId(info.last) });
    expect(Cell.fromBoc(state.data)[0].hash().equals(info.stateRootHash)).toBe(true);
    expect(createHash('sha256').update(state.data).digest().equals(state.fileHash)).toBe(true);
    const zero = ctx.net.chain.zeroState.id;
    const zs = await ctx.engine.query(Functions.liteServer_getState, {
      kind: 'liteServer.getState',
      id: { kind: 'tonNode.blockIdExt', workchain: -1, shard: SHARD, seqno: 0, rootHash: zero.rootHash, fileHash: zero.fileHash },
    });
    expect(createHash('sha256').update(zs.data).digest().equals(zero.fileHash)).toBe(true);
  });

  it('describes shards: all shards, each shard, and the shard-block proof', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const tops = ctx.net.chain.shardTopsOf(ctx.net.chain.lastMasterchainBlock());
    expect(tops.length).toBe(ctx.net.chain.shards.length);
    const all = await ctx.client.getAllShardsInfo(info.last);
    expect(all.shards).toEqual({ 0: Object.fromEntries(tops.map((t) => [shardToLong(t.id.shard), t.id.seqno])) });
    for (const top of tops) {
      const one = await ctx.engine.query(Functions.liteServer_getShardInfo, {
        kind: 'liteServer.getShardInfo',
        id: tlId(info.last),
        workchain: 0,
        shard: shardToLong(top.id.shard),
        exact: true,
      });
      expect(one.shardblk.seqno).toBe(top.id.seqno);
      expect(BigInt.asUintN(64, BigInt(one.shardblk.shard))).toBe(top.id.shard);
      const leaf = Cell.fromBoc(one.shardDescr)[0].beginParse();
      expect(leaf.loadBit()).toBe(false);
      expect(loadShardDescr(leaf).rootHash.equals(top.id.rootHash)).toBe(true);
    }
    if (tops.length > 1) {
      // The full shard is no shard of this chain: an exact request finds nothing.
      const exactFull = await ctx.engine.query(Functions.liteServer_getShardInfo, {
        kind: 'liteServer.getShardInfo',
        id: tlId(info.last),
        workchain: 0,
        shard: SHARD,
        exact: true,
      });
      expect(exactFull.shardDescr.length).toBe(0);
    }
    const top = tops[tops.length - 1];
    const proof = await ctx.engine.query(Functions.liteServer_getShardBlockProof, {
      kind: 'liteServer.getShardBlockProof',
      id: tlId({ ...top.id, shard: shardToLong(top.id.shard) }),
    });
    expect(proof.masterchainId.seqno).toBe(info.last.seqno);
    expect(proof.links).toHaveLength(1);
    const mcBlock = virtualRoot(Cell.fromBoc(proof.links[0].proof)[0]);
    expect(mcBlock.hash(0).equals(info.last.rootHash)).toBe(true);
    // McBlockExtra: its first reference is the ShardHashes root; the path to the leaf is open.
    const mcExtra = mcBlock.refs[3].refs[3];
    expect(mcExtra.beginParse().loadUint(16)).toBe(0xcca5);
    const path = shardTreePath(dictLookupPath(mcExtra.refs[0], 32, 0n).value!.loadRef(), top.id.shard);
    expect(path.shard).toBe(top.id.shard);
    const bin = path.leaf.beginParse();
    bin.loadBit();
    expect(loadShardDescr(bin).rootHash.equals(top.id.rootHash)).toBe(true);
  });

  it('lists block transactions in (account, lt) order with paging, reverse order and `incomplete`', async () => {
    // The shard block of round 1 with the most genesis deposits.
    const block = ctx.net.chain
      .shardTopsOf(ctx.net.chain.store.bySeqno(-1, 1)!)
      .reduce((a, b) => (b.transactions.length > a.transactions.length ? b : a));
    const id = tlId({ ...block.id, shard: shardToLong(block.id.shard) });
    const expected = block.transactions.map((t) => `${t.address.toString('hex')}:${t.lt}`);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect([...expected].sort()).toEqual(expected);

    const all = await ctx.client.listBlockTransactions(id, { mode: 7, count: 100 });
    expect(all.ids.map((t) => `${t.account!.toString('hex')}:${t.lt}`)).toEqual(expected);
    expect(all.incomplete).toBe(false);
    expect(all.ids[0].hash!.equals(block.transactions[0].hash)).toBe(true);

    const paged: string[] = [];
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | undefined;
    for (;;) {
      const page = await ctx.client.listBlockTransactions(id, { mode: after ? 7 | 128 : 7, count: 2, after });
      paged.push(...page.ids.map((t) => `${t.account!.toString('hex')}:${t.lt}`));
      if (!page.incomplete) break;
      const last = page.ids[page.ids.length - 1];
      after = { kind: 'liteServer.transactionId3', account: last.account!, lt: last.lt! };
    }
    expect(paged).toEqual(expected);

    const reverse = await ctx.client.listBlockTransactions(id, { mode: 7 | 64, count: 100 });
    expect(reverse.ids.map((t) => `${t.account!.toString('hex')}:${t.lt}`)).toEqual([...expected].reverse());
    const exact = await ctx.client.listBlockTransactions(id, { mode: 7, count: expected.length });
    expect(exact.ids).toHaveLength(expected.length);
    expect(exact.incomplete).toBe(true);

    const ext = await ctx.engine.query(LiteClientFunctions.listBlockTransactionsExt, {
      kind: 'liteServer.listBlockTransactionsExt',
      id,
      mode: 7 | 32,
      count: 3,
      after: null,
      reverseOrder: null,
      wantProof: true,
    });
    expect(Cell.fromBoc(ext.transactions).map((c) => c.hash().toString('hex'))).toEqual(
      block.transactions.slice(0, 3).map((t) => t.hash.toString('hex')),
    );
    expect(virtualRoot(Cell.fromBoc(ext.proof)[0]).hash(0).equals(block.id.rootHash)).toBe(true);
  });

  it('serves the configuration: LiteClient.getConfig and proven getConfigParams', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const config = await ctx.client.getConfig(info.last);
    expect(config.config.get(19)?.beginParse().loadInt(32)).toBe(-239);
    expect(config.config.size).toBeGreaterThan(20);

    const res = await ctx.engine.query(Functions.liteServer_getConfigParams, {
      kind: 'liteServer.getConfigParams',
      mode: 0,
      id: tlId(info.last),
      paramList: [19, 34],
    });
    const block = virtualRoot(Cell.fromBoc(res.stateProof)[0]);
    expect(block.hash(0).equals(info.last.rootHash)).toBe(true);
    const state = virtualRoot(Cell.fromBoc(res.configProof)[0]);
    expect(loadMerkleUpdateHeader(block.refs[2]).newHash.equals(state.hash(0))).toBe(true);
    const configRoot = state.refs[3].refs[1];
    expect(dictLookupPath(configRoot, 32, 19n).value!.loadRef().beginParse().loadInt(32)).toBe(-239);
    const vset = loadValidatorSet(dictLookupPath(configRoot, 32, 34n).value!.loadRef().beginParse());
    const validator = loadValidatorDescr(dictLookupPath(vset.list.root, 16, 0n).value!);
    expect(validator.publicKey.equals(ctx.net.chain.validator.publicKey)).toBe(true);
    // Only what was asked for is revealed.
    expect(() => dictLookupPath(configRoot, 32, 20n)).toThrow(/pruned/);

    const all = await ctx.engine.query(Functions.liteServer_getConfigAll, {
      kind: 'liteServer.getConfigAll',
      mode: 0,
      id: tlId(info.last),
    });
    const allRoot = virtualRoot(Cell.fromBoc(all.configProof)[0]).refs[3].refs[1];
    expect(Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), allRoot).size).toBe(config.config.size);
  });

  it('serves public libraries of the masterchain state', async () => {
    const code = beginCell().storeUint(0xc0de, 16).storeStringTail('local library').endCell();
    await ctx.net.chain.addLibrary(code);
    await ctx.net.chain.seal();
    const res = await ctx.client.getLibraries([code.hash(), Buffer.alloc(32, 0xee)]);
    expect(res.result).toHaveLength(1);
    expect(res.result[0].hash.equals(code.hash())).toBe(true);
    expect(Cell.fromBoc(res.result[0].data)[0].hash().equals(code.hash())).toBe(true);
  });

  it('reports empty out-message queues', async () => {
    const sizes = await ctx.engine.query(LiteClientFunctions.getOutMsgQueueSizes, {
      kind: 'liteServer.getOutMsgQueueSizes',
      mode: 0,
      wc: null,
      shard: null,
    });
    expect(sizes.shards.map((s) => [s.id.workchain, s.size])).toEqual([[-1, 0], ...ctx.net.chain.shards.map(() => [0, 0])]);
    const info = await ctx.client.getMasterchainInfo();
    const one = await ctx.engine.query(LiteClientFunctions.getBlockOutMsgQueueSize, {
      kind: 'liteServer.getBlockOutMsgQueueSize',
      mode: 1,
      id: info.last,
      wantProof: true,
    });
    expect(one.size).toBe('0');
    const [blockProof, stateProof] = Cell.fromBoc(one.proof!);
    expect(loadMerkleUpdateHeader(virtualRoot(blockProof).refs[2]).newHash.equals(virtualRoot(stateProof).hash(0))).toBe(true);
  });

  it('proves masterchain blocks: forward links signed by the local validator, backward links through prev_blocks', async () => {
    const chain = ctx.net.chain;
    const last = chain.lastMasterchainBlock();
    const zero = chain.zeroState.id;
    const zeroId: TlBlockId = {
      kind: 'tonNode.blockIdExt',
      workchain: -1,
      shard: SHARD,
      seqno: 0,
      rootHash: zero.rootHash,
      fileHash: zero.fileHash,
    };
    const forward = await ctx.engine.query(Functions.liteServer_getBlockProof, {
      kind: 'liteServer.getBlockProof',
      mode: 0,
      knownBlock: zeroId,
      targetBlock: null,
    });
    expect(forward.complete).toBe(true);
    expect(forward.to.seqno).toBe(last.id.seqno);
    expect(forward.steps.map((s) => [s.kind, s.from.seqno, s.to.seqno])).toEqual([
      ['liteServer.blockLinkForward', 0, 1],
      ['liteServer.blockLinkForward', 1, last.id.seqno],
    ]);
    for (const step of forward.steps) {
      if (step.kind !== 'liteServer.blockLinkForward') throw new Error('expected a forward link');
      // The signing key comes from the proven configuration of the link's source.
      const source = virtualRoot(Cell.fromBoc(step.configProof)[0]);
      // Zerostate: McStateExtra's config reference; key block: McBlockExtra's ConfigParams, its last reference.
      const mcBlockExtra = step.from.seqno === 0 ? null : source.refs[3].refs[3];
      const configRoot = mcBlockExtra ? mcBlockExtra.refs[mcBlockExtra.refs.length - 1] : source.refs[3].refs[1];
      const vset = loadValidatorSet(dictLookupPath(configRoot, 32, 34n).value!.loadRef().beginParse());
      const key = loadValidatorDescr(dictLookupPath(vset.list.root, 16, 0n).value!).publicKey;
      expect(step.signatures.signatures).toHaveLength(1);
      const sig = step.signatures.signatures[0];
      expect(nacl.sign.detached.verify(signedBlockIdBytes(step.to.rootHash, step.to.fileHash), sig.signature, key)).toBe(true);
      const dest = virtualRoot(Cell.fromBoc(step.destProof)[0]);
      expect(dest.hash(0).equals(step.to.rootHash)).toBe(true);
      expect(loadBlockInfo(dest.refs[0].beginParse()).genValidatorListHashShort | 0).toBe(step.signatures.validatorSetHash);
    }

    const target = chain.store.bySeqno(-1, 2)!;
    const back = await ctx.engine.query(Functions.liteServer_getBlockProof, {
      kind: 'liteServer.getBlockProof',
      mode: 1,
      knownBlock: tlId({ ...last.id, shard: SHARD }),
      targetBlock: tlId({ ...target.id, shard: SHARD }),
    });
    expect(back.complete).toBe(true);
    expect(back.steps).toHaveLength(1);
    const link = back.steps[0];
    if (link.kind !== 'liteServer.blockLinkBack') throw new Error('expected a backward link');
    const src = virtualRoot(Cell.fromBoc(link.proof)[0]);
    expect(src.hash(0).equals(last.id.rootHash)).toBe(true);
    const srcState = virtualRoot(Cell.fromBoc(link.stateProof)[0]);
    expect(loadMerkleUpdateHeader(src.refs[2]).newHash.equals(srcState.hash(0))).toBe(true);
    const prevBlocks = srcState.refs[3].refs[2]
      .beginParse()
      .skip(16 + 65)
      .loadRef();
    // Leaf: KeyMaxLt extra (key bit, max_end_lt), then KeyExtBlkRef (key bit, end_lt, seqno, hashes).
    const entry = dictLookupPath(prevBlocks, 32, 2n).value!;
    entry.skip(1 + 64);
    expect(entry.loadBit()).toBe(false);
    expect(entry.loadUintBig(64)).toBe(target.endLt);
    expect(entry.loadUint(32)).toBe(2);
    expect(entry.loadBuffer(32).equals(target.id.rootHash)).toBe(true);
    expect(virtualRoot(Cell.fromBoc(link.destProof)[0]).hash(0).equals(target.id.rootHash)).toBe(true);
  });

  it('answers 621 `unknown query` for functions it does not serve', async () => {
    const info = await ctx.client.getMasterchainInfo();
    await expect(
      ctx.engine.query(LiteClientFunctions.getValidatorStats, {
        kind: 'liteServer.getValidatorStats',
        mode: 0,
        id: info.last,
        limit: 10,
        startAfter: null,
        modifiedAfter: null,
      }),
    ).rejects.toThrow('unknown query');
  });

  it('waits for a future masterchain block when asked to (waitMasterchainSeqno)', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const waiting = ctx.client.getMasterchainInfo({ awaitSeqno: info.last.seqno + 1, timeout: 4000 });
    setTimeout(() => void ctx.net.chain.seal(), 100);
    const later = await waiting;
    expect(later.last.seqno).toBeGreaterThanOrEqual(info.last.seqno + 1);
  });
});
