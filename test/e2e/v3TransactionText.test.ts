import { Address, internal, toNano } from '@ton/ton';
import { callV2, signedWalletTransfer } from '../helpers/v2Calls';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';
import { v3DatabaseOf } from '../../src/v3/db';
import { transactionsResponse, loadOptions } from '../../src/v3/routes/common';
import type { RouteContext } from '../../src/v3/routes/route';
import { buildAdjacentTransactionsQuery, buildTransactionsQuery, loadTransactions, type TransactionFilter } from '../../src/v3/sql/transactions';
import type { Paging } from '../../src/v3/params/rules';
import { toAccount } from '../../src/v3/params/rules';

jest.setTimeout(420_000);

type Json = Record<string, unknown>;

/** An object's keys sorted (the address book is a map: its key order follows the rows' join order). */
const sortedKeys = (object: Json) => Object.fromEntries(Object.keys(object).sort().map((k) => [k, object[k]]));

/**
 * The transactions routes' answers written by PostgreSQL (sql/transactionText.ts) against the
 * converters' answer (models/transaction.ts over sql/bundle.ts's rows, what the routes answered
 * before and the streaming API still uses) on a chain filled by the real index: the same JSON,
 * key order included, for several filters, orders and pages; the address book the same map.
 */
describe.each(INDEX_BACKENDS)('transactions written by PostgreSQL equal the converters (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--shards', '2', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('pages by account, range, block, message and adjacency; with and without the address book', async () => {
    const { wallets } = stack.localnet.wallets;
    const sender = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    const otherShardBit = sender.address.hash[0]! & 0x80 ? 0x00 : 0x80;
    const receiver = new Address(0, Buffer.alloc(32, otherShardBit | 0x33));
    const bouncer = new Address(0, Buffer.alloc(32, (sender.address.hash[0]! & 0x80) | 0x44));
    // Messages with bodies, a bounce (bounce phase, a bounced in message), two shards.
    const { boc } = await signedWalletTransfer(stack, [
      internal({ to: receiver, value: toNano('0.2'), bounce: false, body: 'text compare' }),
      internal({ to: bouncer, value: toNano('0.1'), bounce: true, body: 'text compare bounce' }),
    ]);
    const sent = await callV2<{ hash: string }>(stack, 'POST', 'sendBocReturnHash', { boc: boc.toString('base64') });
    expect(sent.status).toBe(200);
    const msgHash = Buffer.from(sent.body.result!.hash, 'base64');
    const index = stack.server.services.index!;
    const reads = v3DatabaseOf(index.store.readPool);
    await until(async () => {
      const rows = await reads.query<{ n: string }>(
        `select count(*)::text as n from transactions where trace_id = (select M.trace_id from messages as M where M.msg_hash = $1 limit 1)`,
        [msgHash],
      );
      return Number(rows[0]?.n ?? 0) >= 4;
    }, 300_000, 'the trace is indexed');
    const [senderTx] = await reads.query<{ hash: Buffer; mc_block_seqno: number }>(
      `select T.hash, T.mc_block_seqno from messages as M join transactions as T on T.hash = M.tx_hash where M.msg_hash = $1 and M.direction = 'in'`,
      [msgHash],
    );

    // Pages bounded by the lt of the newest transaction now: the chain keeps sealing blocks, and
    // the two paths read one after the other.
    const [newest] = await reads.query<{ lt: string }>('select max(lt)::text as lt from transactions', []);
    const endLt = BigInt(newest!.lt);
    const account = toAccount(sender.address.toString())!;
    const paging = (limit: number, offset = 0, sort?: 'asc' | 'desc'): Paging => ({ limit, offset, sort });
    const cases: [string, TransactionFilter, Paging][] = [
      [`/transactions?account=${sender.address.toString()}&end_lt=${endLt}&limit=10`, { accounts: [account], endLt }, paging(10)],
      [`/transactions?end_lt=${endLt}&limit=1000`, { endLt }, paging(1000)],
      ['/transactions?limit=7&offset=3&sort=asc', {}, paging(7, 3, 'asc')],
      [`/transactions?workchain=0&start_lt=0&end_lt=${endLt}&start_utime=0&end_utime=2147483647&limit=1000`, {
        workchain: 0, startLt: 0n, endLt, startUtime: 0, endUtime: 2147483647,
      }, paging(1000)],
      [`/transactions?exclude_account=${sender.address.toString()}&end_lt=${endLt}&limit=50&sort=asc`, { excludeAccounts: [account], endLt }, paging(50, 0, 'asc')],
      [`/transactions?mc_seqno=${senderTx!.mc_block_seqno}`, { mcSeqno: senderTx!.mc_block_seqno }, paging(100)],
      [`/transactionsByMessage?msg_hash=${msgHash.toString('hex')}`, { msgHashes: [msgHash] }, paging(100)],
      [`/transactionsByMasterchainBlock?seqno=${senderTx!.mc_block_seqno}&limit=1000`, { mcSeqno: senderTx!.mc_block_seqno }, paging(1000)],
    ];
    const pages: [string, { text: string; values: unknown[] }][] = [
      ...cases.map(([path, filter, page]): [string, { text: string; values: unknown[] }] => [path, buildTransactionsQuery(filter, page)]),
      [`/adjacentTransactions?hash=${senderTx!.hash.toString('hex')}`, buildAdjacentTransactionsQuery(senderTx!.hash, undefined)],
    ];
    let compared = 0;
    for (const noAddressBook of [false, true]) {
      const context: RouteContext = { db: reads, settings: { noAddressBook, noMetadata: false, testnet: false } };
      for (const [path, page] of pages) {
        const res = await fetch(`${stack.url}/api/v3${path}`, { headers: noAddressBook ? { 'X-No-Address-Book': '1' } : {} });
        expect(res.status).toBe(200);
        const answer = (await res.json()) as { transactions: Json[]; address_book: Json };
        const converted = (await transactionsResponse(context, await loadTransactions(reads, page.text, page.values, loadOptions(context)))) as {
          transactions: Json[];
          address_book: Json;
        };
        expect(Object.keys(answer)).toEqual(['transactions', 'address_book']);
        // The same text once both are written by JSON.stringify: values, key order, omitted keys.
        expect({ path, transactions: JSON.stringify(answer.transactions) }).toEqual({ path, transactions: JSON.stringify(converted.transactions) });
        expect(sortedKeys(answer.address_book)).toEqual(sortedKeys(converted.address_book));
        if (noAddressBook) expect(answer.address_book).toEqual({});
        compared += answer.transactions.length;
      }
    }
    // The pages were not empty: the comparison saw the chain's transactions, the bounce among them.
    expect(compared).toBeGreaterThan(20);
  });
});
