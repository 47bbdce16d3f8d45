/**
 * `--cross-shard-delay N`: a message of a client's cascade to an account in another shard is
 * delivered N blocks later, as on a busy network, so a trace spans several masterchain blocks;
 * within one shard the cascade stays in one block; 0 (the default) keeps the whole cascade in one.
 */
import { Address, beginCell, Cell, Dictionary, external, internal, SendMode, storeMessage, storeMessageRelaxed, toNano, WalletContractV4 } from '@ton/ton';
import { sign } from '@ton/crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { journalFiles } from '../../src/localnet/ledger/journal';
import { BASECHAIN, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { shardOfAccount } from '../../src/localnet/ledger/sealing';
import { StoredBlock, StoredTransaction } from '../../src/localnet/ledger/store';
import { LocalnetControls } from '../../src/localnet/controls';
import { startConnectedLocalnet, type ConnectedLocalnet } from './helpers/liteClient';

/** An address in the same basechain shard as `of`, or in the other one, by its first hash byte. */
function addressIn(ctx: ConnectedLocalnet, of: Address, same: boolean, tag: number): Address {
  const target = shardOfAccount(ctx.net.chain.shards, of.hash);
  for (let first = 0; first < 256; first++) {
    const hash = Buffer.alloc(32, tag);
    hash[0] = first;
    if ((shardOfAccount(ctx.net.chain.shards, hash) === target) === same) return new Address(0, hash);
  }
  throw new Error('no such address');
}

function transferTo(ctx: ConnectedLocalnet, seqno: number, to: Address[]): Cell {
  const { wallets, keyPair } = ctx.net.wallets;
  const v4 = wallets[0].contract as WalletContractV4;
  const body = v4.createTransfer({
    seqno,
    secretKey: keyPair.secretKey,
    messages: to.map((dest) => internal({ to: dest, value: toNano('1'), bounce: false })),
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
  });
  return beginCell()
    .store(storeMessage(external({ to: v4.address, body })))
    .endCell();
}

/**
 * A v4 transfer whose internal message keeps its body in a reference although it would fit inline
 * (as FunC contracts send: a jetton minter's deploy of a wallet), signed by hand since @ton/ton's
 * transfer inlines what fits.
 */
function transferWithBodyInRef(ctx: ConnectedLocalnet, seqno: number, to: Address[]): Cell {
  const { wallets, keyPair } = ctx.net.wallets;
  const v4 = wallets[0].contract as WalletContractV4;
  const signing = beginCell().storeUint(v4.walletId, 32).storeUint(0xffffffff, 32).storeUint(seqno, 32).storeUint(0, 8);
  for (const dest of to) {
    const body = beginCell().storeUint(0, 32).storeStringTail('in a reference').endCell();
    const message = beginCell().store(storeMessageRelaxed(internal({ to: dest, value: toNano('1'), bounce: false, body }), { forceRef: true }));
    signing.storeUint(SendMode.PAY_GAS_SEPARATELY, 8).storeRef(message);
  }
  const body = beginCell().storeBuffer(sign(signing.endCell().hash(), keyPair.secretKey)).storeBuilder(signing).endCell();
  return beginCell()
    .store(storeMessage(external({ to: v4.address, body })))
    .endCell();
}

/** The in message of `tx`, and the out messages of the chain's transactions by hash. */
function inMessageOf(tx: StoredTransaction): Cell {
  return tx.cell.refs[0]!.beginParse().loadMaybeRef()!;
}

function sentMessageHashes(ctx: { net: Localnet }): Set<string> {
  const out = new Set<string>();
  for (const { tx } of transactions(ctx)) {
    const messages = tx.cell.refs[0]!.beginParse();
    messages.loadMaybeRef();
    for (const cell of messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).values()) out.add(cell.hash().toString('hex'));
  }
  return out;
}

/** Every transaction of the chain with the masterchain seqno of the round it landed in. */
function transactions(ctx: { net: Localnet }): { tx: StoredTransaction; mcSeqno: number }[] {
  const blocks: StoredBlock[] = [
    ...ctx.net.chain.store.blocks(MASTERCHAIN, 0x8000000000000000n),
    ...ctx.net.chain.shards.flatMap((shard) => [...ctx.net.chain.store.blocks(BASECHAIN, shard)]),
  ];
  return blocks.flatMap((b) => b.transactions.map((tx) => ({ tx, mcSeqno: b.masterchainSeqno })));
}

function landedAt(ctx: { net: Localnet }, address: Address): number | undefined {
  return transactions(ctx).find(({ tx }) => tx.workchain === address.workChain && tx.address.equals(address.hash))?.mcSeqno;
}

function senderRound(ctx: ConnectedLocalnet, message: Cell): number | undefined {
  return transactions(ctx).find(({ tx }) => tx.cell.refs[0]?.beginParse().loadMaybeRef()?.hash().equals(message.hash()))?.mcSeqno;
}

describe('--cross-shard-delay', () => {
  it('1: a transfer to another shard lands one masterchain block after the sender; to the same shard, with it', async () => {
    const ctx = await startConnectedLocalnet({ accounts: 1, blockIntervalMs: 0, crossShardDelay: 1 });
    try {
      const sender = ctx.net.wallets.wallets[0].address;
      const across = addressIn(ctx, sender, false, 1);
      const beside = addressIn(ctx, sender, true, 2);
      const message = transferTo(ctx, 0, [across, beside]);
      // Interval 0: the block with the sender's transaction is sealed before the answer.
      await ctx.client.sendMessage(message.toBoc());
      const sent = senderRound(ctx, message)!;
      expect(sent).toBe(ctx.net.chain.lastMasterchainBlock().id.seqno);
      expect(landedAt(ctx, beside)).toBe(sent);
      expect(landedAt(ctx, across)).toBeUndefined();
      // The next block delivers it.
      const mined = await new LocalnetControls(ctx.net).mine();
      expect(landedAt(ctx, across)).toBe(mined.seqno);
      expect(mined.seqno).toBe(sent + 1);
      // Its in_msg is the sender's out message (one trace across two masterchain blocks).
      const credit = transactions(ctx).find(({ tx }) => tx.address.equals(across.hash))!.tx;
      const inMsg = credit.cell.refs[0].beginParse().loadMaybeRef()!;
      const senderTx = transactions(ctx).find(({ tx }) => tx.cell.refs[0]?.beginParse().loadMaybeRef()?.hash().equals(message.hash()))!.tx;
      const outs = senderTx.cell.refs[0].beginParse();
      outs.loadMaybeRef();
      const outHashes = [...outs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).values()].map((c) =>
        c.hash().toString('hex'),
      );
      expect(outHashes).toContain(inMsg.hash().toString('hex'));
    } finally {
      await ctx.close();
    }
  });

  it('2: two blocks later; the timed blocks deliver it by themselves', async () => {
    const ctx = await startConnectedLocalnet({ accounts: 1, blockIntervalMs: 300, crossShardDelay: 2 });
    try {
      const sender = ctx.net.wallets.wallets[0].address;
      const across = addressIn(ctx, sender, false, 3);
      const message = transferTo(ctx, 0, [across]);
      await ctx.client.sendMessage(message.toBoc());
      for (let i = 0; landedAt(ctx, across) === undefined; i++) {
        if (i > 100) throw new Error('never delivered');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(landedAt(ctx, across)).toBe(senderRound(ctx, message)! + 2);
    } finally {
      await ctx.close();
    }
  });

  it('0 (the default): the whole cascade in one block', async () => {
    const ctx = await startConnectedLocalnet({ accounts: 1, blockIntervalMs: 0 });
    try {
      const sender = ctx.net.wallets.wallets[0].address;
      const across = addressIn(ctx, sender, false, 4);
      const message = transferTo(ctx, 0, [across]);
      await ctx.client.sendMessage(message.toBoc());
      expect(landedAt(ctx, across)).toBe(senderRound(ctx, message));
    } finally {
      await ctx.close();
    }
  });

  it('messages in flight survive a crash (journal) and a stop (state file)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-inflight-'));
    const stateFile = path.join(dir, 'chain.lnet');
    const ctx = await startConnectedLocalnet({ accounts: 1, blockIntervalMs: 0, crossShardDelay: 1, stateFile, seed: 'flight' });
    const sender = ctx.net.wallets.wallets[0].address;
    const first = addressIn(ctx, sender, false, 5);
    const second = addressIn(ctx, sender, false, 6);
    const copy = path.join(dir, 'copy.lnet');
    try {
      await ctx.client.sendMessage(transferTo(ctx, 0, [first]).toBoc());
      // As a kill leaves the files: the journal holds the round and its message in flight.
      fs.copyFileSync(stateFile, copy);
      fs.copyFileSync(journalFiles(stateFile).current, journalFiles(copy).current);
      await ctx.client.sendMessage(transferTo(ctx, 1, [second]).toBoc());
    } finally {
      await ctx.close();
    }
    try {
      for (const [file, address] of [
        [copy, first],
        [stateFile, second],
      ] as const) {
        const resumed = await startLocalnet({ stateFile: file, blockIntervalMs: 0, crossShardDelay: 1 });
        try {
          expect(landedAt({ net: resumed }, address)).toBeUndefined();
          const mined = await resumed.chain.seal();
          expect(landedAt({ net: resumed }, address)).toBe(mined.id.seqno);
        } finally {
          await resumed.stop();
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // Sandbox hands the receiver its own re-serialization of a queued message, which inlines a body
  // or StateInit the sender put in a reference: the receiver got another cell (another hash) than
  // the sender sent, and no indexer could link the two transactions.
  it('delivers a message as the very cell its sender sent (body in a reference): in the cascade, a block later, and after a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-exact-'));
    const stateFile = path.join(dir, 'chain.lnet');
    const ctx = await startConnectedLocalnet({ accounts: 1, blockIntervalMs: 0, crossShardDelay: 1, stateFile, seed: 'exact' });
    const sender = ctx.net.wallets.wallets[0].address;
    const beside = addressIn(ctx, sender, true, 7);
    const across = addressIn(ctx, sender, false, 8);
    const later = addressIn(ctx, sender, false, 9);
    const received = (net: { net: Localnet }, address: Address) => transactions(net).find(({ tx }) => tx.address.equals(address.hash))!.tx;
    try {
      await ctx.client.sendMessage(transferWithBodyInRef(ctx, 0, [beside, across]).toBoc());
      await new LocalnetControls(ctx.net).mine();
      for (const address of [beside, across]) {
        const inMessage = inMessageOf(received(ctx, address));
        expect(inMessage.refs).toHaveLength(1);
        expect(sentMessageHashes(ctx).has(inMessage.hash().toString('hex'))).toBe(true);
      }
      // Held over a stop: the state file keeps the exact cell.
      await ctx.client.sendMessage(transferWithBodyInRef(ctx, 1, [later]).toBoc());
    } finally {
      await ctx.close();
    }
    try {
      const resumed = await startLocalnet({ stateFile, blockIntervalMs: 0, crossShardDelay: 1 });
      try {
        await resumed.chain.seal();
        const inMessage = inMessageOf(received({ net: resumed }, later));
        expect(inMessage.refs).toHaveLength(1);
        expect(sentMessageHashes({ net: resumed }).has(inMessage.hash().toString('hex'))).toBe(true);
      } finally {
        await resumed.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
