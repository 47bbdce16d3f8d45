/**
 * `--block-interval N > 0`: an external message sent through the lite server is answered before
 * its block exists (the masterchain does not move), and its transactions land in the next timed
 * block; a message the wallet refuses is refused at once; POST /localnet/mine seals the waiting
 * messages at once; with a state file, an accepted message survives a crash before its block.
 */
import { beginCell, Cell, external, internal, SendMode, storeMessage, toNano, WalletContractV4 } from '@ton/ton';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { startLocalnet } from '../../src/localnet';
import { journalFiles } from '../../src/localnet/ledger/journal';
import { BASECHAIN, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { StoredBlock } from '../../src/localnet/ledger/store';
import { LocalnetControls } from '../../src/localnet/controls';
import { LocalnetWallets } from '../../src/localnet/wallets';
import { until } from '../helpers/waiting';
import { startConnectedLocalnet, type ConnectedLocalnet } from './helpers/liteClient';

function transfer(wallets: LocalnetWallets, seqno: number): Cell {
  const v4 = wallets.wallets[0].contract as WalletContractV4;
  const body = v4.createTransfer({
    seqno,
    secretKey: wallets.keyPair.secretKey,
    messages: [internal({ to: wallets.wallets[1].address, value: toNano('1'), bounce: false })],
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
  });
  return beginCell()
    .store(storeMessage(external({ to: v4.address, body })))
    .endCell();
}

/** The masterchain block (at or after `from`) whose round holds the transaction made by `message`. */
function blockWith(blocks: readonly StoredBlock[], message: Cell): StoredBlock | undefined {
  return blocks.find((b) =>
    b.transactions.some((tx) => tx.cell.refs[0]?.beginParse().loadMaybeRef()?.hash().equals(message.hash()) ?? false),
  );
}

function basechainBlocks(ctx: ConnectedLocalnet): StoredBlock[] {
  return ctx.net.chain.shards.flatMap((shard) => [...ctx.net.chain.store.blocks(BASECHAIN, shard)]);
}

describe('external messages wait for the next block', () => {
  let ctx: ConnectedLocalnet;

  beforeAll(async () => {
    ctx = await startConnectedLocalnet({ accounts: 2, blockIntervalMs: 2000 });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('is answered before its block exists, then lands in the next timed block', async () => {
    // Just after a timed block, so the answer surely comes well before the next one.
    const before = await new Promise<StoredBlock>((resolve) => {
      const off = ctx.net.chain.onBlock((b) => {
        off();
        resolve(b);
      });
    });
    const message = transfer(ctx.net.wallets, 0);
    await ctx.client.sendMessage(message.toBoc());
    // Answered; the masterchain has not moved and no block holds the transaction yet.
    const info = await ctx.client.getMasterchainInfo();
    expect(info.last.seqno).toBe(before.id.seqno);
    expect(blockWith(basechainBlocks(ctx), message)).toBeUndefined();

    await ctx.net.chain.waitForMasterchainSeqno(before.id.seqno + 1, 10_000);
    const next = ctx.net.chain.store.bySeqno(MASTERCHAIN, before.id.seqno + 1)!;
    const landed = blockWith(basechainBlocks(ctx), message);
    expect(landed).toBeDefined();
    expect(landed!.masterchainSeqno).toBe(next.id.seqno);
  });

  it('refuses at once a message the wallet does not accept (an old seqno), as a lite server does', async () => {
    const height = ctx.net.chain.store.height(MASTERCHAIN);
    await expect(ctx.client.sendMessage(transfer(ctx.net.wallets, 0).toBoc())).rejects.toThrow(
      /cannot apply external message to current state : External message was not accepted/,
    );
    expect(ctx.net.chain.store.height(MASTERCHAIN)).toBeLessThanOrEqual(height + 1);
  });

  it('POST /localnet/mine seals the waiting messages at once', async () => {
    const controls = new LocalnetControls(ctx.net);
    const message = transfer(ctx.net.wallets, 1);
    await ctx.client.sendMessage(message.toBoc());
    const mined = await controls.mine();
    const landed = blockWith(basechainBlocks(ctx), message);
    expect(landed?.masterchainSeqno).toBe(mined.seqno);
  });
});

describe('with --block-interval 0', () => {
  it('a message seals its block before the answer', async () => {
    const ctx = await startConnectedLocalnet({ accounts: 2, blockIntervalMs: 0 });
    try {
      const height = ctx.net.chain.store.height(MASTERCHAIN);
      const message = transfer(ctx.net.wallets, 0);
      await ctx.client.sendMessage(message.toBoc());
      expect(ctx.net.chain.store.height(MASTERCHAIN)).toBe(height + 1);
      expect(blockWith(basechainBlocks(ctx), message)?.masterchainSeqno).toBe(height + 1);
    } finally {
      await ctx.close();
    }
  });
});

describe('an accepted message and a crash before its block', () => {
  it('is journaled before the answer; a restart executes it into the first block', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-wait-'));
    const stateFile = path.join(dir, 'chain.lnet');
    // No timed block comes: the message waits.
    const ctx = await startConnectedLocalnet({ accounts: 2, blockIntervalMs: 3_600_000, stateFile, seed: 'wait' });
    let message: Cell;
    const copy = path.join(dir, 'copy.lnet');
    try {
      message = transfer(ctx.net.wallets, 0);
      await ctx.client.sendMessage(message.toBoc());
      // As a kill right after the answer leaves the files.
      fs.copyFileSync(stateFile, copy);
      fs.copyFileSync(journalFiles(stateFile).current, journalFiles(copy).current);
    } finally {
      await ctx.close();
    }
    const resumed = await startLocalnet({ stateFile: copy, blockIntervalMs: 0 });
    try {
      const blocks = resumed.chain.shards.flatMap((shard) => [...resumed.chain.store.blocks(BASECHAIN, shard)]);
      const landed = blockWith(blocks, message);
      expect(landed).toBeDefined();
    } finally {
      await resumed.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a backlog of messages: the lite server and the timed seal do not wait behind it', () => {
  let ctx: ConnectedLocalnet;

  beforeAll(async () => {
    ctx = await startConnectedLocalnet({ accounts: 1, blockIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers a lite query that arrives behind queued messages before the queue is drained', async () => {
    await ctx.client.getMasterchainInfo(); // connected
    const done: string[] = [];
    const sends = Array.from({ length: 12 }, (_, seqno) =>
      ctx.net.chain.submitExternalMessage(transfer(ctx.net.wallets, seqno).toBoc()).then(() => {
        done.push(`send ${seqno}`);
      }),
    );
    // Queued behind the twelve executions: the chain's operations now leave the event loop a
    // turn between them, so the query is read and answered before the last one runs.
    const query = ctx.client.getMasterchainInfo().then((info) => {
      done.push('query');
      return info;
    });
    await Promise.all([...sends, query]);
    expect(done).toHaveLength(13);
    expect(done.indexOf('query')).toBeLessThan(12);
    expect(done.filter((d) => d.startsWith('send'))).toEqual(Array.from({ length: 12 }, (_, i) => `send ${i}`));
    const sealed = await ctx.net.chain.seal();
    expect(sealed.id.seqno).toBeGreaterThan(0);
  }, 60_000);

  it('seals at its slot ahead of the messages still waiting, which land in the next block; POST /localnet/mine waits for them', async () => {
    const chain = ctx.net.chain;
    // After the test above the wallet's next seqno is 12. The block timer is off: its seal
    // (sealAtSlot) is called here, at a known point of the backlog.
    const messages = Array.from({ length: 8 }, (_, i) => transfer(ctx.net.wallets, 12 + i));
    const executed: number[] = [];
    const firstBatch = messages.slice(0, 4).map((message, i) => chain.submitExternalMessage(message.toBoc()).then(() => executed.push(i)));
    // Once the first send ran, three are still waiting when the slot comes.
    await firstBatch[0];
    const timed = await chain.sealAtSlot();
    await Promise.all(firstBatch);
    const inTimed = messages.slice(0, 4).map((m) => blockWith(basechainBlocks(ctx), m)?.masterchainSeqno);
    expect(inTimed[0]).toBe(timed.id.seqno);
    // With the seal in line (as before) all four were in it; now the three waiting are not.
    expect(inTimed.slice(1)).toEqual([undefined, undefined, undefined]);
    expect(executed).toEqual([0, 1, 2, 3]);

    // seal() (POST /localnet/mine) keeps its place in line: the messages sent before it are in its block.
    const secondBatch = messages.slice(4).map((message) => chain.submitExternalMessage(message.toBoc()));
    const mined = await chain.seal();
    await Promise.all(secondBatch);
    expect(mined.id.seqno).toBe(timed.id.seqno + 1);
    for (const message of messages.slice(1)) expect(blockWith(basechainBlocks(ctx), message)?.masterchainSeqno).toBe(mined.id.seqno);
  }, 60_000);
});

describe("an accepted message's journal flush and the chain's queue", () => {
  it('the next message executes while the first one is being flushed; each answer waits for its own flush', async () => {
    const net = await startLocalnet({ accounts: 2, blockIntervalMs: 3_600_000 });
    try {
      // A journal whose flushes finish when the test says (the real one: write and fsync, 1-30 ms).
      const flushes: { boc: Buffer; done: () => void }[] = [];
      const rounds: number[] = [];
      net.chain.setJournal({
        appendMessage: (boc) => new Promise<void>((resolve) => flushes.push({ boc, done: resolve })),
        append: () => {
          rounds.push(flushes.length);
          return Promise.resolve();
        },
      });
      const answered: number[] = [];
      const messages = [transfer(net.wallets, 0), transfer(net.wallets, 1)];
      const first = net.chain.submitExternalMessage(messages[0]!.toBoc()).then(() => answered.push(0));
      const second = net.chain.submitExternalMessage(messages[1]!.toBoc()).then(() => answered.push(1));
      // Both executed and handed to the journal, in their order, while the first flush still runs
      // (before, the second waited in the chain's queue for the first's fsync, and so did a seal).
      await until(() => flushes.length === 2, 20_000, 'both messages journaled');
      expect(answered).toEqual([]);
      const sealed = net.chain.seal();
      await until(() => rounds.length === 1, 20_000, 'the round journaled');
      expect(rounds).toEqual([2]);
      flushes[1]!.done();
      await second;
      expect(answered).toEqual([1]);
      flushes[0]!.done();
      await first;
      const block = await sealed;
      const blocks = net.chain.shards.flatMap((shard) => [...net.chain.store.blocks(BASECHAIN, shard)]);
      for (const message of messages) expect(blockWith(blocks, message)?.masterchainSeqno).toBe(block.id.seqno);
    } finally {
      net.chain.setJournal(null);
      await net.stop();
    }
  }, 60_000);

  it('a flush that fails refuses its message and stops the chain, the round of that message unseen', async () => {
    const net = await startLocalnet({ accounts: 2, blockIntervalMs: 3_600_000 });
    try {
      const height = net.chain.store.height(MASTERCHAIN);
      const flush: { fail?: (err: Error) => void; pending?: Promise<void>; roundWaiting?: boolean } = {};
      // As the real journal (records written in the order of the calls), the round's record waits
      // for the message's record to settle; a fake whose round resolved at once let a loaded CI
      // machine seal and publish the round before the test failed the flush.
      net.chain.setJournal({
        appendMessage: () => (flush.pending = new Promise<void>((_, reject) => (flush.fail = reject))),
        append: async () => {
          flush.roundWaiting = true;
          await flush.pending?.catch(() => undefined);
        },
      });
      const sent = net.chain.submitExternalMessage(transfer(net.wallets, 0).toBoc());
      sent.catch(() => undefined);
      // The seal queued behind the message runs while its flush is pending; the flush fails first.
      const sealed = net.chain.seal();
      sealed.catch(() => undefined);
      // The round was built and waits for the message's record: the flush fails now, so the seal
      // must notice after its own record (not only a later operation at the queue's entry).
      await until(() => flush.fail !== undefined && flush.roundWaiting === true, 20_000, 'the round waits for the flush');
      flush.fail!(new Error('disk full'));
      await expect(sent).rejects.toThrow(/an accepted message could not be journaled \(disk full\)/);
      await expect(sealed).rejects.toThrow(/could not be journaled/);
      expect(net.chain.store.height(MASTERCHAIN)).toBe(height);
      await expect(net.chain.seal()).rejects.toThrow(/could not be journaled/);
    } finally {
      net.chain.setJournal(null);
      await net.stop().catch(() => undefined);
    }
  }, 60_000);
});
