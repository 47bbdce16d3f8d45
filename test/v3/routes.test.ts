import { Address } from '@ton/core';
import pino from 'pino';
import request from 'supertest';
import { ResponseCache } from '../../src/cache/responseCache';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createV3Database, type IndexHead, type IndexHeadSource, type WarmKey } from '../../src/v3';
import {
  CONTRACT,
  createIndexDatabase,
  hashOf,
  MC_SHARD,
  EXT,
  M1,
  M2,
  RICH,
  BIG_TRACE,
  seedChain,
  TX1,
  TX2,
  TX3,
  WALLET,
  type IndexDatabase,
} from './indexFixture';
import { loadV3Spec, V3_SPEC_PRESENT, V3_SPEC_PATH, type V3SpecValidator } from './v3Spec';

/**
 * Every indexed v3 route over a real PostgreSQL database with the index's schema and rows the
 * test writes itself (the pipeline that fills them lands with the index issue); answers checked
 * value by value and against toncenter's 1.2.6 description (differences named in ./v3Spec.ts).
 */

let db: IndexDatabase;
let reads: ReturnType<typeof createV3Database>;
let test_: TestApp;
let spec: V3SpecValidator | undefined;

beforeAll(async () => {
  db = await createIndexDatabase();
  await seedChain(db.client);
  reads = createV3Database(db.url);
  test_ = buildTestApp(['--keyless-rps', '0'], { indexReads: reads });
  if (V3_SPEC_PRESENT) spec = loadV3Spec();
  else console.warn(`v3 spec checks skipped: ${V3_SPEC_PATH} is absent`);
}, 30_000);

afterAll(async () => {
  await reads?.end();
  await db?.drop();
});

type Json = Record<string, unknown>;

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json & unknown[]; headers: Record<string, string> }> {
  const res = await request(test_.app).get(`/api/v3${path}`).set(headers);
  return { status: res.status, body: res.body as Json & unknown[], headers: res.headers as Record<string, string> };
}

/** A 200 answer, validated against the spec of its route. */
async function ok(path: string, headers: Record<string, string> = {}): Promise<Json & unknown[]> {
  const res = await get(path, headers);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  const route = path.split('?')[0]!;
  const errors = spec?.check(route, res.body);
  if (errors) throw new Error(`${path} does not match the spec: ${JSON.stringify(errors.slice(0, 3))}`);
  return res.body;
}

const b64 = (b: Buffer) => b.toString('base64');
const hashesOf = (body: Json) => (body['transactions'] as Json[]).map((t) => t['hash']);

describe('blocks', () => {
  test('masterchainInfo: newest and oldest indexed mc blocks, ton-index-go encodings', async () => {
    const body = await ok('/masterchainInfo');
    const last = body['last'] as Json;
    expect(last).toMatchObject({ workchain: -1, shard: '8000000000000000', seqno: 2, gen_utime: '1005', start_lt: '2000000', end_lt: '2000010' });
    expect(last['prev_blocks']).toEqual([{ workchain: -1, shard: '8000000000000000', seqno: 1 }]);
    expect(last['masterchain_block_ref']).toEqual({ workchain: -1, shard: '8000000000000000', seqno: 2 });
    expect((body['first'] as Json)['seqno']).toBe(1);
    // The hashes as the fixture wrote them, base64 (PostgreSQL's encode, sql/blocks.ts).
    expect(last['root_hash']).toBe(hashOf(`root -1:${MC_SHARD}:2`).toString('base64'));
    expect(last['rand_seed']).toBe(hashOf('seed 2').toString('base64'));
    expect(last['created_by']).toBe(hashOf('validator').toString('base64'));
  });

  test('an answer is written as res.json writes it, without an ETag (ton-index-go sends none)', async () => {
    const res = await request(test_.app).get(`/api/v3/transactions?account=${WALLET}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['etag']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.text).toBe(JSON.stringify(res.body));
    expect((res.body as Json)['transactions']).toHaveLength(2);
  });

  test('blocks: filters, sort and paging', async () => {
    const all = await ok('/blocks?sort=asc');
    expect((all['blocks'] as Json[]).map((b) => b['gen_utime'])).toEqual(['999', '999', '1000', '1004', '1004', '1005']);
    const shard = await ok('/blocks?workchain=0&shard=C000000000000000&sort=desc');
    expect((shard['blocks'] as Json[]).map((b) => [b['shard'], b['seqno']])).toEqual([['C000000000000000', 2], ['C000000000000000', 1]]);
    // Signed decimal is the same shard.
    const decimal = await ok('/blocks?workchain=0&shard=-4611686018427387904');
    expect(decimal['blocks']).toHaveLength(2);
    const ranged = await ok('/blocks?start_utime=1000&end_utime=1004&sort=asc');
    expect((ranged['blocks'] as Json[]).map((b) => b['gen_utime'])).toEqual(['1000', '1004', '1004']);
    const paged = await ok('/blocks?limit=2&offset=1&sort=asc');
    expect((paged['blocks'] as Json[]).map((b) => b['gen_utime'])).toEqual(['999', '1000']);
    const byMc = await ok('/blocks?mc_seqno=2&workchain=0');
    expect(byMc['blocks']).toHaveLength(2);
    const mc1 = ((await ok('/blocks?workchain=-1&seqno=1'))['blocks'] as Json[])[0]!;
    const byHash = await ok(`/blocks?root_hash=${encodeURIComponent(mc1['root_hash'] as string)}`);
    expect((byHash['blocks'] as Json[]).map((b) => b['seqno'])).toEqual([1]);
    const hex = Buffer.from(mc1['file_hash'] as string, 'base64').toString('hex');
    expect(((await ok(`/blocks?file_hash=0x${hex}`))['blocks'] as Json[])[0]!['seqno']).toBe(1);
  });

  test('masterchainBlockShardState and masterchainBlockShards; 404 blocks not found', async () => {
    const state = await ok('/masterchainBlockShardState?seqno=2');
    expect((state['blocks'] as Json[]).map((b) => [b['shard'], b['seqno']])).toEqual([
      ['C000000000000000', 2],
      ['4000000000000000', 2],
    ]);
    expect(await get('/masterchainBlockShardState?seqno=99')).toMatchObject({ status: 404, body: { error: 'blocks not found' } });
    const shards = await ok('/masterchainBlockShards?seqno=1');
    expect((shards['blocks'] as Json[]).length).toBe(3);
    expect(await get('/masterchainBlockShards?seqno=99')).toMatchObject({ status: 404, body: { error: 'blocks not found' } });
  });
});

describe('transactions', () => {
  test('one account: account, lt desc; messages, states, block_ref, finality, address_book', async () => {
    const body = await ok(`/transactions?account=${WALLET}`);
    expect(hashesOf(body)).toEqual([b64(TX3.hash), b64(TX1.hash)]);
    const tx1 = (body['transactions'] as Json[])[1]!;
    expect(tx1).toMatchObject({
      account: WALLET,
      lt: TX1.lt,
      now: TX1.now,
      mc_block_seqno: 1,
      trace_id: b64(TX1.hash),
      total_fees: '1234567',
      block_ref: { workchain: 0, shard: '4000000000000000', seqno: 1 },
      emulated: false,
      finality: 'finalized',
    });
    const inMsg = tx1['in_msg'] as Json;
    expect(inMsg).toMatchObject({ hash: b64(EXT.hash), source: null, destination: WALLET, opcode: '0xdeadbeef', hash_norm: b64(EXT.norm) });
    expect(inMsg['message_content']).toEqual({ hash: b64(EXT.body.hash()), body: EXT.body.toBoc().toString('base64'), decoded: null });
    const out = (tx1['out_msgs'] as Json[])[0]!;
    expect(out).toMatchObject({ hash: b64(M1.hash), source: WALLET, destination: CONTRACT, value: '1000', created_lt: '1000002', created_at: '999', opcode: '0x00000000', bounce: true });
    expect(out['hash_norm']).toBeUndefined();
    expect(tx1['account_state_after']).toMatchObject({ balance: '4990000000', account_status: 'active' });
    const descr = tx1['description'] as Json;
    // gas fees above gas used: kept as stored
    expect(descr['compute_ph']).toMatchObject({ success: true, gas_fees: '1000000', gas_used: '2000', vm_steps: 50, exit_code: 0 });
    expect(descr['action']).toMatchObject({ success: true, tot_msg_size: { cells: '1', bits: '700' } });
    const book = body['address_book'] as Record<string, Json>;
    expect(Object.keys(book).sort()).toEqual([CONTRACT, WALLET].sort());
    expect(book[WALLET]!['user_friendly']).toMatch(/^UQ/); // wallet code: non-bounceable
    expect(book[CONTRACT]!['user_friendly']).toMatch(/^EQ/);
  });

  test('the same account in friendly form; sort asc; ranges inclusive; X-No-Address-Book', async () => {
    const friendly = ((await ok(`/transactions?account=${WALLET}`))['address_book'] as Record<string, Json>)[WALLET]!['user_friendly'] as string;
    const asc = await ok(`/transactions?account=${friendly}&sort=asc`);
    expect(hashesOf(asc)).toEqual([b64(TX1.hash), b64(TX3.hash)]);
    const lt = await ok(`/transactions?start_lt=${TX1.lt}&end_lt=${TX2.lt}`);
    expect(hashesOf(lt)).toEqual([b64(TX2.hash), b64(TX1.hash)]);
    const time = await ok(`/transactions?start_utime=1004&end_utime=1004&sort=asc`);
    expect(hashesOf(time)).toEqual([b64(TX2.hash), b64(TX3.hash)]);
    expect((await ok(`/transactions?account=${WALLET}`, { 'X-No-Address-Book': 'true' }))['address_book']).toEqual({});
    expect((await ok(`/transactions?account=${WALLET}&x_no_address_book=1`))['address_book']).toEqual({});
  });

  test('several accounts, exclude_account, hash, lt, block, mc block', async () => {
    expect(hashesOf(await ok(`/transactions?account=${WALLET}&account=${CONTRACT}`))).toEqual([b64(TX3.hash), b64(TX2.hash), b64(TX1.hash)]);
    expect(hashesOf(await ok(`/transactions?account=${WALLET},${CONTRACT}&exclude_account=${WALLET}`))).toEqual([b64(TX2.hash)]);
    expect(hashesOf(await ok(`/transactions?hash=${TX2.hash.toString('hex')}`))).toEqual([b64(TX2.hash)]);
    expect(hashesOf(await ok(`/transactions?lt=${TX3.lt}`))).toEqual([b64(TX3.hash)]);
    expect(hashesOf(await ok(`/transactions?workchain=0&shard=8000000000000000`))).toEqual([]);
    expect(hashesOf(await ok(`/transactions?workchain=0&shard=4000000000000000&seqno=2`))).toEqual([b64(TX3.hash)]);
    expect(hashesOf(await ok(`/transactions?mc_seqno=2&sort=asc`))).toEqual([b64(TX2.hash), b64(TX3.hash)]);
  });

  test('transactionsByMasterchainBlock; 404 for an unknown mc block', async () => {
    expect(hashesOf(await ok('/transactionsByMasterchainBlock?seqno=2'))).toEqual([b64(TX3.hash), b64(TX2.hash)]);
    expect(await get('/transactionsByMasterchainBlock?seqno=77')).toMatchObject({ status: 404, body: { error: 'masterchain block 77 not found' } });
  });

  test('transactionsByMessage: by hash (both ends), normalized hash, direction, body hash, opcode', async () => {
    expect(hashesOf(await ok(`/transactionsByMessage?msg_hash=${encodeURIComponent(b64(M1.hash))}`))).toEqual([b64(TX2.hash), b64(TX1.hash)]);
    expect(hashesOf(await ok(`/transactionsByMessage?msg_hash=${M1.hash.toString('hex')}&direction=in`))).toEqual([b64(TX2.hash)]);
    expect(hashesOf(await ok(`/transactionsByMessage?msg_hash=${EXT.norm.toString('hex')}`))).toEqual([b64(TX1.hash)]);
    expect(hashesOf(await ok(`/transactionsByMessage?body_hash=${M1.body.hash().toString('hex')}&direction=out`))).toEqual([b64(TX1.hash)]);
    // An opcode matches inbound messages only.
    expect(hashesOf(await ok('/transactionsByMessage?opcode=0xffffffff'))).toEqual([b64(TX3.hash)]);
    expect(hashesOf(await ok('/transactionsByMessage?opcode=-1'))).toEqual([b64(TX3.hash)]);
  });

  test('adjacentTransactions: both ends of the messages; direction; 404', async () => {
    expect(hashesOf(await ok(`/adjacentTransactions?hash=${TX2.hash.toString('hex')}`))).toEqual([b64(TX1.hash), b64(TX3.hash)]);
    expect(hashesOf(await ok(`/adjacentTransactions?hash=${TX2.hash.toString('hex')}&direction=in`))).toEqual([b64(TX1.hash)]);
    expect(hashesOf(await ok(`/adjacentTransactions?hash=${TX2.hash.toString('hex')}&direction=out`))).toEqual([b64(TX3.hash)]);
    expect(await get(`/adjacentTransactions?hash=${'00'.repeat(32)}`)).toMatchObject({ status: 404, body: { error: 'adjacent transactions not found' } });
  });
});

describe('messages', () => {
  test('one row per message with both transactions; filters; null source; metadata', async () => {
    const all = await ok('/messages?sort=asc');
    const rows = all['messages'] as Json[];
    // The external in (created_lt null) comes last ascending: PostgreSQL's NULLS LAST, as ton-index-go's query.
    expect(rows.map((m) => m['hash'])).toEqual([b64(M1.hash), b64(M2.hash), b64(EXT.hash)]);
    expect(rows[0]).toMatchObject({ in_msg_tx_hash: b64(TX2.hash), out_msg_tx_hash: b64(TX1.hash) });
    expect(all['metadata']).toEqual({});
    expect(((await ok(`/messages?source=null`))['messages'] as Json[]).map((m) => m['hash'])).toEqual([b64(EXT.hash)]);
    expect(((await ok(`/messages?destination=${CONTRACT}`))['messages'] as Json[]).map((m) => m['hash'])).toEqual([b64(M1.hash)]);
    expect(((await ok(`/messages?msg_hash=${M2.hash.toString('hex')}`))['messages'] as Json[])).toHaveLength(1);
    expect(((await ok(`/messages?hash=${M2.hash.toString('hex')}`))['messages'] as Json[])).toHaveLength(1);
    expect(((await ok(`/messages?opcode=0`))['messages'] as Json[]).map((m) => m['hash'])).toEqual([b64(M1.hash)]);
    expect(((await ok(`/messages?exclude_externals=true`))['messages'] as Json[])).toHaveLength(2);
    expect(((await ok(`/messages?only_externals=true`))['messages'] as Json[])).toHaveLength(1);
    expect(((await ok(`/messages?start_utime=1000`))['messages'] as Json[]).map((m) => m['hash'])).toEqual([b64(M2.hash)]);
  });
});

describe('accounts', () => {
  test('accountStates: latest state, BoCs unless include_boc=false; 422 without an address', async () => {
    const body = await ok(`/accountStates?address=${WALLET}&address=${CONTRACT}`);
    const accounts = body['accounts'] as Json[];
    expect(accounts.map((a) => a['address']).sort()).toEqual([WALLET, CONTRACT].sort());
    const wallet = accounts.find((a) => a['address'] === WALLET)!;
    expect(wallet).toMatchObject({ balance: '4990000000', status: 'active', last_transaction_lt: TX3.lt, last_transaction_hash: b64(TX3.hash) });
    expect(typeof wallet['data_boc']).toBe('string');
    const noBoc = (await ok(`/accountStates?address=${WALLET}&include_boc=false`))['accounts'] as Json[];
    expect(noBoc[0]!['data_boc']).toBeUndefined();
    expect(await get('/accountStates')).toMatchObject({ status: 422, body: { error: 'address of account is required' } });
  });

  test('walletStates: wallet type, seqno and id from the data; a contract is not a wallet', async () => {
    const wallets = (await ok(`/walletStates?address=${WALLET}&address=${CONTRACT}`))['wallets'] as Json[];
    expect(wallets.find((w) => w['address'] === WALLET)).toMatchObject({ is_wallet: true, wallet_type: 'wallet v4 r2', seqno: 7, wallet_id: 698983191, balance: '4990000000' });
    expect(wallets.find((w) => w['address'] === CONTRACT)).toMatchObject({ is_wallet: false });
  });

  test('addressBook: keyed as given; interfaces by code hash; an unreadable address gets addr_none', async () => {
    // An account the index holds without code (uninit): ton-index-go's nil interfaces slice, null.
    const uninit = `0:${'DD'.repeat(32)}`;
    await db.client.query(
      "insert into latest_account_states (account, hash, balance, account_status, code_hash) values ($1, $2, 5, 'uninit', null)",
      [uninit, Buffer.alloc(32, 0xdd)],
    );
    try {
      const unseen = `0:${'EE'.repeat(32)}`;
      const book = await ok(`/addressBook?address=${WALLET}&address=${CONTRACT}&address=${uninit}&address=${unseen}&address=nonsense`);
      const friendly = (raw: string, bounceable: boolean) => Address.parseRaw(raw).toString({ urlSafe: true, bounceable });
      expect(book[WALLET]).toEqual({ user_friendly: friendly(WALLET, false), domain: null, interfaces: ['wallet_v4r2'] });
      expect(book[CONTRACT]).toEqual({ user_friendly: friendly(CONTRACT, true), domain: null, interfaces: [] });
      expect(book[uninit]).toEqual({ user_friendly: friendly(uninit, false), domain: null, interfaces: null });
      // Never seen by the index: the code-less form, no interfaces.
      expect(book[unseen]).toEqual({ user_friendly: friendly(unseen, false), domain: null, interfaces: [] });
      expect(book['nonsense']).toEqual({ user_friendly: 'addr_none', domain: null, interfaces: [] });
      // Keyed as given: the friendly form of the wallet is its own key.
      expect(Object.keys(await ok(`/addressBook?address=${friendly(WALLET, false)}`))).toEqual([friendly(WALLET, false)]);
    } finally {
      await db.client.query('delete from latest_account_states where account = $1', [uninit]);
    }
    expect(await get('/addressBook')).toMatchObject({ status: 422, body: { error: 'at least 1 address required' } });
  });

  test('accountStates interfaces: MarkAccountStates by code hash; contract_methods null', async () => {
    const accounts = (await ok(`/accountStates?address=${WALLET}&address=${CONTRACT}`))['accounts'] as Json[];
    expect(accounts.find((a) => a['address'] === WALLET)).toMatchObject({ interfaces: ['wallet_v4r2'], contract_methods: null });
    expect(accounts.find((a) => a['address'] === CONTRACT)).toMatchObject({ interfaces: [], contract_methods: null });
  });

  test('X-No-Address-Book / X-No-Metadata and their query forms on every route that carries them', async () => {
    const routes = [
      `/transactions?account=${WALLET}`,
      '/messages?sort=asc',
      `/accountStates?address=${WALLET}`,
      `/walletStates?address=${WALLET}`,
      `/traces?tx_hash=${TX1.hash.toString('hex')}`,
      `/events?tx_hash=${TX1.hash.toString('hex')}`,
    ];
    for (const route of routes) {
      const join = route.includes('?') ? '&' : '?';
      const plain = await get(route);
      expect(plain.status).toBe(200);
      expect(Object.keys(plain.body['address_book'] as Json)).toContain(WALLET);
      // Nothing the index holds is token metadata (no jetton/NFT tables): ton-index-go's answer for such addresses.
      if ('metadata' in plain.body) expect(plain.body['metadata']).toEqual({});
      for (const [headers, query] of [
        [{ 'X-No-Address-Book': 'true' }, ''],
        [{ 'x-no-address-book': '1' }, ''],
        [{}, `${join}x_no_address_book=true`],
        [{}, `${join}x_no_address_book=T`],
      ] as const) {
        const answer = await get(`${route}${query}`, headers);
        expect([route, query, answer.body['address_book']]).toEqual([route, query, {}]);
      }
      // A false or unreadable value leaves the book in (Go's ParseBool; an unreadable one is ignored).
      for (const headers of [{ 'X-No-Address-Book': 'false' }, { 'X-No-Address-Book': 'maybe' }]) {
        expect(Object.keys((await get(route, headers)).body['address_book'] as Json)).toContain(WALLET);
      }
      for (const [headers, query] of [
        [{ 'X-No-Metadata': 'true' }, ''],
        [{}, `${join}x_no_metadata=1`],
      ] as const) {
        const answer = await get(`${route}${query}`, headers);
        expect(answer.status).toBe(200);
        if ('metadata' in plain.body) expect(answer.body['metadata']).toEqual({});
        // X-No-Metadata leaves the address book alone.
        expect(Object.keys(answer.body['address_book'] as Json)).toContain(WALLET);
      }
    }
  });

  test('topAccountsByBalance: balance descending, paged', async () => {
    expect(await ok('/topAccountsByBalance')).toEqual([
      { account: RICH, balance: '9000000000000' },
      { account: WALLET, balance: '4990000000' },
      { account: CONTRACT, balance: '999' },
    ]);
    expect(await ok('/topAccountsByBalance?limit=1&offset=1')).toEqual([{ account: WALLET, balance: '4990000000' }]);
  });
});

describe('traces', () => {
  test('by transaction: the tree across shards and mc blocks, transactions_order, transactions, trace_info', async () => {
    const body = await ok(`/traces?tx_hash=${TX2.hash.toString('hex')}`);
    const [trace] = body['traces'] as Json[];
    expect(trace).toMatchObject({
      trace_id: b64(TX1.hash),
      external_hash: b64(EXT.hash),
      mc_seqno_start: '1',
      mc_seqno_end: '2',
      start_lt: TX1.lt,
      end_lt: TX3.lt,
      is_incomplete: false,
      trace_info: { trace_state: 'complete', messages: 3, transactions: 3, pending_messages: 0 },
    });
    expect(trace!['transactions_order']).toEqual([b64(TX1.hash), b64(TX2.hash), b64(TX3.hash)]);
    expect(trace!['trace']).toEqual({
      tx_hash: b64(TX1.hash),
      in_msg_hash: b64(EXT.hash),
      children: [
        {
          tx_hash: b64(TX2.hash),
          in_msg_hash: b64(M1.hash),
          children: [{ tx_hash: b64(TX3.hash), in_msg_hash: b64(M2.hash), children: [] }],
        },
      ],
    });
    expect(Object.keys(trace!['transactions'] as Json).sort()).toEqual([b64(TX1.hash), b64(TX2.hash), b64(TX3.hash)].sort());
    expect(trace!['actions']).toBeUndefined();
    expect(Object.keys(body['address_book'] as Json).sort()).toEqual([CONTRACT, WALLET].sort());
  });

  test('by account, message (and normalized hash), trace id, mc block; the newest first without a filter', async () => {
    const ids = (body: Json) => (body['traces'] as Json[]).map((t) => t['trace_id']);
    expect(ids(await ok(`/traces?account=${CONTRACT}`))).toEqual([b64(TX1.hash)]);
    expect(ids(await ok(`/traces?msg_hash=${M2.hash.toString('hex')}`))).toEqual([b64(TX1.hash)]);
    expect(ids(await ok(`/traces?msg_hash=${EXT.norm.toString('hex')}`))).toEqual([b64(TX1.hash)]);
    expect(ids(await ok(`/traces?trace_id=${TX1.hash.toString('hex')}`))).toEqual([b64(TX1.hash)]);
    expect(ids(await ok('/traces?mc_seqno=2'))).toEqual([b64(TX1.hash)]);
    expect(ids(await ok('/traces'))).toEqual([b64(TX1.hash), b64(BIG_TRACE)]);
    expect(await get('/traces?mc_seqno=55')).toMatchObject({ status: 404, body: { error: 'masterchain block 55 not found' } });
  });

  test('a trace above 4 000 transactions: is_incomplete, warning, no transactions', async () => {
    const [big] = (await ok(`/traces?trace_id=${BIG_TRACE.toString('hex')}`))['traces'] as Json[];
    expect(big).toMatchObject({ is_incomplete: true, warning: 'trace is too large' });
    expect(big!['transactions']).toBeUndefined();
  });

  test('events: actions included (empty until the action layer), under `events`', async () => {
    const body = await get(`/events?tx_hash=${TX1.hash.toString('hex')}`);
    expect(body.status).toBe(200);
    expect(((body.body['events'] as Json[])[0]!)['actions']).toEqual([]);
    expect(((await ok(`/traces?trace_id=${TX1.hash.toString('hex')}&include_actions=true`))['traces'] as Json[])[0]!['actions']).toEqual([]);
  });

  test('only one selector', async () => {
    expect(await get(`/traces?account=${WALLET}&tx_hash=${TX1.hash.toString('hex')}`)).toMatchObject({
      status: 422,
      body: { error: 'only one of account, trace_id, tx_hash, msg_hash should be specified' },
    });
  });
});

describe('pending routes: validations, then nothing pending (no message was sent through this app)', () => {
  test('pendingTransactions / pendingTraces / pendingActions', async () => {
    // ton-index-go: no pending transaction on the accounts is a 404.
    expect(await get(`/pendingTransactions?account=${WALLET}`)).toMatchObject({ status: 404, body: { error: 'emulated traces not found' } });
    expect(await get('/pendingTransactions')).toMatchObject({ status: 422, body: { error: 'at least 1 account address required' } });
    expect(await ok(`/pendingTraces?account=${WALLET}`)).toEqual({ traces: [], address_book: {}, metadata: {} });
    expect(await get('/pendingTraces')).toMatchObject({ status: 422, body: { error: 'account or ext_msg_hash should be specified' } });
    expect(await ok(`/pendingActions?ext_msg_hash=${EXT.hash.toString('hex')}`)).toEqual({ actions: [], address_book: {}, metadata: {} });
    expect(await get('/pendingActions')).toMatchObject({ status: 422, body: { error: 'account or ext_msg_hash should be specified' } });
  });
});

describe('errors and headers', () => {
  test.each([
    ['/transactions?limit=1001', 'limit is not allowed: 1001 > 1000'],
    ['/blocks?sort=sideways', 'wrong value for sort parameter'],
    ['/messages?limit=5000', 'limit is not allowed: 5000 > 1000'],
    ['/transactions?account=bad', 'schema: error converting value for index 0 of "account"'],
    ['/transactions?lt=-1', 'schema: error converting value for "lt"'],
    ['/blocks?shard=zz', 'schema: error converting value for "shard"'],
    ['/messages?direction=both', 'direction should be one of: in, out'],
    ['/transactionsByMessage', 'at least one of msg_hash, body_hash, opcode should be specified'],
    ['/transactionsByMessage?opcode=0xZZ', 'schema: error converting value for "opcode"'],
    ['/transactions?offset=10001', 'offset is not allowed: 10001 > 10000'],
  ])('%s: 422 %s, body {"error"} alone', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: message });
  });

  test('X-API-Version is ton-index-go\'s; a POST is 405', async () => {
    expect((await get('/masterchainInfo')).headers['x-api-version']).toBe('1.2.6');
    const post = await request(test_.app).post('/api/v3/transactions').send({});
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ error: 'Method Not Allowed' });
  });

  test('Swagger UI at /api/v3/ with the one OpenAPI document, v3 routes in it', async () => {
    const page = await request(test_.app).get('/api/v3/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('docs/swagger-ui-bundle.js');
    const doc = await request(test_.app).get('/api/v3/openapi.json');
    const paths = Object.keys((doc.body as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v3/transactions', '/api/v3/traces', '/api/v3/masterchainInfo', '/api/v2/getMasterchainInfo']));
  });

  test('answers pinned to an indexed mc block are cached by its root hash; others are not', async () => {
    const cached = buildTestApp(['--keyless-rps', '0'], { indexReads: reads, cache: new ResponseCache({ maxBytes: 1 << 20, logger: pino({ level: 'silent' }) }) });
    const first = await request(cached.app).get('/api/v3/masterchainBlockShardState?seqno=2');
    const second = await request(cached.app).get('/api/v3/masterchainBlockShardState?seqno=2');
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['miss', 'hit']);
    expect(second.body).toEqual(first.body);
    const noBook = { 'X-No-Address-Book': '1' };
    await request(cached.app).get('/api/v3/transactionsByMasterchainBlock?seqno=2').set(noBook);
    expect((await request(cached.app).get('/api/v3/transactionsByMasterchainBlock?seqno=2').set(noBook)).headers['x-cache']).toBe('hit');
    // With the address book (latest code of the accounts), an unknown block, or no pin: never cached.
    expect((await request(cached.app).get('/api/v3/transactionsByMasterchainBlock?seqno=2')).headers['x-cache']).toBeUndefined();
    expect((await request(cached.app).get('/api/v3/masterchainBlockShardState?seqno=9')).status).toBe(404);
    expect((await request(cached.app).get('/api/v3/masterchainBlockShardState?seqno=9')).headers['x-cache']).toBeUndefined();
    expect((await request(cached.app).get(`/api/v3/transactions?account=${WALLET}`)).headers['x-cache']).toBeUndefined();
  });

  /** An app whose v3 answers are cached at the head `source` gives (answers over 4 000 bytes not kept), and `at(path)` that asks it. */
  const headCachedApp = (source: IndexHeadSource) => {
    const cached = buildTestApp(['--keyless-rps', '0'], {
      indexReads: reads,
      cache: new ResponseCache({ maxBytes: 1 << 20, logger: pino({ level: 'silent' }) }),
      v3Head: { source, maxAnswerBytes: 4_000 },
    });
    const at = async (path: string) => {
      const res = await request(cached.app).get(`/api/v3${path}`);
      return { cache: res.headers['x-cache'] as string | undefined, text: res.text, status: res.status };
    };
    return { app: cached.app, at };
  };

  test('answers cached at the index head: keyed by the head, not kept when off-chain documents or the size say so; pending routes never', async () => {
    let head: IndexHead | undefined = { mcSeqno: 2, rootHash: hashOf('head 2'), token: '2:a' };
    const { app, at } = headCachedApp({ current: () => head });
    const history = `/transactions?account=${WALLET}&limit=1`;
    const [first, second] = [await at(history), await at(history)];
    expect([first.status, first.cache, second.cache]).toEqual([200, 'miss', 'hit']);
    expect(second.text).toBe(first.text);
    // Another setting is another key.
    expect((await request(app).get(`/api/v3${history}`).set('X-No-Address-Book', '1')).headers['x-cache']).toBe('miss');
    // A new head (the next commit): the same request is computed again.
    head = { mcSeqno: 3, rootHash: hashOf('head 3'), token: '3:b' };
    expect((await at(history)).cache).toBe('miss');
    expect((await at(history)).cache).toBe('hit');
    // The head unknown (database away, a commit just reported): answered, not looked up.
    head = undefined;
    expect(await at(history)).toMatchObject({ status: 200, cache: undefined });
    head = { mcSeqno: 3, rootHash: hashOf('head 3'), token: '3:b' };
    // Larger than the bound: served, not kept.
    const big = await at(`/transactions?account=${WALLET}&limit=10`);
    expect(big.text.length).toBeGreaterThan(4_000);
    expect([big.cache, (await at(`/transactions?account=${WALLET}&limit=10`)).cache]).toEqual([undefined, undefined]);
    // Pending traces are this server's memory, not the index: never cached.
    expect((await at(`/pendingTraces?account=${WALLET}`)).cache).toBeUndefined();
    expect((await at(`/pendingTraces?account=${WALLET}`)).cache).toBeUndefined();
    // A jetton whose content names an off-chain document: its metadata reads metadata_cache,
    // which the fetcher writes with no commit, so the answer is not kept.
    const jetton = `0:${'DD'.repeat(32)}`;
    await db.client.query('insert into jetton_masters (address, jetton_content) values ($1, $2::jsonb)', [jetton, JSON.stringify({ uri: 'https://example.invalid/jetton.json' })]);
    try {
      expect([(await at(`/metadata?address=${jetton}`)).cache, (await at(`/metadata?address=${jetton}`)).cache]).toEqual([undefined, undefined]);
      // On-chain content only: kept.
      await db.client.query('update jetton_masters set jetton_content = $2::jsonb where address = $1', [jetton, JSON.stringify({ name: 'On chain' })]);
      expect([(await at(`/metadata?address=${jetton}&x=1`)).cache, (await at(`/metadata?address=${jetton}&x=1`)).cache]).toEqual(['miss', 'hit']);
    } finally {
      await db.client.query('delete from jetton_masters where address = $1', [jetton]);
    }
  });

  test('while a newer head warms (--v3-head-warm): the published head\'s entries answer, other keys are kept under the newer head, read keys are handed over for warming', async () => {
    const head2: IndexHead = { mcSeqno: 2, rootHash: hashOf('head 2'), token: '2:w' };
    const head3: IndexHead = { mcSeqno: 3, rootHash: hashOf('head 3'), token: '3:w' };
    let published: IndexHead = head2;
    let newer: IndexHead | undefined;
    const read = new Map<string, WarmKey>();
    const { at } = headCachedApp({ current: () => published, warming: () => newer, readAt: (id: string, warm: WarmKey) => read.set(id, warm) });
    const history = `/transactions?account=${WALLET}&limit=1`;
    const other = '/masterchainInfo';
    const big = `/transactions?account=${WALLET}&limit=10`;
    const kept = await at(history);
    expect(kept.cache).toBe('miss');
    await at(big);
    // Read keys are handed over; an answer not kept is not.
    expect([...read.keys()]).toHaveLength(1);
    newer = head3;
    // The published head's entry answers (no computation); a key it does not hold is kept under the newer head.
    expect(await at(history)).toMatchObject({ cache: 'hit', text: kept.text });
    expect((await at(other)).cache).toBe('miss');
    expect((await at(big)).cache).toBeUndefined();
    expect(read.size).toBe(2);
    // Warming computes under the head it is given; the next head then finds both.
    for (const warm of read.values()) expect(await warm(head3)).toBe(true);
    published = head3;
    newer = undefined;
    expect((await at(history)).cache).toBe('hit');
    expect((await at(other)).cache).toBe('hit');
  });

  test('without the index: validation first, then 503', async () => {
    const bare = buildTestApp(['--keyless-rps', '0']);
    expect((await request(bare.app).get('/api/v3/transactions?limit=2000')).status).toBe(422);
    const res = await request(bare.app).get('/api/v3/transactions');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'the index is not available' });
  });
});
