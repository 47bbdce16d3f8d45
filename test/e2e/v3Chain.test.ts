import { Address, internal, toNano, WalletContractV4 } from '@ton/ton';
import pg from 'pg';
import { callV2, signedWalletTransfer } from '../helpers/v2Calls';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { v3Caller } from '../helpers/v3Calls';
import { until } from '../helpers/waiting';
import { loadV3DocsSpec, loadV3Spec, V3_DOCS_SPEC_PATH, V3_DOCS_SPEC_PRESENT, V3_SPEC_PATH, V3_SPEC_PRESENT, type V3SpecValidator } from '../v3/v3Spec';

jest.setTimeout(240_000);

type Json = Record<string, unknown>;

/**
 * Every indexed v3 route on the embedded chain, filled by the real index pipeline, with the chain
 * delivering messages between shards two blocks later (`--cross-shard-delay 2`, as a busy network
 * does): one external message makes a transfer to the other shard, a bounce within the sender's
 * shard and a wallet deploy, so its trace spans several masterchain blocks. Each route is asked
 * with several parameter combinations and each answer validated against toncenter's 1.2.6 file
 * (../shared/spec/v3; `actions` against the docs' copy, which the 1.2.6 file lacks), with the
 * differences of test/v3/v3Spec.ts (NULLABLE, FINALITY_AS_STRING, OPCODE_AS_HEX) and EVENTS_ALIAS
 * (test/helpers/v3Calls.ts). Without ../shared the spec checks are skipped with a message.
 */
describe('v3 on the embedded chain: every route; a trace assembled across mc blocks (--cross-shard-delay)', () => {
  let db: TestDatabase;
  let stack: LocalStack;
  let spec: V3SpecValidator | undefined;
  let docsSpec: V3SpecValidator | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    stack = await startLocalStack(['--shards', '2', '--block-interval', '300', '--cross-shard-delay', '2', '--index', 'on', '--database-url', db.url!]);
    if (V3_SPEC_PRESENT) spec = loadV3Spec();
    else console.warn(`v3 spec checks skipped: ${V3_SPEC_PATH} is absent`);
    if (V3_DOCS_SPEC_PRESENT) docsSpec = loadV3DocsSpec();
    else console.warn(`v3 docs spec checks (actions) skipped: ${V3_DOCS_SPEC_PATH} is absent`);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  const v3 = (path: string) => v3Caller(stack.url, spec, docsSpec).get(path);
  const ok = (path: string) => v3Caller(stack.url, spec, docsSpec).ok(path);

  const raw = (address: Address) => `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
  const hex = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

  let senderTx: Json;
  let trace: Json;
  let sender: Address;
  let receiver: Address;
  let bouncer: Address;
  let deployed: Address;
  let externalHash: string;

  it('a transfer to the other shard, a bounce and a deploy: one trace, complete, assembled across mc blocks', async () => {
    const { keyPair, wallets } = stack.localnet.wallets;
    const wallet = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    sender = wallet.address;
    // Two shards split on the first bit of the account id.
    const senderBit = sender.hash[0]! & 0x80;
    receiver = new Address(0, Buffer.alloc(32, (senderBit ^ 0x80) | 0x31));
    bouncer = new Address(0, Buffer.alloc(32, senderBit | 0x32));
    const newWallet = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey, walletId: 777_000 });
    deployed = newWallet.address;
    const { boc } = await signedWalletTransfer(stack, [
      internal({ to: receiver, value: toNano('0.3'), bounce: false, body: 'to the other shard' }),
      internal({ to: bouncer, value: toNano('0.1'), bounce: true, body: 'bounce me' }),
      internal({ to: deployed, value: toNano('1'), bounce: false, init: newWallet.init }),
    ]);
    const sent = await callV2<{ hash: string }>(stack, 'POST', 'sendBocReturnHash', { boc: boc.toString('base64') });
    expect(sent.status).toBe(200);
    externalHash = sent.body.result!.hash;

    await until(async () => {
      const found = await v3(`/transactionsByMessage?msg_hash=${encodeURIComponent(externalHash)}`);
      const tx = (found.body['transactions'] as Json[] | undefined)?.[0];
      if (tx) senderTx = tx;
      return tx !== undefined;
    }, 120_000, 'the sender transaction is indexed');
    await until(async () => {
      const found = await v3(`/traces?tx_hash=${encodeURIComponent(senderTx['hash'] as string)}`);
      const first = (found.body['traces'] as Json[] | undefined)?.[0];
      if (first) trace = first;
      return (first?.['trace_info'] as Json | undefined)?.['trace_state'] === 'complete';
    }, 120_000, 'the trace is complete');

    // sender, receiver (other shard, delivered later), bouncer, the bounce back, the deploy.
    const transactions = Object.values(trace['transactions'] as Record<string, Json>);
    expect(transactions.map((t) => t['account']).sort()).toEqual([raw(sender), raw(sender), raw(receiver), raw(bouncer), raw(deployed)].sort());
    expect(trace['transactions_order']).toHaveLength(5);
    expect(trace['trace_info']).toMatchObject({ trace_state: 'complete', pending_messages: 0, transactions: 5 });
    expect(trace['is_incomplete']).toBe(false);
    const mcOf = (account: Address) => transactions.find((t) => t['account'] === raw(account))!['mc_block_seqno'] as number;
    const senderMc = senderTx['mc_block_seqno'] as number;
    // The message to the other shard waited: its transaction is in a later mc block than the sender's.
    expect(mcOf(receiver)).toBeGreaterThan(senderMc);
    // Within the sender's shard the bounce completes in the sender's own round.
    expect(mcOf(bouncer)).toBe(senderMc);
    expect(Number(trace['mc_seqno_start'])).toBe(senderMc);
    expect(Number(trace['mc_seqno_end'])).toBeGreaterThanOrEqual(mcOf(receiver));
    expect(Number(trace['mc_seqno_end'])).toBeGreaterThan(Number(trace['mc_seqno_start']));
    expect(trace['external_hash']).toBe(externalHash);
    const receiverTx = transactions.find((t) => t['account'] === raw(receiver))!;
    expect((receiverTx['block_ref'] as Json)['shard']).not.toBe((senderTx['block_ref'] as Json)['shard']);
    const bounceBack = transactions.find((t) => t['account'] === raw(sender) && t['hash'] !== senderTx['hash'])!;
    expect((bounceBack['in_msg'] as Json)['bounced']).toBe(true);
    // The tree: the sender's three messages, the bouncer's bounce under it.
    const root = trace['trace'] as Json;
    expect(root['tx_hash']).toBe(senderTx['hash']);
    const children = root['children'] as Json[];
    expect(children).toHaveLength(3);
    const bouncerNode = children.find((c) => (trace['transactions'] as Record<string, Json>)[c['tx_hash'] as string]!['account'] === raw(bouncer))!;
    expect((bouncerNode['children'] as Json[]).map((c) => c['tx_hash'])).toEqual([bounceBack['hash']]);
    // The trace's mc block filter finds complete traces by their last block only.
    const byMc = (await ok(`/traces?mc_seqno=${trace['mc_seqno_end']}`))['traces'] as Json[];
    expect(byMc.map((t) => t['trace_id'])).toContain(trace['trace_id']);
    const byStart = (await ok(`/traces?mc_seqno=${senderMc}`))['traces'] as Json[];
    expect(byStart.map((t) => t['trace_id'])).not.toContain(trace['trace_id']);
  });

  it('blocks, masterchainInfo, shard state and shards: several filters, spec-valid', async () => {
    const info = await ok('/masterchainInfo');
    const last = info['last'] as Json;
    expect((info['first'] as Json)['seqno']).toBe(1);
    const mc = senderTx['mc_block_seqno'] as number;
    const ref = senderTx['block_ref'] as Json;
    const mcBlocks = (await ok('/blocks?workchain=-1&limit=3'))['blocks'] as Json[];
    expect(mcBlocks).toHaveLength(3);
    // The chain goes on sealing: the newest is at least the head read just before, newest first.
    expect(mcBlocks[0]!['seqno'] as number).toBeGreaterThanOrEqual(last['seqno'] as number);
    expect(mcBlocks.map((b) => b['seqno'] as number)).toEqual(mcBlocks.map((b) => b['seqno'] as number).sort((a, b) => b - a));
    const shardBlock = ((await ok(`/blocks?workchain=0&shard=${ref['shard']}&seqno=${ref['seqno']}`))['blocks'] as Json[])[0]!;
    expect((shardBlock['masterchain_block_ref'] as Json)['seqno']).toBe(mc);
    const byRoot = (await ok(`/blocks?root_hash=${hex(shardBlock['root_hash'] as string)}`))['blocks'] as Json[];
    expect(byRoot.map((b) => b['seqno'])).toEqual([ref['seqno']]);
    const byMc = (await ok(`/blocks?mc_seqno=${mc}&sort=asc`))['blocks'] as Json[];
    expect(byMc.map((b) => `${b['workchain']}:${b['shard']}:${b['seqno']}`)).toContain(`0:${ref['shard']}:${ref['seqno']}`);
    const utime = Number(shardBlock['gen_utime']);
    const inTime = (await ok(`/blocks?workchain=0&start_utime=${utime}&end_utime=${utime}&limit=50`))['blocks'] as Json[];
    expect(inTime.every((b) => Number(b['gen_utime']) === utime)).toBe(true);
    expect(inTime.map((b) => b['seqno'])).toContain(ref['seqno']);
    const lt = shardBlock['start_lt'] as string;
    // The local chain's shard blocks of one round start at the same lt: both shards' blocks.
    const byLt = (await ok(`/blocks?workchain=0&start_lt=${lt}&end_lt=${lt}`))['blocks'] as Json[];
    expect(byLt.every((b) => b['start_lt'] === lt)).toBe(true);
    expect(byLt.map((b) => `${b['shard']}:${b['seqno']}`)).toContain(`${ref['shard']}:${ref['seqno']}`);
    const state = (await ok(`/masterchainBlockShardState?seqno=${mc}`))['blocks'] as Json[];
    expect(state.map((b) => b['workchain'])).toEqual([0, 0]);
    const shards = (await ok(`/masterchainBlockShards?seqno=${mc}`))['blocks'] as Json[];
    expect(shards.map((b) => b['workchain'])).toContain(-1);
  });

  it('transactions and messages: several filters each, spec-valid', async () => {
    const hash = senderTx['hash'] as string;
    const lt = senderTx['lt'] as string;
    const ref = senderTx['block_ref'] as Json;
    const hashes = (body: Json) => (body['transactions'] as Json[]).map((t) => t['hash']);
    expect(hashes(await ok(`/transactions?account=${sender.toString()}&limit=10`))).toContain(hash);
    expect(hashes(await ok(`/transactions?account=${raw(sender)}&account=${raw(receiver)}&sort=asc`))).toContain(hash);
    expect(hashes(await ok(`/transactions?hash=${hex(hash)}`))).toEqual([hash]);
    expect(hashes(await ok(`/transactions?lt=${lt}`))).toContain(hash);
    expect(hashes(await ok(`/transactions?workchain=0&shard=${ref['shard']}&seqno=${ref['seqno']}`))).toContain(hash);
    expect(hashes(await ok(`/transactions?mc_seqno=${senderTx['mc_block_seqno']}`))).toContain(hash);
    expect(hashes(await ok(`/transactions?start_lt=${lt}&end_lt=${lt}`))).toContain(hash);
    const now = senderTx['now'] as number;
    expect(hashes(await ok(`/transactions?start_utime=${now}&end_utime=${now}&limit=1000`))).toContain(hash);
    expect(hashes(await ok(`/transactions?mc_seqno=${senderTx['mc_block_seqno']}&exclude_account=${raw(sender)}`))).not.toContain(hash);
    const withBook = await ok(`/transactions?hash=${hex(hash)}`);
    expect(Object.keys(withBook['address_book'] as Json)).toContain(raw(sender));
    expect(hashes(await ok(`/transactionsByMasterchainBlock?seqno=${senderTx['mc_block_seqno']}&sort=asc`))).toContain(hash);

    const outMsgs = senderTx['out_msgs'] as Json[];
    const toReceiver = outMsgs.find((m) => m['destination'] === raw(receiver))!;
    const receiverTxs = (await ok(`/transactionsByMessage?msg_hash=${hex(toReceiver['hash'] as string)}&direction=in`))['transactions'] as Json[];
    expect(receiverTxs.map((t) => t['account'])).toEqual([raw(receiver)]);
    const bothEnds = (await ok(`/transactionsByMessage?msg_hash=${hex(toReceiver['hash'] as string)}`))['transactions'] as Json[];
    expect(bothEnds.map((t) => t['account']).sort()).toEqual([raw(receiver), raw(sender)].sort());
    const bodyHash = (toReceiver['message_content'] as Json)['hash'] as string;
    expect(((await ok(`/transactionsByMessage?body_hash=${hex(bodyHash)}`))['transactions'] as Json[]).length).toBeGreaterThanOrEqual(2);
    expect(((await ok(`/transactionsByMessage?opcode=0&direction=in&limit=1000`))['transactions'] as Json[]).map((t) => t['account'])).toContain(raw(receiver));
    const adjacent = (await ok(`/adjacentTransactions?hash=${hex(hash)}&direction=out`))['transactions'] as Json[];
    expect(adjacent.map((t) => t['account']).sort()).toEqual([raw(receiver), raw(bouncer), raw(deployed)].sort());
    const before = (await ok(`/adjacentTransactions?hash=${hex(receiverTxs[0]!['hash'] as string)}&direction=in`))['transactions'] as Json[];
    expect(before.map((t) => t['hash'])).toEqual([hash]);

    const messages = (body: Json) => body['messages'] as Json[];
    const one = messages(await ok(`/messages?msg_hash=${hex(toReceiver['hash'] as string)}`));
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ out_msg_tx_hash: hash, in_msg_tx_hash: receiverTxs[0]!['hash'], source: raw(sender), destination: raw(receiver) });
    expect(messages(await ok(`/messages?source=${sender.toString()}&limit=20`)).map((m) => m['hash'])).toContain(toReceiver['hash']);
    expect(messages(await ok(`/messages?destination=${raw(receiver)}`)).map((m) => m['hash'])).toEqual([toReceiver['hash']]);
    expect(messages(await ok(`/messages?body_hash=${hex(bodyHash)}`)).map((m) => m['hash'])).toContain(toReceiver['hash']);
    expect(messages(await ok(`/messages?opcode=0&limit=1000`)).map((m) => m['hash'])).toContain(toReceiver['hash']);
    const externals = messages(await ok(`/messages?only_externals=true&limit=1000`));
    expect(externals.map((m) => m['hash'])).toContain(externalHash);
    expect(externals.every((m) => m['source'] === null)).toBe(true);
    expect(messages(await ok(`/messages?exclude_externals=true&limit=1000`)).every((m) => m['source'] !== null)).toBe(true);
    const created = toReceiver['created_lt'] as string;
    expect(messages(await ok(`/messages?start_lt=${created}&end_lt=${created}&direction=out`)).map((m) => m['hash'])).toContain(toReceiver['hash']);
  });

  it('accounts, wallets, address book, top accounts, traces, events, actions, pending: spec-valid', async () => {
    const accounts = (await ok(`/accountStates?address=${raw(sender)}&address=${deployed.toString()}&include_boc=false`))['accounts'] as Json[];
    expect(accounts.map((a) => a['address']).sort()).toEqual([raw(sender), raw(deployed)].sort());
    expect(accounts.every((a) => a['status'] === 'active' && a['code_boc'] === undefined)).toBe(true);
    const wallets = (await ok(`/walletStates?address=${deployed.toString()}`))['wallets'] as Json[];
    expect(wallets[0]).toMatchObject({ is_wallet: true, wallet_type: 'wallet v4 r2', seqno: 0, wallet_id: 777_000 });
    const book = await ok(`/addressBook?address=${deployed.toString()}&address=${raw(receiver)}`);
    // A wallet: non-bounceable, its interface by the code hash; no DNS indexed, so no domain.
    expect(book[deployed.toString()]).toEqual({ user_friendly: deployed.toString({ urlSafe: true, bounceable: false }), domain: null, interfaces: ['wallet_v4r2'] });
    // An account without code (uninit after a non-bounceable transfer): non-bounceable, interfaces null (ton-index-go's nil slice).
    expect(book[raw(receiver)]).toEqual({ user_friendly: receiver.toString({ urlSafe: true, bounceable: false }), domain: null, interfaces: null });
    // The address book of a transaction page names every account of its messages.
    const txBook = (await ok(`/transactions?hash=${hex(senderTx['hash'] as string)}`))['address_book'] as Record<string, Json>;
    expect(Object.keys(txBook).sort()).toEqual([raw(sender), raw(receiver), raw(bouncer), raw(deployed)].sort());
    expect(txBook[raw(sender)]!['interfaces']).toEqual(['wallet_v4r2']);
    const top = (await ok('/topAccountsByBalance?limit=3&offset=1')) as unknown as Json[];
    expect(top).toHaveLength(3);

    const traceId = trace['trace_id'] as string;
    const ids = (body: Json, key = 'traces') => (body[key] as Json[]).map((t) => t['trace_id']);
    expect(ids(await ok(`/traces?account=${raw(receiver)}`))).toEqual([traceId]);
    expect(ids(await ok(`/traces?trace_id=${hex(traceId)}`))).toEqual([traceId]);
    expect(ids(await ok(`/traces?msg_hash=${hex(externalHash)}`))).toEqual([traceId]);
    expect(ids(await ok(`/traces?limit=5&sort=desc`)).length).toBeGreaterThanOrEqual(1);
    const endLt = trace['end_lt'] as string;
    expect(ids(await ok(`/traces?start_lt=${endLt}&end_lt=${endLt}`))).toContain(traceId);
    expect(ids(await ok(`/events?tx_hash=${hex(senderTx['hash'] as string)}`), 'events')).toEqual([traceId]);
    const actions = (await ok(`/actions?account=${raw(receiver)}`))['actions'] as Json[];
    expect(actions.map((a) => a['trace_id'])).toContain(traceId);

    // Nothing pending: ton-index-go's pendingTransactions answers 404 with its text (the other two, empty lists).
    expect(await v3(`/pendingTransactions?account=${raw(sender)}`)).toEqual({ status: 404, body: { error: 'emulated traces not found' } });
    expect((await ok(`/pendingTraces?account=${raw(sender)}`))['traces']).toEqual([]);
    expect((await ok(`/pendingActions?account=${raw(sender)}`))['actions']).toEqual([]);
  });

  it("actions pages in ton-index-go's orders (by the trace's end lt, or its end time with a time filter), the same rows at any offset; an index in the time order", async () => {
    // The local chain's tick-tock traces are actions too. The pages hold the 20th to the 60th newest
    // actions' traces: none is added within that lt range while they are read, and all of it fits
    // in one page of 1 000.
    await until(async () => ((await ok('/actions?limit=60'))['actions'] as Json[]).length === 60, 60_000, '60 actions');
    const newest = (await ok('/actions?limit=60'))['actions'] as Json[];
    const range = `start_lt=${newest[59]!['trace_end_lt'] as string}&end_lt=${newest[19]!['trace_end_lt'] as string}`;
    const key = (a: Json, time: boolean): [bigint, string, bigint, string] => [
      BigInt(a[time ? 'trace_end_utime' : 'trace_end_lt'] as string | number),
      hex(a['trace_id'] as string),
      BigInt(a[time ? 'end_utime' : 'end_lt'] as string | number),
      hex(a['action_id'] as string),
    ];
    const compare = (x: [bigint, string, bigint, string], y: [bigint, string, bigint, string]): number => {
      for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    };
    const ids = (body: Json) => (body['actions'] as Json[]).map((a) => a['action_id'] as string);
    for (const [filter, time] of [[range, false], [`start_utime=0&${range}`, true]] as const) {
      const all = (await ok(`/actions?${filter}&limit=1000`))['actions'] as Json[];
      expect(all.length).toBeGreaterThanOrEqual(41);
      expect(all.length).toBeLessThan(1000);
      // Newest first by the four keys, each pair strictly ordered.
      for (let i = 1; i < all.length; i++) expect(compare(key(all[i - 1]!, time), key(all[i]!, time))).toBe(1);
      for (const offset of [0, 1, 7, all.length - 3]) {
        expect(ids(await ok(`/actions?${filter}&limit=5&offset=${offset}`))).toEqual(all.slice(offset, offset + 5).map((a) => a['action_id']));
      }
      expect(ids(await ok(`/actions?${filter}&limit=1000&sort=asc`))).toEqual(all.map((a) => a['action_id']).reverse());
    }
    // The time order is an index's (migration 9), not a sort of every action that passes the filter:
    // the index gives the route's order with no Sort (the route's own statement adds its filters).
    const client = new pg.Client({ connectionString: db.url! });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      const plan = (
        await client.query<{ 'QUERY PLAN': string }>(
          'explain select trace_id, action_id from actions where trace_end_utime >= 0 order by trace_end_utime desc, trace_id desc, end_utime desc, action_id desc limit 5',
        )
      ).rows.map((r) => r['QUERY PLAN']);
      expect(plan.join('\n')).toContain('actions_trace_end_utime');
      expect(plan.join('\n')).not.toMatch(/Sort/);
    } finally {
      await client.end();
    }
  });
});
