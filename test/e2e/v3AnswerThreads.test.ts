import { Address, internal, toNano } from '@ton/ton';
import { callV2, signedWalletTransfer } from '../helpers/v2Calls';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';
import { ApiError } from '../../src/errors';
import { v3AnswerTasks } from '../../src/metrics';
import { v3DatabaseOf } from '../../src/v3/db';
import { AnswerPool, assembleInline } from '../../src/v3/answers/pool';
import { addressBookFor, messageAddresses, metadataFor, transactionsResponse, loadOptions } from '../../src/v3/routes/common';
import { toMessageJson } from '../../src/v3/models/message';
import { queryMessages, type MessageFilter } from '../../src/v3/sql/messages';
import type { RouteContext } from '../../src/v3/routes/route';
import { transactionBundleText } from '../../src/v3/sql/bundle';
import { buildAdjacentTransactionsQuery, buildTransactionsQuery, loadTransactions, type TransactionFilter } from '../../src/v3/sql/transactions';
import type { Paging } from '../../src/v3/params/rules';
import { toAccount } from '../../src/v3/params/rules';
import { V3Query } from '../../src/v3/params/query';
import { actionsRequest, actionsResponse } from '../../src/v3/routes/actions';
import { tracesRequest, tracesResponse } from '../../src/v3/routes/traces';
import { queryActionsText } from '../../src/v3/sql/actions';
import { queryTracesText } from '../../src/v3/sql/traces';
import { MAX_TRACE_TRANSACTIONS } from '../../src/v3/models/trace';
import { expandActionTypes } from '../../src/actions';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { parseGlobalConfig, trustAnchorOf } from '../../src/liteclient';
import { startServer } from '../../src/server';

jest.setTimeout(240_000);

async function threadTasks(outcome: string, where = 'thread'): Promise<number> {
  const metric = await v3AnswerTasks.get();
  return metric.values.filter((v) => v.labels['where'] === where && v.labels['outcome'] === outcome).reduce((sum, v) => sum + v.value, 0);
}

/**
 * The transactions routes' answers assembled in answer threads (src/v3/answers: every answer, as
 * `--v3-answer-inline-below 0`) against the converters' answer written on the event loop as the
 * routes wrote it before (routes/common.ts's transactionsResponse over the rows the driver parsed,
 * then JSON.stringify): the same bytes, for several filters, orders and pages, with and without
 * the address book, on a chain filled by the real index; the same for `messages`, `traces`/`events`
 * (include_actions, a trace of several transactions) and `actions` against their routes' old
 * answers (tracesResponse, actionsResponse: the rows the driver parsed, then JSON.stringify), and
 * an altered task's answer does not pass that comparison. Then the pool's bounds: a full queue is a
 * 503 at once, the rows' bytes are moved to the thread, a thread that dies under a task a 500, and
 * the next task runs on its replacement.
 */
describe.each(INDEX_BACKENDS)('v3 answers assembled in threads are the bytes of the event loop\'s (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack([
      '--shards', '2', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : []),
      '--v3-answer-threads', '2', '--v3-answer-inline-below', '0',
    ]);
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
      internal({ to: receiver, value: toNano('0.2'), bounce: false, body: 'thread compare' }),
      internal({ to: bouncer, value: toNano('0.1'), bounce: true, body: 'thread compare bounce' }),
    ]);
    const sent = await callV2<{ hash: string }>(stack, 'POST', 'sendBocReturnHash', { boc: boc.toString('base64') });
    expect(sent.status).toBe(200);
    const msgHash = Buffer.from(sent.body.result!.hash, 'base64');
    const reads = v3DatabaseOf(stack.server.services.index!.store.readPool);
    await until(async () => {
      const rows = await reads.query<{ n: string }>(
        `select count(*)::text as n from transactions where trace_id = (select M.trace_id from messages as M where M.msg_hash = $1 limit 1)`,
        [msgHash],
      );
      return Number(rows[0]?.n ?? 0) >= 4;
    }, 120_000, 'the trace is indexed');
    // Its actions (classified when the trace completes).
    await until(async () => {
      const rows = await reads.query<{ n: string }>(
        `select count(*)::text as n from actions where trace_id = (select M.trace_id from messages as M where M.msg_hash = $1 limit 1)`,
        [msgHash],
      );
      return Number(rows[0]?.n ?? 0) >= 1;
    }, 120_000, 'the trace\'s actions are indexed');
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
      [`/transactions?end_lt=${endLt}&limit=7&offset=3&sort=asc`, { endLt }, paging(7, 3, 'asc')],
      [`/transactions?workchain=0&start_lt=0&end_lt=${endLt}&start_utime=0&end_utime=2147483647&limit=1000`, {
        workchain: 0, startLt: 0n, endLt, startUtime: 0, endUtime: 2147483647,
      }, paging(1000)],
      [`/transactions?exclude_account=${sender.address.toString()}&end_lt=${endLt}&limit=50&sort=asc`, { excludeAccounts: [account], endLt }, paging(50, 0, 'asc')],
      [`/transactions?mc_seqno=${senderTx!.mc_block_seqno}`, { mcSeqno: senderTx!.mc_block_seqno }, paging(100)],
      [`/transactions?end_lt=1&limit=5`, { endLt: 1n }, paging(5)],
      [`/transactionsByMessage?msg_hash=${msgHash.toString('hex')}`, { msgHashes: [msgHash] }, paging(100)],
      [`/transactionsByMasterchainBlock?seqno=${senderTx!.mc_block_seqno}&limit=1000`, { mcSeqno: senderTx!.mc_block_seqno }, paging(1000)],
    ];
    const pages: [string, { text: string; values: unknown[] }][] = [
      ...cases.map(([path, filter, page]): [string, { text: string; values: unknown[] }] => [path, buildTransactionsQuery(filter, page)]),
      [`/adjacentTransactions?hash=${senderTx!.hash.toString('hex')}`, buildAdjacentTransactionsQuery(senderTx!.hash, undefined)],
    ];
    const threadedBefore = await threadTasks('ok');
    const readBefore = await threadTasks('ok', 'thread_read');
    let compared = 0;
    let requests = 0;
    for (const noAddressBook of [false, true]) {
      const context: RouteContext = { db: reads, settings: { noAddressBook, noMetadata: false, testnet: false } };
      for (const [path, page] of pages) {
        const res = await fetch(`${stack.url}/api/v3${path}`, { headers: noAddressBook ? { 'X-No-Address-Book': '1' } : {} });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('content-length')).toBe(String(bytes.length));
        const converted = await transactionsResponse(context, await loadTransactions(reads, page.text, page.values, loadOptions(context)));
        // Byte for byte: values, key order, omitted keys, the address book's order.
        expect({ path, noAddressBook, answer: bytes.toString() }).toEqual({ path, noAddressBook, answer: JSON.stringify(converted) });
        // The same bytes from the thread and inline for the same text.
        const text = await transactionBundleText(reads, page.text, page.values, loadOptions(context));
        const task = { kind: 'transactions', text, testnet: false } as const;
        expect(assembleInline(task).toString()).toBe(JSON.stringify(converted));
        compared += converted.transactions.length;
        requests++;
      }
    }
    // On a PostgreSQL server the threads read the pages of more than 10 rows themselves (limit 1000, 1000,
    // 50, the default 100 of mc_seqno, 1000 of transactionsByMasterchainBlock: five, in each of the two
    // passes; the cache at the index's head may compute some again as the head moves); the embedded
    // store's reads are the index thread's, so none there.
    if (backend === 'postgres') expect(await threadTasks('ok', 'thread_read')).toBeGreaterThanOrEqual(readBefore + 10);
    else expect(await threadTasks('ok', 'thread_read')).toBe(readBefore);
    // messages: the route's answer as it was written from the driver's rows (its code before the threads).
    const messageCases: [string, MessageFilter, Paging][] = [
      [`/messages?end_lt=${endLt}&limit=1000`, { endLt }, paging(1000)],
      [`/messages?source=${sender.address.toString()}&end_lt=${endLt}&limit=20&sort=asc`, { source: account, endLt }, paging(20, 0, 'asc')],
      [`/messages?destination=null&end_lt=${endLt}&limit=50`, { destination: 'null', endLt }, paging(50)],
      [`/messages?msg_hash=${msgHash.toString('hex')}`, { msgHashes: [msgHash] }, paging(100)],
      [`/messages?start_utime=0&end_utime=2147483647&end_lt=${endLt}&limit=30&offset=2`, { startUtime: 0, endUtime: 2147483647, endLt }, paging(30, 2)],
      [`/messages?end_lt=1`, { endLt: 1n }, paging(100)],
    ];
    for (const noAddressBook of [false, true]) {
      const context: RouteContext = { db: reads, settings: { noAddressBook, noMetadata: noAddressBook, testnet: false } };
      for (const [path, filter, page] of messageCases) {
        const headers: Record<string, string> = noAddressBook ? { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' } : {};
        const res = await fetch(`${stack.url}/api/v3${path}`, { headers });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        const bytes = Buffer.from(await res.arrayBuffer());
        const rows = await queryMessages(reads, filter, page);
        const addresses = messageAddresses(rows);
        const reference = JSON.stringify({
          messages: rows.map(toMessageJson),
          address_book: addresses.length === 0 ? {} : await addressBookFor(context, addresses),
          metadata: await metadataFor(context, addresses),
        });
        expect({ path, noAddressBook, answer: bytes.toString() }).toEqual({ path, noAddressBook, answer: reference });
        compared += rows.length;
        requests++;
      }
    }

    // traces and events: the routes' answers as they were written from the driver's rows.
    const [trace] = await reads.query<{ trace_id: Buffer }>('select M.trace_id from messages as M where M.msg_hash = $1 limit 1', [msgHash]);
    const traceId = trace!.trace_id;
    const queryOf = (path: string) => {
      const query: Record<string, string[]> = {};
      for (const [key, value] of new URL(path, 'http://x').searchParams) (query[key] ??= []).push(value);
      return new V3Query(query);
    };
    const traceCases: string[] = [
      `/traces?trace_id=${traceId.toString('hex')}`,
      `/traces?trace_id=${traceId.toString('hex')}&include_actions=true`,
      `/traces?account=${sender.address.toString()}&end_lt=${endLt}&limit=10&include_actions=1`,
      `/traces?end_lt=${endLt}&limit=1000`,
      `/traces?end_lt=${endLt}&limit=1000&include_actions=true&supported_action_types=v1`,
      `/traces?msg_hash=${msgHash.toString('hex')}&include_actions=true`,
      `/traces?tx_hash=${senderTx!.hash.toString('hex')}`,
      `/traces?mc_seqno=${senderTx!.mc_block_seqno}&include_actions=true`,
      `/traces?start_utime=0&end_utime=2147483647&end_lt=${endLt}&limit=20&offset=1&sort=asc&include_actions=true`,
      `/traces?end_lt=1`,
      `/events?account=${sender.address.toString()}&end_lt=${endLt}&limit=5`,
      `/events?trace_id=${traceId.toString('hex')}`,
    ];
    let traceTransactions = 0;
    let traceActions = 0;
    for (const noAddressBook of [false, true]) {
      const context: RouteContext = { db: reads, settings: { noAddressBook, noMetadata: noAddressBook, testnet: false } };
      for (const path of traceCases) {
        const headers: Record<string, string> = noAddressBook ? { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' } : {};
        const res = await fetch(`${stack.url}/api/v3${path}`, { headers });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        const bytes = Buffer.from(await res.arrayBuffer());
        const events = path.startsWith('/events');
        const old = await tracesResponse(context, tracesRequest(queryOf(path), events));
        const reference = JSON.stringify({ [events ? 'events' : 'traces']: old.traces, address_book: old.addressBook, metadata: old.metadata });
        expect({ path, noAddressBook, answer: bytes.toString() }).toEqual({ path, noAddressBook, answer: reference });
        for (const t of old.traces) {
          traceTransactions += ((t['transactions_order'] as string[] | undefined) ?? []).length;
          traceActions += ((t['actions'] as unknown[] | undefined) ?? []).length;
        }
        requests++;
      }
    }
    // The sent trace has its several transactions (a tree: the wallet, two receivers, the bounce) and actions.
    const whole = JSON.parse((await (await fetch(`${stack.url}/api/v3/traces?trace_id=${traceId.toString('hex')}&include_actions=true`)).text())) as {
      traces: { transactions_order: string[]; actions: unknown[]; trace: { children: unknown[] } }[];
    };
    expect(whole.traces[0]!.transactions_order.length).toBeGreaterThanOrEqual(4);
    expect(whole.traces[0]!.trace.children.length).toBeGreaterThanOrEqual(2);
    expect(whole.traces[0]!.actions.length).toBeGreaterThanOrEqual(1);
    expect(traceTransactions).toBeGreaterThan(40);
    expect(traceActions).toBeGreaterThan(4);

    // actions: the route's answer as it was written from the driver's rows.
    const actionCases: [string, Record<string, string>][] = [
      [`/actions?end_lt=${endLt}&limit=1000`, {}],
      [`/actions?account=${sender.address.toString()}&end_lt=${endLt}&limit=20&include_accounts=true`, {}],
      [`/actions?trace_id=${traceId.toString('hex')}&include_accounts=1`, {}],
      [`/actions?tx_hash=${senderTx!.hash.toString('hex')}&supported_action_types=v1`, {}],
      [`/actions?msg_hash=${msgHash.toString('hex')}`, { 'X-Actions-Version': 'v1' }],
      [`/actions?mc_seqno=${senderTx!.mc_block_seqno}`, {}],
      [`/actions?end_lt=${endLt}&limit=5&offset=1&sort=asc&action_type=ton_transfer,call_contract`, {}],
      [`/actions?end_lt=${endLt}&limit=50&exclude_action_type=ton_transfer`, {}],
      [`/actions?start_utime=0&end_utime=2147483647&end_lt=${endLt}&limit=30&include_accounts=true`, {}],
      [`/actions?end_lt=1`, {}],
    ];
    let actionsCompared = 0;
    for (const noAddressBook of [false, true]) {
      for (const [path, extra] of actionCases) {
        const actionsVersion = extra['X-Actions-Version'];
        const context: RouteContext = { db: reads, settings: { noAddressBook, noMetadata: noAddressBook, testnet: false, ...(actionsVersion ? { actionsVersion } : {}) } };
        const headers: Record<string, string> = { ...extra, ...(noAddressBook ? { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' } : {}) };
        const res = await fetch(`${stack.url}/api/v3${path}`, { headers });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        const bytes = Buffer.from(await res.arrayBuffer());
        const reference = JSON.stringify(await actionsResponse(context, actionsRequest(queryOf(path))));
        expect({ path, noAddressBook, answer: bytes.toString() }).toEqual({ path, noAddressBook, answer: reference });
        actionsCompared += (JSON.parse(reference) as { actions: unknown[] }).actions.length;
        requests++;
      }
    }
    expect(actionsCompared).toBeGreaterThan(10);

    // The comparison sees an altered assembly: the same text with one action or one trace
    // transaction less, or a flag changed, is not the reference's bytes.
    {
      const context: RouteContext = { db: reads, settings: { noAddressBook: false, noMetadata: false, testnet: false } };
      const path = `/traces?trace_id=${traceId.toString('hex')}&include_actions=true`;
      const old = await tracesResponse(context, tracesRequest(queryOf(path), false));
      const reference = JSON.stringify({ traces: old.traces, address_book: old.addressBook, metadata: old.metadata });
      const page = await queryTracesText(reads, { traceIds: [traceId] }, paging(10), { addressBook: true, maxTransactions: MAX_TRACE_TRANSACTIONS, actions: expandActionTypes(['latest']) });
      const task = { kind: 'traces', key: 'traces', text: page.text, traces: page.traces, includeActions: true, actions: page.actions ?? null, testnet: false, metadata: old.metadata } as const;
      expect(assembleInline(task).toString()).toBe(reference);
      const dropLast = (text: string | Uint8Array | null) => {
        const rows = JSON.parse(String(text)) as unknown[];
        expect(rows.length).toBeGreaterThanOrEqual(1);
        return JSON.stringify(rows.slice(0, -1));
      };
      expect(assembleInline({ ...task, actions: dropLast(task.actions) }).toString()).not.toBe(reference);
      expect(assembleInline({ ...task, text: { ...task.text, txs: dropLast(task.text.txs) } }).toString()).not.toBe(reference);
      expect(assembleInline({ ...task, key: 'events' }).toString()).not.toBe(reference);
      const actionsPath = `/actions?trace_id=${traceId.toString('hex')}`;
      const actionsReference = JSON.stringify(await actionsResponse(context, actionsRequest(queryOf(actionsPath))));
      const actionsPage = await queryActionsText(reads, { txHashes: [], msgHashes: [], traceIds: [traceId], actionIds: [], types: [...expandActionTypes(['latest'])] }, paging(100), { accepted: expandActionTypes(['latest']), addressBook: true });
      const actionsTask = { kind: 'actions', rows: actionsPage.rows, codes: actionsPage.codes ?? null, includeAccounts: false, testnet: false, metadata: {} } as const;
      expect(assembleInline(actionsTask).toString()).toBe(actionsReference);
      expect(assembleInline({ ...actionsTask, rows: dropLast(actionsTask.rows) }).toString()).not.toBe(actionsReference);
      expect(assembleInline({ ...actionsTask, includeAccounts: true }).toString()).not.toBe(actionsReference);
      expect(assembleInline({ ...actionsTask, testnet: true }).toString()).not.toBe(actionsReference);
    }

    // Every request's answer was assembled in a thread (inline-below 0), and the pages were not
    // empty: the comparison saw the chain's transactions, the bounce among them.
    expect((await threadTasks('ok')) + (await threadTasks('ok', 'thread_read')) - threadedBefore - readBefore).toBeGreaterThanOrEqual(requests);
    expect(compared).toBeGreaterThan(80);

    // No adjacent transaction: the 404 of ton-index-go, as before.
    const none = await fetch(`${stack.url}/api/v3/adjacentTransactions?hash=${'00'.repeat(32)}`);
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ error: 'adjacent transactions not found' });

    // The pool's bounds, on the largest page of this chain.
    const { text, values } = buildTransactionsQuery({ endLt }, paging(1000));
    const strings = await transactionBundleText(reads, text, values, { addressBook: true });
    const expected = assembleInline({ kind: 'transactions', text: strings, testnet: false }).toString();
    // As the server's reads give them (V3Database.queryTextBytes): UTF-8 bytes over ArrayBuffers of
    // their own, which the pool moves to the thread (so each task gets its own copy here).
    const bytesOf = (value: string | Uint8Array | null | undefined) => (typeof value === 'string' ? new TextEncoder().encode(value) : (value ?? null));
    const freshTask = () => ({
      kind: 'transactions' as const,
      text: { txs: bytesOf(strings.txs), messages: bytesOf(strings.messages), states: bytesOf(strings.states), codes: bytesOf(strings.codes) },
      testnet: false,
    });
    const moved = freshTask();
    expect(moved.text.txs!.byteLength).toBeGreaterThan(10_000);
    expect(assembleInline(moved).toString()).toBe(expected);
    const pool = new AnswerPool({ threads: 1, queue: 1, inlineBelow: 0 });
    try {
      // One runs (or waits for the thread to start), one waits, the rest are refused at once.
      const settled = await Promise.allSettled(Array.from({ length: 6 }, () => pool.assemble(freshTask())));
      const answered = settled.filter((s) => s.status === 'fulfilled');
      const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
      expect(answered.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(4);
      for (const s of answered) expect(s.value.toString()).toBe(expected);
      for (const s of refused) {
        expect(s.reason).toBeInstanceOf(ApiError);
        expect([(s.reason as ApiError).kind, (s.reason as ApiError).message]).toEqual(['unavailable', 'all v3 answer threads are busy; try again later']);
      }
      // Moved, not copied: the caller's bytes are gone once the task is sent.
      const task = freshTask();
      const sentOff = pool.assemble(task);
      expect(task.text.txs!.byteLength).toBe(0);
      expect((await sentOff).toString()).toBe(expected);
    } finally {
      await pool.close();
    }
    // A thread that dies under its task (terminated while it parses a long page: the page's rows
    // 40 times): that request fails (500's kind), the next runs on a new thread. (Not by its heap
    // limit: V8 ends the whole process when JSON.parse passes a thread's limit, Node 20.)
    const dyingPool = new AnswerPool({ threads: 1, queue: 4, inlineBelow: 0 });
    try {
      expect((await dyingPool.assemble(freshTask())).toString()).toBe(expected);
      const threads = () => (dyingPool as unknown as { piscina: { threads: { terminate(): Promise<number> }[] } }).piscina.threads;
      const before = threads()[0]!;
      const failedBefore = await threadTasks('failed');
      const rows = (strings.txs as string).slice(1, -1);
      const long = { ...freshTask(), text: { ...freshTask().text, txs: new TextEncoder().encode(`[${Array.from({ length: 40 }, () => rows).join(',')}]`) } };
      const dying = dyingPool.assemble(long);
      await before.terminate();
      await expect(dying).rejects.toMatchObject({ kind: 'failed', message: 'v3 answer thread failed' });
      expect((await dyingPool.assemble(freshTask())).toString()).toBe(expected);
      expect(threads()).toHaveLength(1);
      expect(threads()[0]).not.toBe(before);
      expect((await threadTasks('failed')) - failedBefore).toBe(1);
    } finally {
      await dyingPool.close();
    }
    // A thread that reads the page itself fails as the event loop's read does: a database it cannot
    // reach is a 503's kind, the statement timeout a 504's, and the gate (the index's health) is asked first.
    if (db.url) {
      const queryTask = (statement: string) => ({ kind: 'transactionsQuery', statement, values: [], addressBook: false, testnet: false }) as const;
      const away = new AnswerPool({ threads: 1, queue: 4, inlineBelow: 0, databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
      const slow = new AnswerPool({ threads: 1, queue: 4, inlineBelow: 0, databaseUrl: db.url });
      let gateOpen = false;
      const gated = new AnswerPool({
        threads: 1, queue: 4, inlineBelow: 0, databaseUrl: db.url,
        gate: () => {
          if (!gateOpen) throw new ApiError('unavailable', 'the index is starting');
        },
      });
      try {
        await expect(away.queryAndAssemble!(queryTask('select 1'))).rejects.toMatchObject({ kind: 'unavailable', message: 'the index is not available' });
        await expect(slow.queryAndAssemble!(queryTask('select pg_sleep(10)::text as txs'))).rejects.toMatchObject({ kind: 'timeout', message: 'query timeout' });
        await expect(gated.queryAndAssemble!(queryTask('select 1'))).rejects.toMatchObject({ kind: 'unavailable', message: 'the index is starting' });
        gateOpen = true;
        // An empty page (no row's text) is the empty answer.
        expect((await gated.queryAndAssemble!(queryTask('select null::text as txs, null::text as messages, null::text as states'))).toString()).toBe('{"transactions":[],"address_book":{}}');
      } finally {
        await Promise.all([away.close(), slow.close(), gated.close()]);
      }
    }
    // An answer past --v3-answer-max is refused (422's kind, its text) before any work, by a pool
    // with threads as by one without; one at the bound is assembled.
    const size = freshTask().text.txs!.byteLength + freshTask().text.messages!.byteLength + freshTask().text.states!.byteLength + freshTask().text.codes!.byteLength;
    for (const threads of [0, 1]) {
      const bounded = new AnswerPool({ threads, queue: 4, inlineBelow: 0, maxTaskBytes: size - 1 });
      const atBound = new AnswerPool({ threads, queue: 4, inlineBelow: 0, maxTaskBytes: size });
      try {
        const refusedBefore = await v3AnswerTasks.get();
        const tooLarge = refusedBefore.values.find((v) => v.labels['outcome'] === 'too_large')?.value ?? 0;
        const refusal = bounded.assemble(freshTask());
        await expect(refusal).rejects.toBeInstanceOf(ApiError);
        await expect(refusal).rejects.toMatchObject({ kind: 'badInput', message: expect.stringMatching(/^answer too large: \d+(\.\d MB| KB) of rows, at most \d+(\.\d MB| KB); ask for fewer rows \(a lower limit\)$/) });
        expect((await v3AnswerTasks.get()).values.find((v) => v.labels['outcome'] === 'too_large')!.value).toBe(tooLarge + 1);
        expect((await atBound.assemble(freshTask())).toString()).toBe(expected);
      } finally {
        await bounded.close();
        await atBound.close();
      }
    }
  });

  it('an answer past --v3-answer-max is a 422 with its text, over HTTP (a second instance reading the same PostgreSQL)', async () => {
    // PGlite is the first instance's own: only a server database has a second reader.
    if (!db.url) return;
    const { config } = loadConfig(['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--index', 'on', '--database-url', db.url, '--v3-answer-max', '2kb'], {});
    const globalConfig = stack.localnet.globalConfig;
    const servers = parseGlobalConfig(globalConfig, 'local chain').map((server) => ({ ...server, archival: true }));
    const reader = await startServer(config, pino({ level: 'silent' }), { servers, anchor: trustAnchorOf(globalConfig, 'local chain', undefined), saveKeyBlock: false, stop: () => Promise.resolve() });
    try {
      await until(async () => (await fetch(`${reader.url}/api/v3/masterchainInfo`)).status === 200, 60_000, 'the reader serves v3');
      const large = await fetch(`${reader.url}/api/v3/transactions?limit=1000`);
      expect(large.status).toBe(422);
      expect(await large.json()).toEqual({ error: expect.stringMatching(/^answer too large: \d+(\.\d MB| KB) of rows, at most 2 KB; ask for fewer rows \(a lower limit\)$/) });
      // A page under the bound is answered as by the first instance.
      const one = await fetch(`${reader.url}/api/v3/blocks?limit=1`);
      expect(one.status).toBe(200);
    } finally {
      await reader.stop();
    }
  });
});
