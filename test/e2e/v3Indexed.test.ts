import { Address, internal, toNano } from '@ton/ton';
import { callV2, signedWalletTransfer } from '../helpers/v2Calls';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { v3Caller } from '../helpers/v3Calls';
import { until } from '../helpers/waiting';
import { loadV3Spec, V3_SPEC_PATH, V3_SPEC_PRESENT, type V3SpecValidator } from '../v3/v3Spec';

jest.setTimeout(240_000);

type Json = Record<string, unknown>;

/**
 * The indexed v3 routes end to end on the embedded chain, filled by the real index pipeline: a
 * wallet transfer to an account in the other shard and a bounced one, sent with v2's
 * sendBocReturnHash, then found through v3 and compared with what v2 says about the same chain.
 */
describe.each(INDEX_BACKENDS)('v3 over the index on the embedded chain (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let spec: V3SpecValidator | undefined;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--shards', '2', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
    if (V3_SPEC_PRESENT) spec = loadV3Spec();
    else console.warn(`v3 spec checks skipped: ${V3_SPEC_PATH} is absent`);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  const v3 = (path: string) => v3Caller(stack.url, spec).get(path);
  const ok = (path: string) => v3Caller(stack.url, spec).ok(path);

  it('a transfer across shards and a bounce: found by message, account, trace; blocks, shards and states equal v2', async () => {
    const { wallets } = stack.localnet.wallets;
    const sender = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    const senderRaw = `0:${sender.address.hash.toString('hex').toUpperCase()}`;
    // The receiver in the other shard of two: the first bit of its id differs from the sender's.
    const otherShardBit = sender.address.hash[0]! & 0x80 ? 0x00 : 0x80;
    const receiver = new Address(0, Buffer.alloc(32, otherShardBit | 0x11));
    const bouncer = new Address(0, Buffer.alloc(32, (sender.address.hash[0]! & 0x80) | 0x22));
    const { boc, seqno } = await signedWalletTransfer(stack, [
      internal({ to: receiver, value: toNano('0.2'), bounce: false, body: 'v3 across shards' }),
      // A bounceable message to an account with no code bounces back.
      internal({ to: bouncer, value: toNano('0.1'), bounce: true, body: 'v3 bounce' }),
    ]);
    const sent = await callV2<{ hash: string; hash_norm: string }>(stack, 'POST', 'sendBocReturnHash', { boc: boc.toString('base64') });
    expect(sent.status).toBe(200);
    const { hash, hash_norm: hashNorm } = sent.body.result!;

    // The sender's transaction, then its whole trace, indexed.
    let senderTx: Json | undefined;
    await until(async () => {
      const found = await v3(`/transactionsByMessage?msg_hash=${encodeURIComponent(hash)}`);
      senderTx = (found.body['transactions'] as Json[] | undefined)?.[0];
      return senderTx !== undefined;
    }, 120_000, 'the sender transaction is indexed');
    let trace: Json | undefined;
    await until(async () => {
      const found = await v3(`/traces?tx_hash=${encodeURIComponent(senderTx!['hash'] as string)}`);
      trace = (found.body['traces'] as Json[] | undefined)?.[0];
      return (trace?.['trace_info'] as Json | undefined)?.['trace_state'] === 'complete' && (trace?.['transactions_order'] as unknown[]).length >= 4;
    }, 120_000, 'the trace is complete');

    // transactionsByMessage by hash and by normalized hash; the account's history has it.
    const byMessage = await ok(`/transactionsByMessage?msg_hash=${encodeURIComponent(hash)}`);
    expect(byMessage['transactions']).toHaveLength(1);
    expect((senderTx!['in_msg'] as Json)['hash']).toBe(hash);
    expect((senderTx!['in_msg'] as Json)['hash_norm']).toBe(hashNorm);
    expect(senderTx!['account']).toBe(senderRaw);
    const byNorm = await ok(`/transactionsByMessage?msg_hash=${Buffer.from(hashNorm, 'base64').toString('hex')}`);
    expect((byNorm['transactions'] as Json[])[0]!['hash']).toBe(senderTx!['hash']);
    const history = await ok(`/transactions?account=${sender.address.toString()}&limit=5`);
    expect((history['transactions'] as Json[]).map((t) => t['hash'])).toContain(senderTx!['hash']);

    // The trace: sender, receiver (other shard), bouncer, and the bounce back to the sender.
    const transactions = trace!['transactions'] as Record<string, Json>;
    const accounts = Object.values(transactions).map((t) => t['account']);
    const receiverRaw = `0:${receiver.hash.toString('hex').toUpperCase()}`;
    const bouncerRaw = `0:${bouncer.hash.toString('hex').toUpperCase()}`;
    expect(accounts.sort()).toEqual([senderRaw, senderRaw, receiverRaw, bouncerRaw].sort());
    const receiverTx = Object.values(transactions).find((t) => t['account'] === receiverRaw)!;
    expect((receiverTx['block_ref'] as Json)['shard']).not.toBe((senderTx!['block_ref'] as Json)['shard']);
    const root = trace!['trace'] as Json;
    expect(root['tx_hash']).toBe(senderTx!['hash']);
    expect((root['children'] as Json[]).map((c) => c['tx_hash']).length).toBe(2);
    const bounced = Object.values(transactions).find((t) => t['account'] === senderRaw && t['hash'] !== senderTx!['hash'])!;
    expect((bounced['in_msg'] as Json)['bounced']).toBe(true);
    expect(spec?.check('/traces', await ok(`/traces?tx_hash=${encodeURIComponent(senderTx!['hash'] as string)}`)) ?? null).toBeNull();

    // adjacentTransactions links the sender to both receivers.
    const adjacent = await ok(`/adjacentTransactions?hash=${encodeURIComponent(senderTx!['hash'] as string)}&direction=out`);
    expect((adjacent['transactions'] as Json[]).map((t) => t['account']).sort()).toEqual([receiverRaw, bouncerRaw].sort());

    // blocks and masterchainBlockShardState equal v2's lookupBlock and shards.
    const mcSeqno = senderTx!['mc_block_seqno'] as number;
    const mcBlock = ((await ok(`/blocks?workchain=-1&seqno=${mcSeqno}`))['blocks'] as Json[])[0]!;
    const looked = await callV2<{ root_hash: string; file_hash: string }>(stack, 'GET', 'lookupBlock', { workchain: -1, shard: '-9223372036854775808', seqno: mcSeqno });
    expect([mcBlock['root_hash'], mcBlock['file_hash']]).toEqual([looked.body.result!.root_hash, looked.body.result!.file_hash]);
    const v2Shards = (await callV2<{ shards: { shard: string; seqno: number }[] }>(stack, 'GET', 'shards', { seqno: mcSeqno })).body.result!.shards;
    const v3Shards = (await ok(`/masterchainBlockShardState?seqno=${mcSeqno}`))['blocks'] as Json[];
    const hex = (s: string) => BigInt.asUintN(64, BigInt(s)).toString(16).toUpperCase();
    expect(v3Shards.map((b) => `${b['shard']}:${b['seqno']}`).sort()).toEqual(v2Shards.map((s) => `${hex(s.shard)}:${s.seqno}`).sort());
    const info = await ok('/masterchainInfo');
    expect((info['first'] as Json)['seqno']).toBe(1);

    // accountStates equals v2's balance and status at the head: the trace is complete, so the
    // index holds the sender's last transaction (the bounce), and nothing else moves its balance.
    expect(((await ok('/masterchainInfo'))['last'] as Json)['seqno'] as number).toBeGreaterThanOrEqual(bounced['mc_block_seqno'] as number);
    const state = ((await ok(`/accountStates?address=${sender.address.toString()}`))['accounts'] as Json[])[0]!;
    const v2Info = await callV2<{ balance: string; state: string }>(stack, 'GET', 'getAddressInformation', { address: sender.address.toString() });
    expect(state['balance']).toBe(v2Info.body.result!.balance);
    expect(state['status']).toBe(v2Info.body.result!.state);
    const wallet = ((await ok(`/walletStates?address=${sender.address.toString()}`))['wallets'] as Json[])[0]!;
    expect(wallet).toMatchObject({ is_wallet: true, wallet_type: 'wallet v4 r2', seqno: seqno + 1 });

    // topAccountsByBalance: sorted, and every account the index knows.
    const top = (await ok('/topAccountsByBalance?limit=1000')) as unknown as { account: string; balance: string }[];
    const balances = top.map((a) => BigInt(a.balance));
    expect(balances).toEqual([...balances].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const { rows } = await stack.server.services.index!.store.readPool.query<{ n: string }>('select count(*) as n from latest_account_states where balance is not null');
    expect(top.length).toBe(Math.min(1000, Number(rows[0]!.n)));
    expect(top.map((a) => a.account)).toContain(senderRaw);
  });
});
