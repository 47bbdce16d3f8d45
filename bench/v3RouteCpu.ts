/**
 * `npx tsx bench/v3RouteCpu.ts [database]`: the API's own CPU for one request of the transactions
 * routes, the page written by PostgreSQL (sql/transactionText.ts, what the routes answer) against
 * the converters over JSON rows (sql/bundle.ts + models/transaction.ts + JSON.stringify, what they
 * answered before): process CPU (user + system) of the run and the answer's text, without HTTP,
 * one request at a time, median of RUNS. The database is a bench fill (default bench_v3).
 */
import pg from 'pg';
import { v3DatabaseOf } from '../src/v3/db';
import { loadOptions, transactionsResponse, transactionsText } from '../src/v3/routes/common';
import type { RouteContext } from '../src/v3/routes/route';
import { buildTransactionsQuery, loadTransactions, type TransactionFilter } from '../src/v3/sql/transactions';
import type { Paging } from '../src/v3/params/rules';
import { toAccount } from '../src/v3/params/rules';

const DATABASE = process.argv[2] ?? 'bench_v3';
const ADMIN_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const db = v3DatabaseOf(pool);
  const context: RouteContext = { db, settings: { noAddressBook: false, noMetadata: false, testnet: false } };
  const wide = (await pool.query<{ source: string }>("select source from messages where direction = 'out' group by source order by count(*) desc limit 1")).rows[0]!.source;
  const deep = (await pool.query<{ account: string }>('select account from transactions where account <> $1 group by account order by count(*) desc limit 1', [wide])).rows[0]!.account;
  const msg = (await pool.query<{ msg_hash: Buffer }>("select msg_hash from messages where direction = 'in' and source = $1 limit 1", [deep])).rows[0]!.msg_hash;
  const paging = (limit: number, offset = 0, sort?: 'asc' | 'desc'): Paging => ({ limit, offset, sort });
  const cases: [string, TransactionFilter, Paging, number][] = [
    ['transactions?account=A&limit=100 (deep wallet)', { accounts: [toAccount(deep)!] }, paging(100), 40],
    ['transactionsByMessage?msg_hash=H', { msgHashes: [msg] }, paging(100), 40],
    ['transactions, widest, limit 1 000, offset 10 000', { startLt: 0n, endLt: 9223372036854775807n, startUtime: 0, endUtime: 2147483647 }, paging(1000, 10_000), 9],
    ['transactions, lt range asc, limit 1 000, offset 10 000', { startLt: 0n, endLt: 9223372036854775807n }, paging(1000, 10_000, 'asc'), 9],
  ];
  console.log(`route CPU in process (${DATABASE}), median ms: converters (JSON rows) | PostgreSQL's text; answer KB`);
  for (const [label, filter, page, runs] of cases) {
    const { text, values } = buildTransactionsQuery(filter, page);
    const old: number[] = [];
    const now: number[] = [];
    let oldBytes = 0;
    let newBytes = 0;
    for (let i = 0; i < runs; i++) {
      let t0 = cpuMs();
      const answer = JSON.stringify(await transactionsResponse(context, await loadTransactions(db, text, values, loadOptions(context))));
      old.push(cpuMs() - t0);
      oldBytes = Buffer.byteLength(answer);
      t0 = cpuMs();
      const written = (await transactionsText(context, { text, values })).answer.text;
      now.push(cpuMs() - t0);
      newBytes = Buffer.byteLength(written);
    }
    console.log(`  ${label.padEnd(52)} ${median(old).toFixed(2).padStart(7)} | ${median(now).toFixed(2).padStart(7)}   ${(oldBytes / 1024).toFixed(0)} | ${(newBytes / 1024).toFixed(0)} KB`);
  }
  await pool.end();
}

void main();
