import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  external,
  internal,
  loadShardAccount,
  loadTransaction,
  SendMode,
  storeMessage,
  toNano,
} from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { createHash } from 'crypto';
import nacl from 'tweetnacl';
import { dictLookupPath, serializeBoc } from '../../src/cells';
import { ExternalMessageRejectedError } from '../../src/localnet/ledger/errors';
import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { accountLeaf, GLOBAL_BALANCE, LocalChain } from '../../src/localnet/ledger/LocalChain';
import { StoredBlock } from '../../src/localnet/ledger/store';
import { signedBlockIdBytes } from '../../src/tl';
import { loadMerkleUpdateHeader, loadMcStateExtra, loadShardStateUnsplit, loadValidatorDescr, loadValidatorSet } from '../../src/tlb';
import {
  DEFAULT_LOCALNET_MNEMONIC,
  deriveLocalnetWallets,
  fundLocalnetWallets,
  LocalnetWallets,
  LOCALNET_WALLET_BALANCE,
  V4R2_BASE_SUBWALLET_ID,
} from '../../src/localnet/wallets';
import { checkSealedBlock } from './helpers/blockChecks';
import { checkHashmapAug, grams, strictLoad } from './helpers/strictTlb';

interface GenBlock {
  global_id: number;
  info: {
    seq_no: number;
    not_master: number;
    key_block: boolean;
    gen_utime: number;
    start_lt: bigint;
    end_lt: bigint;
    prev_key_block_seqno: number;
    gen_validator_list_hash_short: number;
  };
}
interface GenState {
  kind: string;
  anon0: { seq_no: number; gen_lt: bigint; global_id: number; custom: { kind: string } };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

describe('LocalChain', () => {
  let chain: LocalChain;
  let wallets: LocalnetWallets;
  let transferBlock: StoredBlock;

  beforeAll(async () => {
    chain = await LocalChain.create({ blockIntervalMs: 0, validatorSeed: Buffer.alloc(32, 7) });
    wallets = await deriveLocalnetWallets(DEFAULT_LOCALNET_MNEMONIC, 2, chain.globalId);
    await fundLocalnetWallets(chain, wallets.wallets);
    await chain.seal();
    await chain.seal();
    const v4 = wallets.wallets[0].contract as WalletContractV4;
    const transfer: Cell = v4.createTransfer({
      seqno: 0,
      secretKey: wallets.keyPair.secretKey,
      messages: [internal({ to: wallets.wallets[1].address, value: toNano('2'), bounce: false })],
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    });
    const ext = beginCell()
      .store(storeMessage(external({ to: v4.address, body: transfer })))
      .endCell();
    transferBlock = await chain.sendExternalMessage(ext.toBoc());
    await chain.seal();
  });

  afterAll(async () => {
    await chain.stop();
  });

  it('funds every wallet with exactly 1 000 000 TON in key block 1', () => {
    const b1 = chain.store.bySeqno(MASTERCHAIN, 1) as StoredBlock;
    expect(b1.keyBlock).toBe(true);
    const tops = chain.shardTopsOf(b1);
    expect(tops.reduce((n, top) => n + top.transactions.length, 0)).toBe(wallets.wallets.length);
    for (const w of wallets.wallets) {
      const leaf = accountLeaf(chain.accountShardTop(b1, w.address).state, w.address);
      expect(leaf).not.toBeNull();
      const account = loadShardAccount(leaf as never).account;
      expect(account?.storage.balance.coins).toBe(LOCALNET_WALLET_BALANCE);
      expect(account?.storage.state.type).toBe('active');
    }
  });

  it('derives the wallets TonClient derives (wallet 0) and the documented ids', () => {
    const pk = wallets.keyPair.publicKey;
    const v4 = wallets.wallets.filter((w) => w.version === 'v4r2');
    const v5 = wallets.wallets.filter((w) => w.version === 'v5r1');
    expect(v4[0].address.equals(WalletContractV4.create({ workchain: 0, publicKey: pk }).address)).toBe(true);
    expect(v5[0].address.equals(WalletContractV5R1.create({ publicKey: pk }).address)).toBe(true);
    expect(v4.map((w) => w.walletId)).toEqual([V4R2_BASE_SUBWALLET_ID, V4R2_BASE_SUBWALLET_ID + 1]);
    expect(chain.globalId).toBe(-239);
    // v5r1 wallet 1 differs from wallet 0 only by its subwallet number.
    expect(v5[1].address.equals(v5[0].address)).toBe(false);
  });

  /** Every shard chain: the masterchain, then each basechain shard. */
  const allChains = () => [{ wc: MASTERCHAIN, shard: FULL_SHARD }, ...chain.shards.map((shard) => ({ wc: BASECHAIN, shard }))];

  it('has two basechain shards by default, each with its own blocks', () => {
    expect(chain.shards).toEqual([0x4000000000000000n, 0xc000000000000000n]);
    for (const shard of chain.shards) expect(chain.store.height(BASECHAIN, shard)).toBe(chain.store.height(MASTERCHAIN));
    expect(chain.store.shards(BASECHAIN)).toEqual(chain.shards);
  });

  it('produces blocks that strict TL-B loaders accept, with consistent headers, descriptors and balanced value flow', () => {
    for (const { wc, shard } of allChains()) {
      let prev: StoredBlock | null = null;
      for (const b of chain.store.blocks(wc, shard)) {
        checkSealedBlock(b, prev ? prev.state : chain.store.zeroState(wc).state);
        const parsed = strictLoad<GenBlock>('loadBlock', b.root);
        expect(parsed.global_id).toBe(-239);
        expect(parsed.info.seq_no).toBe(b.id.seqno);
        expect(parsed.info.not_master).toBe(wc === MASTERCHAIN ? 0 : 1);
        expect(parsed.info.key_block).toBe(wc === MASTERCHAIN && b.id.seqno === 1);
        expect(parsed.info.gen_utime).toBe(b.genUtime);
        expect(BigInt(parsed.info.start_lt)).toBe(b.startLt);
        expect(BigInt(parsed.info.end_lt)).toBe(b.endLt);
        expect(b.id.rootHash.equals(b.root.hash())).toBe(true);
        expect(b.id.fileHash.equals(sha256(serializeBoc([b.root])))).toBe(true);
        // The state update binds the block to the states before and after it.
        const upd = loadMerkleUpdateHeader(b.root.refs[2]);
        expect(upd.newHash.equals(b.state.hash())).toBe(true);
        const prevState = prev ? prev.state : chain.store.zeroState(wc).state;
        expect(upd.oldHash.equals(prevState.hash())).toBe(true);
        if (prev) {
          expect(b.startLt).toBe(prev.endLt);
          expect(b.genUtime).toBeGreaterThanOrEqual(prev.genUtime);
          // prev_ref names the previous block.
          const prevRef = b.root.refs[0].refs[wc === MASTERCHAIN ? 0 : 1].beginParse();
          prevRef.skip(64 + 32);
          expect(prevRef.loadBuffer(32).equals(prev.id.rootHash)).toBe(true);
          expect(prevRef.loadBuffer(32).equals(prev.id.fileHash)).toBe(true);
        }
        expect(b.endLt).toBeGreaterThan(b.startLt);
        for (const tx of b.transactions) {
          expect(tx.lt).toBeGreaterThan(b.startLt);
          expect(tx.lt).toBeLessThan(b.endLt);
        }
        prev = b;
      }
    }
  });

  it('produces states that strict loaders accept, with augmented sums that add up', () => {
    const states = [
      chain.store.zeroState(MASTERCHAIN).state,
      chain.store.zeroState(BASECHAIN).state,
      ...allChains().flatMap(({ wc, shard }) => chain.store.blocks(wc, shard).map((b) => b.state)),
    ];
    for (const state of states) {
      const parsed = strictLoad<GenState>('loadShardState', state);
      expect(parsed.kind).toBe('ShardState__');
      const ours = loadShardStateUnsplit(state.beginParse());
      const accounts = state.refs[1].beginParse();
      if (accounts.loadBit()) {
        const total = checkHashmapAug(
          accounts.loadRef(),
          256,
          (s) => {
            expect(s.loadUint(5)).toBe(0);
            return grams.read(s);
          },
          grams.add,
          grams.eq,
          (key, value, extra) => {
            const shardAccount = loadShardAccount(value);
            expect(shardAccount.account?.storage.balance.coins).toBe(extra);
            expect(BigInt('0x' + shardAccount.account!.addr.hash.toString('hex'))).toBe(key);
          },
        );
        expect(total).toBe(ours.totalBalance.coins);
      }
      if (ours.shardId.workchainId === MASTERCHAIN) {
        const extra = ours.custom;
        expect(extra).not.toBeNull();
        expect(extra!.globalBalance.coins).toBe(GLOBAL_BALANCE);
        expect(GLOBAL_BALANCE >= 2n ** 56n && GLOBAL_BALANCE < 2n ** 62n).toBe(true);
        if (extra!.prevBlocks.root) {
          checkHashmapAug(
            extra!.prevBlocks.root,
            32,
            (s) => ({ key: s.loadBit(), lt: s.loadUintBig(64) }),
            (a, b) => ({ key: a.key || b.key, lt: a.lt > b.lt ? a.lt : b.lt }),
            (a, b) => a.key === b.key && a.lt === b.lt,
            () => undefined,
          );
          // prev_blocks lists every earlier masterchain block.
          const seqnos: number[] = [];
          checkHashmapAug(
            extra!.prevBlocks.root,
            32,
            (s) => ({ key: s.loadBit(), lt: s.loadUintBig(64) }),
            (a) => a,
            () => true,
            (k) => seqnos.push(Number(k)),
          );
          expect(seqnos).toEqual(Array.from({ length: ours.seqno }, (_, i) => i));
        }
      }
    }
  });

  it('records account blocks whose transactions match the account states', () => {
    for (const b of allChains().flatMap(({ wc, shard }) => chain.store.blocks(wc, shard))) {
      const container = b.root.refs[3].refs[2].beginParse();
      if (!container.loadBit()) {
        expect(b.transactions).toHaveLength(0);
        continue;
      }
      const seen: bigint[] = [];
      checkHashmapAug(container.loadRef(), 256, grams.read, grams.add, grams.eq, (key, value, extra) => {
        expect(value.loadUint(4)).toBe(5);
        expect(BigInt('0x' + value.loadBuffer(32).toString('hex'))).toBe(key);
        const fees = checkHashmapAug(value.asCell(), 64, grams.read, grams.add, grams.eq, (lt, txSlice, fee) => {
          const tx = loadTransaction(txSlice.loadRef().beginParse());
          expect(tx.lt).toBe(lt);
          expect(tx.totalFees.coins).toBe(fee);
          seen.push(lt);
        });
        expect(fees).toBe(extra);
      });
      expect(seen.sort()).toEqual(b.transactions.map((t) => t.lt).sort());
      // Each account's final Account cell is the last transaction's new state.
      for (const tx of b.transactions) {
        const last = b.transactions.filter((t) => t.address.equals(tx.address)).pop()!;
        const parsed = loadTransaction(last.cell.beginParse());
        const leaf = accountLeaf(b.state, new Address(b.id.workchain, tx.address));
        if (leaf) expect(leaf.loadRef().hash().equals(parsed.stateUpdate.newHash)).toBe(true);
      }
    }
  });

  it('signs every masterchain block with the validator listed in p34', () => {
    const extra = loadMcStateExtra((chain.lastMasterchainBlock().state.refs[3] as Cell).beginParse());
    const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), extra.config.config);
    const vset = loadValidatorSet(config.get(34)!.beginParse());
    expect(vset.total).toBe(1);
    const descr = loadValidatorDescr(dictLookupPath(vset.list.root, 16, 0n).value!);
    expect(descr.publicKey.equals(chain.validator.publicKey)).toBe(true);
    expect(config.get(32)).toBeUndefined();
    for (const b of chain.store.blocks(MASTERCHAIN)) {
      expect(b.signature).not.toBeNull();
      const ok = nacl.sign.detached.verify(signedBlockIdBytes(b.id.rootHash, b.id.fileHash), b.signature!, descr.publicKey);
      expect(ok).toBe(true);
      const info = strictLoad<GenBlock>('loadBlock', b.root).info;
      expect(info.gen_validator_list_hash_short >>> 0).toBe(chain.validator.validatorSetHash(0));
    }
    expect(
      nacl.sign.detached.verify(
        signedBlockIdBytes(Buffer.alloc(32), Buffer.alloc(32)),
        chain.lastMasterchainBlock().signature!,
        descr.publicKey,
      ),
    ).toBe(false);
  });

  it('executes a signed transfer, seals it, and runs get-methods against old and new states', async () => {
    const wallet = wallets.wallets[0];
    const shardTxs = chain.shardTopsOf(transferBlock).flatMap((top) => top.transactions);
    expect(shardTxs.map((t) => t.address.toString('hex')).sort()).toEqual(
      [wallets.wallets[0].address.hash.toString('hex'), wallets.wallets[1].address.hash.toString('hex')].sort(),
    );
    const seqnoAt = async (b: StoredBlock) => {
      const top = chain.accountShardTop(b, wallet.address);
      const run = await chain.runGetMethod({
        state: top.state,
        genUtime: top.genUtime,
        mcSeqno: b.id.seqno,
        address: wallet.address,
        methodId: 85143,
        params: Buffer.alloc(0),
      });
      expect(run.exitCode).toBe(0);
      return Cell.fromBoc(run.stack!)[0]
        .beginParse()
        .skip(24 + 8)
        .loadUintBig(64);
    };
    expect(await seqnoAt(chain.store.bySeqno(MASTERCHAIN, 1)!)).toBe(0n);
    expect(await seqnoAt(chain.lastMasterchainBlock())).toBe(1n);
    const nowhere = new Address(0, Buffer.alloc(32, 9));
    const shard = chain.accountShardTop(transferBlock, nowhere);
    const missing = await chain.runGetMethod({
      state: shard.state,
      genUtime: shard.genUtime,
      mcSeqno: transferBlock.id.seqno,
      address: nowhere,
      methodId: 85143,
      params: Buffer.alloc(0),
    });
    expect(missing.exitCode).toBe(-256);
  });

  it('rejects an external message the wallet does not accept, changing nothing', async () => {
    const v4 = wallets.wallets[0].contract as WalletContractV4;
    const replay: Cell = v4.createTransfer({
      seqno: 0,
      secretKey: wallets.keyPair.secretKey,
      messages: [],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
    });
    const ext = beginCell()
      .store(storeMessage(external({ to: v4.address, body: replay })))
      .endCell();
    const height = chain.store.height(MASTERCHAIN);
    await expect(chain.sendExternalMessage(ext.toBoc())).rejects.toBeInstanceOf(ExternalMessageRejectedError);
    expect(chain.store.height(MASTERCHAIN)).toBe(height);
  });

  it('finds blocks by lt and utime like TON (first block ending at or after the lt, generated at or after the time)', () => {
    const blocks = chain.store.blocks(BASECHAIN, chain.shards[0]);
    const b2 = blocks[1];
    const shard = chain.shards[0];
    expect(chain.store.byLt(BASECHAIN, b2.startLt + 1n, shard)?.id.seqno).toBe(2);
    expect(chain.store.byLt(BASECHAIN, b2.endLt, shard)?.id.seqno).toBe(2);
    expect(chain.store.byLt(BASECHAIN, b2.endLt + 1n, shard)?.id.seqno).toBe(3);
    expect(chain.store.byLt(BASECHAIN, blocks[blocks.length - 1].endLt + 1n, shard)).toBeUndefined();
    expect(chain.store.byUtime(MASTERCHAIN, 0)?.id.seqno).toBe(1);
    expect(chain.store.byUtime(MASTERCHAIN, chain.lastMasterchainBlock().genUtime + 1000)).toBeUndefined();
  });

  it('seals on its timer and stops cleanly', async () => {
    const timed = await LocalChain.create({ blockIntervalMs: 50 });
    timed.start();
    await timed.waitForMasterchainSeqno(3, 5000);
    await timed.stop();
    const height = timed.store.height(MASTERCHAIN);
    await new Promise((r) => setTimeout(r, 150));
    expect(timed.store.height(MASTERCHAIN)).toBe(height);
    expect(height).toBeGreaterThanOrEqual(3);
  });
});
