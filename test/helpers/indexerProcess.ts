import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, toNano } from '@ton/core';
import type { IndexStore } from '../../src/indexdb';
import { startLocalStack, type LocalStack } from './localStack';
import { callV2, sendTransfer } from './v2Calls';

const ROOT = path.join(__dirname, '..', '..');

/** A `ton-http-bridge index` child process. */
export interface IndexerProcess {
  readonly child: ChildProcess;
  /** Resolves once it printed `indexing (…)`; rejects if it exits before. */
  readonly indexing: Promise<void>;
  readonly exited: Promise<number | null>;
}

/** Starts `ton-http-bridge index` with these arguments (after `index`). */
export function spawnIndexer(args: readonly string[]): IndexerProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'ton-http-bridge.js'), 'index', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const indexing = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('indexing (')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`indexer exited (${code}) before indexing: ${output}`)));
  });
  indexing.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, indexing, exited };
}

/**
 * Every indexed block's transactions: as many as the block says and as v2's getBlockTransactions
 * lists for it. Returns the blocks' rows (seqno, masterchain seqno, transaction count).
 */
export async function expectBlocksAsV2(pool: IndexStore['pool'], stack: LocalStack): Promise<{ mc: number; tx_count: number }[]> {
  const { rows: blocks } = await pool.query<{ workchain: number; shard: string; seqno: number; tx_count: number; n: string; mc: number }>(
    `select b.workchain, b.shard::text, b.seqno, b.tx_count, b.mc_block_seqno as mc, (select count(*) from transactions t
       where t.block_workchain = b.workchain and t.block_shard = b.shard and t.block_seqno = b.seqno) as n from blocks b`,
  );
  for (const block of blocks) {
    expect(Number(block.n)).toBe(block.tx_count);
    if (block.tx_count === 0) continue;
    const listed = await callV2<{ transactions: { hash: string }[] }>(stack, 'GET', 'getBlockTransactions', {
      workchain: block.workchain,
      shard: block.shard,
      seqno: block.seqno,
      count: 256,
    });
    expect(listed.body.result!.transactions.length).toBe(block.tx_count);
  }
  return blocks;
}

/** A local chain (index off) whose config file an indexer process reaches it with, transfers flowing every `everyMs`. */
export interface ChainWithTraffic {
  readonly stack: LocalStack;
  /** A scratch directory (the config file is in it), removed by `stop`. */
  readonly dir: string;
  readonly configFile: string;
  stop(): Promise<void>;
}

export async function chainWithTraffic(name: string, blockIntervalMs: number, everyMs: number, firstByte: number): Promise<ChainWithTraffic> {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const stack = await startLocalStack(['--shards', '2', '--block-interval', String(blockIntervalMs), '--keep-blocks', '100000', '--index', 'off']);
  const configFile = path.join(dir, 'local.json');
  writeFileSync(configFile, stack.localnet.globalConfigJson);
  const recipients = Array.from({ length: 3 }, (_, i) => new Address(0, Buffer.alloc(32, firstByte + i * 0x40)));
  let sending = true;
  const transfers = (async () => {
    while (sending) {
      await sendTransfer(stack, recipients, toNano('0.01')).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stack,
    dir,
    configFile,
    stop: async () => {
      sending = false;
      await transfers;
      await stack.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
