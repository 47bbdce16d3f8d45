/**
 * The local chain through an unmodified ton-lite-client over TCP: accounts, proofs, get-methods,
 * external messages and transaction histories.
 */
import { Address, Cell, internal, loadAccount, loadTransaction, SendMode, serializeTuple, toNano, TupleReader } from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { Functions } from 'ton-lite-client/dist/schema';
import { dictLookupPath } from '../../src/cells';
import { loadMerkleUpdateHeader, loadShardDescr } from '../../src/tlb';
import { LOCALNET_WALLET_BALANCE } from '../../src/localnet/wallets';
import { shardToLong } from '../../src/localnet/ledger/ids';
import { shardTreePath } from '../../src/localnet/ledger/proofs';
import { ConnectedLocalnet, startConnectedLocalnet } from './helpers/liteClient';

type TlBlockId = { kind: 'tonNode.blockIdExt'; workchain: number; shard: string; seqno: number; rootHash: Buffer; fileHash: Buffer };

function accountQuery(id: TlBlockId, address: Address) {
  return {
    kind: 'liteServer.getAccountState' as const,
    id,
    account: { kind: 'liteServer.accountId' as const, workchain: address.workChain, id: address.hash },
  };
}

/** The Merkle proof cell's virtual root (what the proof stands for). */
function virtualRoot(proof: Cell): Cell {
  expect(proof.isExotic).toBe(true);
  return proof.refs[0];
}

describe('local lite server: accounts, messages, transactions', () => {
  let ctx: ConnectedLocalnet;
  let v4: WalletContractV4;
  let v5: WalletContractV5R1;
  let recipient: Address;

  beforeAll(async () => {
    ctx = await startConnectedLocalnet({ accounts: 2 });
    const wallets = ctx.net.wallets.wallets;
    v4 = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!.contract as WalletContractV4;
    v5 = wallets.find((w) => w.version === 'v5r1' && w.index === 0)!.contract as WalletContractV5R1;
    recipient = wallets.find((w) => w.version === 'v4r2' && w.index === 1)!.address;
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('reports masterchain info, time and version like a real lite server', async () => {
    const info = await ctx.client.getMasterchainInfo();
    expect(info.last.workchain).toBe(-1);
    expect(info.last.seqno).toBeGreaterThanOrEqual(1);
    expect(info.init.rootHash.equals(ctx.net.chain.zeroState.id.rootHash)).toBe(true);
    const ext = await ctx.client.getMasterchainInfoExt();
    expect(ext.version).toBe(0x101);
    expect(ext.capabilities).toBe('7');
    expect(ext.lastUtime).toBe(ctx.net.chain.lastMasterchainBlock().genUtime);
    const now = await ctx.client.getCurrentTime();
    expect(Math.abs(now - Date.now() / 1000)).toBeLessThan(5);
    const version = await ctx.client.getVersion();
    expect(version.version).toBe(0x101);
  });

  it('serves funded wallet states with a proof chain from the masterchain block to the account', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const state = await ctx.client.getAccountState(v4.address, info.last);
    expect(state.balance.coins).toBe(LOCALNET_WALLET_BALANCE);
    expect(state.state?.storage.state.type).toBe('active');
    expect(state.lastTx).not.toBeNull();

    const res = await ctx.engine.query(Functions.liteServer_getAccountState, accountQuery(info.last as TlBlockId, v4.address));
    expect(res.shardblk.workchain).toBe(0);
    const holder = ctx.net.chain.accountShardTop(ctx.net.chain.lastMasterchainBlock(), v4.address);
    expect(res.shardblk.shard).toBe(shardToLong(holder.id.shard));
    expect(res.shardblk.seqno).toBe(holder.id.seqno);
    // proof[0]: the shard block; its state_update names proof[1]'s state.
    const [blockProof, stateProof] = Cell.fromBoc(res.proof);
    const block = virtualRoot(blockProof);
    expect(block.hash(0).equals(res.shardblk.rootHash)).toBe(true);
    expect(loadMerkleUpdateHeader(block.refs[2]).newHash.equals(virtualRoot(stateProof).hash(0))).toBe(true);
    // The account leaf in the state proof points at exactly the Account returned in `state`.
    const accounts = virtualRoot(stateProof).refs[1];
    const leaf = dictLookupPath(accounts.refs[0], 256, BigInt('0x' + v4.address.hash.toString('hex'))).value!;
    leaf.skip(5);
    leaf.loadCoins();
    leaf.loadMaybeRef();
    const accountRef = leaf.loadRef();
    expect(accountRef.isExotic).toBe(true);
    expect(accountRef.hash(0).equals(Cell.fromBoc(res.state)[0].hash())).toBe(true);
    expect(leaf.loadUintBig(256)).toBe(state.lastTx!.hash);
    // shard_proof: the masterchain block's state names a state whose ShardHashes hold shardblk.
    const [mcBlockProof, mcStateProof] = Cell.fromBoc(res.shardProof);
    const mcBlock = virtualRoot(mcBlockProof);
    expect(mcBlock.hash(0).equals(info.last.rootHash)).toBe(true);
    const mcState = virtualRoot(mcStateProof);
    expect(loadMerkleUpdateHeader(mcBlock.refs[2]).newHash.equals(mcState.hash(0))).toBe(true);
    const mcExtra = mcState.refs[3];
    const shardHashes = mcExtra.refs[0];
    // The BinTree path to the account's shard is open in the proof.
    const path = shardTreePath(dictLookupPath(shardHashes, 32, 0n).value!.loadRef(), v4.address.hash.readBigUInt64BE(0) | 1n);
    expect(path.shard).toBe(holder.id.shard);
    const binTree = path.leaf.beginParse();
    expect(binTree.loadBit()).toBe(false);
    const descr = loadShardDescr(binTree);
    expect(descr.rootHash.equals(res.shardblk.rootHash)).toBe(true);
    expect(descr.fileHash.equals(res.shardblk.fileHash)).toBe(true);
    expect(descr.seqno).toBe(res.shardblk.seqno);
  });

  it('answers for missing accounts with an empty state and for pruned requests with an exotic root', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const missing = new Address(0, Buffer.alloc(32, 0x42));
    const res = await ctx.engine.query(Functions.liteServer_getAccountState, accountQuery(info.last as TlBlockId, missing));
    expect(res.state.length).toBe(0);
    expect(Cell.fromBoc(res.proof)).toHaveLength(2);
    const raw = await ctx.client.getAccountStateRaw(missing, info.last);
    expect(raw.state).toBeNull();

    const full = await ctx.engine.query(Functions.liteServer_getAccountState, accountQuery(info.last as TlBlockId, v4.address));
    const prunned = await ctx.client.getAccountStatePrunned(v4.address, info.last);
    expect(prunned.stateHash?.equals(Cell.fromBoc(full.state)[0].hash())).toBe(true);
  });

  it('runs get-methods (mode 4) and reports -256 for accounts without code', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const res = await ctx.client.runMethod(v4.address, 'get_public_key', serializeTuple([]).toBoc(), info.last);
    expect(res.exitCode).toBe(0);
    const stack = new TupleReader(parseStack(res.result!));
    expect(stack.readBigNumber()).toBe(BigInt('0x' + ctx.net.wallets.keyPair.publicKey.toString('hex')));
    const none = await ctx.client.runMethod(new Address(0, Buffer.alloc(32, 1)), 'seqno', serializeTuple([]).toBoc(), info.last);
    expect(none.exitCode).toBe(-256);
    const v5Id = await ctx.client.runMethod(v5.address, 'get_subwallet_id', serializeTuple([]).toBoc(), info.last);
    expect(v5Id.exitCode).toBe(0);
  });

  it('accepts a signed transfer through sendMessage, seals it, and exposes it everywhere', async () => {
    const wallet = ctx.client.open(v4);
    expect(await wallet.getSeqno()).toBe(0);
    const before = await ctx.client.getMasterchainInfo();
    await wallet.sendTransfer({
      seqno: 0,
      secretKey: ctx.net.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: recipient, value: toNano('3'), bounce: false })],
    });
    const after = await ctx.client.getMasterchainInfo();
    expect(after.last.seqno).toBe(before.last.seqno + 1);
    expect(await wallet.getSeqno()).toBe(1);
    const recipientState = await ctx.client.getAccountState(recipient, after.last);
    expect(recipientState.balance.coins).toBeGreaterThan(LOCALNET_WALLET_BALANCE + toNano('2.9'));

    // Historical get-methods run the old code and data.
    const old = await ctx.client.runMethod(v4.address, 'seqno', serializeTuple([]).toBoc(), before.last);
    expect(new TupleReader(parseStack(old.result!)).readNumber()).toBe(0);

    // The sender's history: the transfer, then the deploy.
    const state = await ctx.client.getAccountState(v4.address, after.last);
    const list = await ctx.client.getAccountTransactions(v4.address, state.lastTx!.lt.toString(), bigintHash(state.lastTx!.hash), 16);
    const txs = Cell.fromBoc(list.transactions).map((c) => loadTransaction(c.beginParse()));
    expect(txs).toHaveLength(2);
    expect(txs[0].lt).toBe(state.lastTx!.lt);
    expect(txs[0].inMessage?.info.type).toBe('external-in');
    expect(txs[0].outMessages.size).toBe(1);
    expect(txs[1].lt).toBe(txs[0].prevTransactionLt);
    expect(txs[1].hash().equals(bigintHash(txs[0].prevTransactionHash))).toBe(true);
    expect(list.ids[0].workchain).toBe(0);
    expect(list.ids[0].seqno).toBe(after.last.seqno);
  });

  it('rejects what the contract does not accept with the real error text', async () => {
    const replay = v4.createTransfer({
      seqno: 0,
      secretKey: ctx.net.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [],
    });
    const wallet = ctx.client.open(v4);
    const height = ctx.net.chain.lastMasterchainBlock().id.seqno;
    await expect(wallet.send(replay)).rejects.toThrow(
      /^cannot apply external message to current state : External message was not accepted/,
    );
    expect(ctx.net.chain.lastMasterchainBlock().id.seqno).toBe(height);
    await expect(
      ctx.engine.query(Functions.liteServer_sendMessage, { kind: 'liteServer.sendMessage', body: Buffer.from('not a boc') }),
    ).rejects.toThrow(/^cannot apply external message to current state : /);
  });

  it('pages transaction histories, checks hashes and reports unknown transactions', async () => {
    const wallet = ctx.client.open(v5);
    for (let seqno = 0; seqno < 3; seqno++) {
      await wallet.sendTransfer({
        seqno,
        secretKey: ctx.net.wallets.keyPair.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: recipient, value: toNano('1'), bounce: false })],
      });
    }
    const info = await ctx.client.getMasterchainInfo();
    const state = await ctx.client.getAccountState(v5.address, info.last);
    const lt = state.lastTx!.lt;
    const hash = bigintHash(state.lastTx!.hash);
    const page1 = await ctx.client.getAccountTransactions(v5.address, lt.toString(), hash, 2);
    const first = Cell.fromBoc(page1.transactions).map((c) => loadTransaction(c.beginParse()));
    expect(first).toHaveLength(2);
    const page2 = await ctx.client.getAccountTransactions(
      v5.address,
      first[1].prevTransactionLt.toString(),
      bigintHash(first[1].prevTransactionHash),
      2,
    );
    const second = Cell.fromBoc(page2.transactions).map((c) => loadTransaction(c.beginParse()));
    expect(second).toHaveLength(2);
    expect(second[1].prevTransactionLt).toBe(0n);
    // The provider pages on its own: 3 transfers + the deploy.
    const all = await ctx.client.provider(v5.address).getTransactions(v5.address, lt, hash, 10);
    expect(all.map((t) => t.lt)).toEqual([...first, ...second].map((t) => t.lt));
    // At most 16 per answer.
    const capped = await ctx.engine.query(Functions.liteServer_getTransactions, {
      kind: 'liteServer.getTransactions',
      count: 100,
      account: { kind: 'liteServer.accountId', workchain: 0, id: v5.address.hash },
      lt: lt.toString(),
      hash,
    });
    expect(capped.ids).toHaveLength(4);
    await expect(ctx.client.getAccountTransactions(v5.address, lt.toString(), Buffer.alloc(32), 2)).rejects.toThrow(
      'transaction hash mismatch',
    );
    await expect(ctx.client.getAccountTransactions(v5.address, (lt + 1n).toString(), hash, 2)).rejects.toThrow(/cannot locate transaction/);

    const one = await ctx.client.getAccountTransaction(v5.address, lt.toString(), page1.ids[0]);
    expect(Cell.fromBoc(one.transaction)[0].hash().equals(hash)).toBe(true);
    expect(virtualRoot(Cell.fromBoc(one.proof)[0]).hash(0).equals(page1.ids[0].rootHash)).toBe(true);
  });

  it('reads masterchain accounts with a reference block of their own chain and no shard proof', async () => {
    const info = await ctx.client.getMasterchainInfo();
    const res = await ctx.engine.query(
      Functions.liteServer_getAccountState,
      accountQuery(info.last as TlBlockId, new Address(-1, Buffer.alloc(32))),
    );
    expect(res.shardProof.length).toBe(0);
    expect(res.shardblk.seqno).toBe(info.last.seqno);
    expect(res.shardblk.workchain).toBe(-1);
  });

  it('parses every account it returns as a valid Account', async () => {
    const info = await ctx.client.getMasterchainInfo();
    for (const w of ctx.net.wallets.wallets) {
      const res = await ctx.engine.query(Functions.liteServer_getAccountState, accountQuery(info.last as TlBlockId, w.address));
      const s = Cell.fromBoc(res.state)[0].beginParse();
      expect(s.loadBit()).toBe(true);
      expect(loadAccount(s).addr.equals(w.address)).toBe(true);
    }
  });
});

function parseStack(boc: string) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseTuple } = require('@ton/core') as typeof import('@ton/core');
  return parseTuple(Cell.fromBase64(boc));
}

function bigintHash(v: bigint): Buffer {
  return Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
}
