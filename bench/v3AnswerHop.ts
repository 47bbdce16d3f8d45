/**
 * Where a v3 answer is cheaper to assemble inline than in an answer thread (`--v3-answer-inline-below`):
 * for pages of transactions of growing size read from a filled index (BENCH_V3_DATABASE, default
 * bench_v3), the event loop's busy time (performance.eventLoopUtilization) per answer assembled
 * inline against sent to a thread and received back, median of runs one at a time.
 * `npx tsx bench/v3AnswerHop.ts`.
 */
import { performance } from 'node:perf_hooks';
import { AnswerPool, assembleInline } from '../src/v3/answers/pool';
import { createV3Database } from '../src/v3';
import { transactionBundleText, bundleTextLength } from '../src/v3/sql/bundle';
import { buildTransactionsQuery } from '../src/v3/sql/transactions';

const DATABASE = process.env['BENCH_V3_DATABASE'] ?? 'bench_v3';

async function busyMs(run: () => Promise<unknown>, times: number): Promise<number> {
  const each: number[] = [];
  for (let i = 0; i < times; i++) {
    const before = performance.eventLoopUtilization();
    await run();
    each.push(performance.eventLoopUtilization(before).active);
  }
  each.sort((a, b) => a - b);
  return each[Math.floor(each.length / 2)]!;
}

async function main(): Promise<void> {
  const db = createV3Database(`postgres://postgres@127.0.0.1:5432/${DATABASE}`);
  const pool = new AnswerPool({ threads: 1, queue: 8, inlineBelow: 0 });
  try {
    console.log('limit  offset  text KB  inline ms  thread ms (event loop busy, median)');
    for (const [limit, offset] of [[1, 0], [3, 0], [10, 0], [10, 5000], [30, 0], [100, 0], [100, 5000], [300, 0], [1000, 0]] as const) {
      const { text, values } = buildTransactionsQuery({}, { limit, offset, sort: 'desc' });
      const bundle = await transactionBundleText(db, text, values, { addressBook: true });
      const task = { kind: 'transactions', text: bundle, testnet: false } as const;
      const times = limit >= 300 ? 15 : 60;
      // Warm both paths (V8's code, the thread's).
      for (let i = 0; i < 5; i++) {
        assembleInline(task);
        await pool.assemble(task);
      }
      const inline = await busyMs(async () => assembleInline(task), times);
      const thread = await busyMs(() => pool.assemble(task), times);
      console.log(`${String(limit).padStart(5)}  ${String(offset).padStart(6)}  ${(bundleTextLength(bundle) / 1024).toFixed(1).padStart(7)}  ${inline.toFixed(3).padStart(9)}  ${thread.toFixed(3).padStart(9)}`);
    }
  } finally {
    await pool.close();
    await db.end();
  }
}

void main();
