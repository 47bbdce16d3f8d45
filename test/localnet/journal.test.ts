/**
 * The block journal of `--state-file`: every sealed block is on disk before any client hears of
 * it, so a chain process killed with SIGKILL comes back with every block a client saw, the same
 * hashes, and the accounts as they were; a torn record at the end is ignored; a restore of an
 * in-memory snapshot is saved at once, so a restart comes back to the rewound chain.
 */
import { beginCell, Cell, external, internal, parseTuple, SendMode, storeMessage, toNano, TupleReader, WalletContractV4 } from '@ton/ton';
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { startLocalnet } from '../../src/localnet';
import { journalFiles, readJournalFile } from '../../src/localnet/ledger/journal';
import { MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { readSnapshotFile } from '../../src/localnet/ledger/snapshot';
import { LocalnetControls } from '../../src/localnet/controls';
import { DEFAULT_LOCALNET_MNEMONIC, deriveLocalnetWallets } from '../../src/localnet/wallets';
import { unrefTimersWhileInstalled } from './adnl/liteClientTimers';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'ton-http-bridge.js');
const SHARD = '-9223372036854775808';
const LITE_KEY = '11'.repeat(32);

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

function startChain(stateFile: string, configOut: string): Child {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TON_BRIDGE_')));
  const args = ['localnet', '--state-file', stateFile, '--config-out', configOut, '--accounts', '1', '--block-interval', '150'];
  args.push('--save-interval', '0', '--localnet-key', LITE_KEY, '--log-level', 'warn');
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { process: child, output: () => output, exited };
}

async function waitForOutput(child: Child, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(child.output())) {
    if (child.process.exitCode !== null) throw new Error(`the chain exited early:\n${child.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function connect(configOut: string): Promise<{ client: LiteClient; close: () => void }> {
  const config = JSON.parse(fs.readFileSync(configOut, 'utf8')) as { liteservers: { ip: number; port: number; id: { key: string } }[] };
  const server = config.liteservers[0];
  const ip = [24, 16, 8, 0].map((shift) => (server.ip >>> shift) & 255).join('.');
  const engine = new LiteSingleEngine({ host: `tcp://${ip}:${server.port}`, publicKey: Buffer.from(server.id.key, 'base64') });
  engine.on('error', () => undefined);
  await new Promise<void>((resolve) => engine.once('ready', () => resolve()));
  return { client: new LiteClient({ engine }), close: () => engine.close() };
}

type SeenBlock = { seqno: number; rootHash: string; fileHash: string };

async function masterchainBlock(client: LiteClient, seqno: number): Promise<SeenBlock> {
  const { id } = await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: SHARD, seqno });
  return { seqno, rootHash: id.rootHash.toString('hex'), fileHash: id.fileHash.toString('hex') };
}

describe('the local chain journal', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-journal-'));
  let restoreTimers: () => void;
  const children: Child[] = [];

  beforeAll(() => {
    restoreTimers = unrefTimersWhileInstalled();
  });
  afterAll(() => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    restoreTimers();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a chain killed with SIGKILL comes back with every block a client saw, hash for hash, and its accounts', async () => {
    const stateFile = path.join(dir, 'killed.lnet');
    const configOut = path.join(dir, 'killed.config.json');
    const wallets = await deriveLocalnetWallets(DEFAULT_LOCALNET_MNEMONIC, 1, -239);
    const v4 = wallets.wallets[0].contract as WalletContractV4;
    const transfer = (seqno: number): Buffer =>
      beginCell()
        .store(
          storeMessage(
            external({
              to: v4.address,
              body: v4.createTransfer({
                seqno,
                secretKey: wallets.keyPair.secretKey,
                messages: [internal({ to: wallets.wallets[1].address, value: toNano('1'), bounce: false })],
                sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
              }),
            }),
          ),
        )
        .endCell()
        .toBoc();

    const first = startChain(stateFile, configOut);
    children.push(first);
    await waitForOutput(first, /Global config written to/);
    const lite = await connect(configOut);
    const seen: SeenBlock[] = [];
    const transfers = 5;
    try {
      for (let seqno = 0; seqno < transfers; seqno++) {
        await lite.client.sendMessage(transfer(seqno));
        // The transfer is in a block once the wallet's seqno moved at the head.
        for (let i = 0; ; i++) {
          const head = (await lite.client.getMasterchainInfo()).last;
          const walletSeqno = await walletSeqnoAt(lite.client, v4, head);
          if (walletSeqno === seqno + 1) break;
          if (i > 200) throw new Error('the transfer never landed');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      // Everything the client can see now: every masterchain block up to the head it was told of.
      const head = (await lite.client.getMasterchainInfo()).last.seqno;
      for (let seqno = 1; seqno <= head; seqno++) seen.push(await masterchainBlock(lite.client, seqno));
    } finally {
      lite.close();
    }
    // No save happened since the start (--save-interval 0): all of it is in the journal.
    first.process.kill('SIGKILL');
    await first.exited;
    const journal = readJournalFile(journalFiles(stateFile).current)!;
    expect(journal.payloads.length).toBeGreaterThanOrEqual(seen.length - journal.base.seqno);
    expect(readSnapshotFile(stateFile)!.chain.masterchain.length).toBeLessThan(seen.length);

    const second = startChain(stateFile, configOut);
    children.push(second);
    await waitForOutput(second, /Global config written to/);
    const again = await connect(configOut);
    try {
      for (const block of seen) expect(await masterchainBlock(again.client, block.seqno)).toEqual(block);
      const head = (await again.client.getMasterchainInfo()).last;
      expect(head.seqno).toBeGreaterThanOrEqual(seen[seen.length - 1].seqno);
      // The accounts came back too: the wallet's seqno is the number of transfers, and it goes on.
      expect(await walletSeqnoAt(again.client, v4, head)).toBe(transfers);
      await again.client.sendMessage(transfer(transfers));
      for (let i = 0; (await walletSeqnoAt(again.client, v4, (await again.client.getMasterchainInfo()).last)) !== transfers + 1; i++) {
        if (i > 200) throw new Error('the transfer after the restart never landed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      again.close();
    }
    second.process.kill('SIGTERM');
    await second.exited;
    // A clean stop saved everything: no journal is left.
    expect(fs.existsSync(journalFiles(stateFile).current)).toBe(false);
  }, 180_000);

  it('a torn record at the end of the journal (a crash in the middle of an append) is ignored', async () => {
    const stateFile = path.join(dir, 'torn.lnet');
    const net = await startLocalnet({ accounts: 1, stateFile, blockIntervalMs: 0, saveIntervalSec: 0, seed: 'torn' });
    const heads: string[] = [];
    for (let i = 0; i < 4; i++) heads.push((await net.chain.seal()).root.hash().toString('hex'));
    // A copy of the files as a kill would leave them, plus half a record.
    const copy = path.join(dir, 'torn-copy.lnet');
    fs.copyFileSync(stateFile, copy);
    const journal = fs.readFileSync(journalFiles(stateFile).current);
    fs.writeFileSync(journalFiles(copy).current, Buffer.concat([journal, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5])]));
    await net.stop();
    const resumed = await startLocalnet({ stateFile: copy, blockIntervalMs: 0, saveIntervalSec: 0 });
    try {
      expect(resumed.chain.lastMasterchainBlock().root.hash().toString('hex')).toBe(heads[heads.length - 1]);
      for (let i = 0; i < heads.length; i++) {
        const seqno = resumed.chain.lastMasterchainBlock().id.seqno - heads.length + 1 + i;
        expect(resumed.chain.store.bySeqno(MASTERCHAIN, seqno)!.root.hash().toString('hex')).toBe(heads[i]);
      }
    } finally {
      await resumed.stop();
    }
  }, 60_000);

  it('a restore rewinds on purpose: saved at once, a restart comes back to the new history (same seqnos, other hashes)', async () => {
    const stateFile = path.join(dir, 'rewound.lnet');
    const net = await startLocalnet({ accounts: 1, stateFile, blockIntervalMs: 0, saveIntervalSec: 0, seed: 'rewound' });
    const controls = new LocalnetControls(net);
    const snap = await controls.snapshot();
    const forgotten = [];
    for (let i = 0; i < 3; i++) forgotten.push(await net.chain.seal());
    await controls.restore(snap.id);
    // The state file is the rewound chain already; new blocks reuse the forgotten seqnos.
    expect(readSnapshotFile(stateFile)!.chain.masterchain.at(-1)!.meta!.id.rootHash.equals(net.chain.lastMasterchainBlock().root.hash())).toBe(
      true,
    );
    const replaced = [];
    for (let i = 0; i < 2; i++) replaced.push(await net.chain.seal());
    expect(replaced[0].id.seqno).toBe(forgotten[0].id.seqno);
    expect(replaced[0].root.hash().equals(forgotten[0].root.hash())).toBe(false);
    // As a kill leaves it: the files without a final save.
    const copy = path.join(dir, 'rewound-copy.lnet');
    fs.copyFileSync(stateFile, copy);
    fs.copyFileSync(journalFiles(stateFile).current, journalFiles(copy).current);
    await net.stop();
    const resumed = await startLocalnet({ stateFile: copy, blockIntervalMs: 0, saveIntervalSec: 0 });
    try {
      for (const block of replaced) {
        expect(resumed.chain.store.bySeqno(MASTERCHAIN, block.id.seqno)!.root.hash().equals(block.root.hash())).toBe(true);
      }
      expect(resumed.chain.lastMasterchainBlock().id.seqno).toBe(replaced[1].id.seqno);
    } finally {
      await resumed.stop();
    }
  }, 60_000);
});

async function walletSeqnoAt(client: LiteClient, wallet: WalletContractV4, block: Parameters<LiteClient['runMethod']>[3]): Promise<number> {
  const state = await client.getAccountState(wallet.address, block);
  if (state.state?.storage.state.type !== 'active') return -1;
  const run = await client.runMethod(wallet.address, 'seqno', Buffer.alloc(0), block);
  if (run.exitCode !== 0 || !run.result) return -1;
  return new TupleReader(parseTuple(Cell.fromBase64(run.result))).readNumber();
}
