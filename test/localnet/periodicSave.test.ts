/**
 * --save-interval: with a state file, the chain is saved every interval while it runs, each save
 * a whole loadable snapshot; a writer killed in the middle of a save leaves the previous file as
 * it was (the bytes go to a temporary file that is renamed over it only once flushed).
 */
import { Address, beginCell, toNano } from '@ton/core';
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { startLocalnet } from '../../src/localnet';
import { BocNodeCache } from '../../src/cells';
import { decodeSnapshot, encodeSnapshot, readSnapshotFile, snapshotTempFile } from '../../src/localnet/ledger/snapshot';
import { LocalChain } from '../../src/localnet/ledger/LocalChain';
import { encodeBlockMeta } from '../../src/localnet/ledger/blockBytes';
import { BASECHAIN, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { MAX_STALL_MS, withStallProbe } from '../helpers/stallProbe';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, what: string, limitMs: number): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('periodic atomic saves of the local chain', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-save-'));
  const stateFile = path.join(dir, 'chain.lnet');

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('saves every interval while running; each file is a whole snapshot that resumes', async () => {
    const net = await startLocalnet({ accounts: 1, stateFile, saveIntervalSec: 1, blockIntervalMs: 100, keepBlocks: 16 });
    try {
      // Waits, not speed checks: a loaded machine may take several intervals per save.
      await waitFor(() => fs.existsSync(stateFile), 'the first periodic save', 30_000);
      const first = readSnapshotFile(stateFile)!;
      const firstHeight = first.chain.masterchain.length;
      expect(firstHeight).toBeGreaterThan(0);
      await waitFor(
        () =>
          (readSnapshotFile(stateFile)?.chain.masterchain.at(-1)?.meta?.id.rootHash.equals(first.chain.masterchain.at(-1)!.meta!.id.rootHash) ??
            true) === false,
        'a later save',
        30_000,
      );
      const later = readSnapshotFile(stateFile)!;
      // The window (16) plus the key-block round, never the whole history.
      expect(later.chain.masterchain.length).toBeLessThanOrEqual(17);
      const resumed = await LocalChain.restore(later.chain, { blockIntervalMs: 0, keepBlocks: 16 });
      const head = resumed.lastMasterchainBlock();
      expect(head.root.hash().equals(later.chain.masterchain.at(-1)!.meta!.id.rootHash)).toBe(true);
      expect(resumed.store.bySeqno(MASTERCHAIN, 1)?.keyBlock).toBe(true);
      await resumed.seal();
      expect(resumed.lastMasterchainBlock().id.seqno).toBe(head.id.seqno + 1);
      await resumed.stop();
    } finally {
      await net.stop();
    }
    // stop() saved once more: the file is the final chain.
    expect(readSnapshotFile(stateFile)!.chain.masterchain.length).toBeGreaterThan(0);
  });

  it("saves that reuse the previous saves' nodes decode to exactly the chain", async () => {
    const net = await startLocalnet({ accounts: 2, blockIntervalMs: 0, keepBlocks: 16 });
    try {
      const cache = new BocNodeCache();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 7; i++) await net.chain.seal();
        const snap = await net.chain.snapshot();
        const decoded = decodeSnapshot(
          encodeSnapshot({ chain: snap, adnlSeed: Buffer.alloc(32, 1), mnemonic: [], accounts: 2 }, cache),
        ).chain;
        // The cells (config, zerostates, states) by hash; the blocks by their bytes and their meta.
        const hashes = (c: typeof snap) => [
          ...[
            c.config,
            c.zeroStates.masterchain,
            c.zeroStates.basechain,
            ...c.masterchain.map((b) => b.state),
            ...c.basechain.flatMap((sh) => sh.blocks.map((b) => b.state)),
          ].map((cell) => cell.hash().toString('hex')),
          ...[...c.masterchain, ...c.basechain.flatMap((sh) => sh.blocks)].map((b) => `${b.boc.toString('hex')} ${encodeBlockMeta(b.meta!).toString('hex')}`),
        ];
        expect(hashes(decoded)).toEqual(hashes(snap));
      }
    } finally {
      await net.stop();
    }
  });

  it('a periodic save of a chain of thousands of accounts never stalls the event loop; the file resumes to the same state', async () => {
    // Enough that encoding the file at once stalls (the control below): its states are the cells
    // to encode (the blocks are bytes since state files of version 4). 6 000 accounts stalled
    // 270 ms until the BoC writer stopped writing partial bytes bit by bit, then 100-120 ms, at the
    // bound; 10 000 stall 190-230 ms, the saves in slices 23-30 ms.
    const accounts = 10_000;
    const file = path.join(dir, 'big.lnet');
    const net = await startLocalnet({ accounts: 1, blockIntervalMs: 0, keepBlocks: 16 });
    try {
      const entries = Array.from({ length: accounts }, (_, i) => {
        const init = { code: beginCell().storeUint(0, 8).endCell(), data: beginCell().storeUint(i, 32).endCell() };
        const address = new Address(0, beginCell().storeRef(init.code).storeRef(init.data).endCell().hash());
        return { address, init, balance: toNano('1') };
      });
      for (let i = 0; i < entries.length; i += 1000) await net.chain.deployGenesis(entries.slice(i, i + 1000));
      await net.chain.seal();
      const deployed = net.chain.accountCount(BASECHAIN);
      expect(deployed).toBeGreaterThanOrEqual(accounts);

      // net.save is what the --save-interval timer runs: its first save encodes every cell.
      const { stallMs } = await withStallProbe(() => net.save(file));
      expect(stallMs).toBeLessThan(MAX_STALL_MS);
      // A later save (new blocks, most nodes kept) does not stall either.
      for (let i = 0; i < 3; i++) await net.chain.seal();
      const { stallMs: laterStallMs } = await withStallProbe(() => net.save(file));
      expect(laterStallMs).toBeLessThan(MAX_STALL_MS);

      // The chain is big enough to matter: encoding it at once (what the save did before) stalls
      // the loop several times longer than the sliced saves did. Relative, not against the 100 ms
      // bound: on a fast machine (28 November) the whole encoding of these 10 000 accounts took
      // exactly 100 ms, while the slices stayed far below it. (Measured after the saves, so its
      // garbage is not collected inside them.)
      const snap = await net.chain.snapshot();
      const { stallMs: wholeStallMs } = await withStallProbe(async () => {
        encodeSnapshot({ chain: snap, adnlSeed: Buffer.alloc(32, 1), mnemonic: [], accounts: 1 });
      });
      expect(wholeStallMs).toBeGreaterThan(3 * Math.max(stallMs, laterStallMs));

      const saved = readSnapshotFile(file)!;
      const head = net.chain.lastMasterchainBlock();
      expect(saved.chain.masterchain.at(-1)!.meta!.id.rootHash.equals(head.root.hash())).toBe(true);
      const resumed = await LocalChain.restore(saved.chain, { blockIntervalMs: 0, keepBlocks: 16 });
      try {
        expect(resumed.lastMasterchainBlock().root.hash().equals(head.root.hash())).toBe(true);
        for (const shard of net.chain.shards) {
          expect(resumed.store.last(BASECHAIN, shard)!.state.hash().equals(net.chain.store.last(BASECHAIN, shard)!.state.hash())).toBe(true);
        }
        expect(resumed.accountCount(BASECHAIN)).toBe(deployed);
        expect(resumed.accountCount(MASTERCHAIN)).toBe(net.chain.accountCount(MASTERCHAIN));
      } finally {
        await resumed.stop();
      }
    } finally {
      await net.stop();
    }
  }, 180_000);

  it('a writer killed in the middle of a save leaves the previous file intact', async () => {
    const before = fs.readFileSync(stateFile);
    const tmp = snapshotTempFile(stateFile);
    let caughtMidWrite = false;
    for (let attempt = 0; attempt < 5 && !caughtMidWrite; attempt++) {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'helpers', 'atomicWriteChild.ts'), stateFile, '96'], {
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        // Kill it the moment its temporary file exists: between open and rename.
        await waitFor(() => fs.existsSync(tmp) || child.exitCode !== null, 'the child to start writing', 20_000);
      } finally {
        // Also when the wait failed: a child left running outlives the suite.
        child.kill('SIGKILL');
        await exited;
      }
      if (fs.existsSync(tmp)) {
        caughtMidWrite = true;
        // The rename never happened: the file is the previous snapshot, byte for byte.
        expect(fs.readFileSync(stateFile).equals(before)).toBe(true);
        expect(decodeSnapshot(fs.readFileSync(stateFile)).chain.masterchain.length).toBeGreaterThan(0);
        fs.rmSync(tmp);
      } else {
        // It finished a whole write first: the file is then wholly the new bytes, never a mix.
        const now = fs.readFileSync(stateFile);
        expect(now.equals(before) || (now.length === 96 * 1024 * 1024 && now.every((b) => b === 0xee))).toBe(true);
        fs.writeFileSync(stateFile, before);
      }
    }
    expect(caughtMidWrite).toBe(true);
  }, 60_000);
});
