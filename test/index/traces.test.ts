import { beginCell, external, internal, SendMode, storeMessage, toNano, type Address } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, v3HeadAtLeast, type LocalStack } from '../helpers/localStack';
import { deployTokens, onchainContent } from '../helpers/tokens';
import { callV2 } from '../helpers/v2Calls';
import { until } from '../helpers/waiting';
import type { IndexService } from '../../src/indexer';

jest.setTimeout(300_000);

interface TraceRowOut {
  trace_id: Buffer;
  external_hash: Buffer | null;
  external_hash_norm: Buffer | null;
  state: string;
  nodes_: string;
  edges_: string;
  pending_edges_: string;
  mc_seqno_start: number;
  mc_seqno_end: number;
}

interface TxOut {
  hash: Buffer;
  account: string;
  trace_id: Buffer | null;
  lt: string;
}

/**
 * Trace assembly in the index on the embedded chain, with real contracts: a wallet -> wallet
 * transfer (2 transactions, one internal message) and a jetton + NFT mint (a wallet transfer to a
 * minter and a collection, each of which sends on: 5 transactions over several blocks) each become
 * one `complete` trace whose id is the wallet's transaction, holding exactly the transactions the
 * messages link, with no pending edge left.
 */
describe.each(INDEX_BACKENDS)('traces in the index (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let index: IndexService;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    // Two shards and a one-block cross-shard delay: a cascade spans masterchain blocks, so edges
    // stay pending in trace_edges between commits, as on mainnet.
    stack = await startLocalStack(['--shards', '2', '--cross-shard-delay', '1', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
    index = stack.server.services.index!;
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  /** Waits until the index has every block the chain has now, and one more (a message's landing block). */
  async function indexCaughtUp(): Promise<void> {
    const head = (await callV2<{ last: { seqno: number } }>(stack, 'GET', 'getMasterchainInfo', {})).body.result!.last.seqno;
    await until(() => (index.health().status.committedMcSeqno ?? 0) >= head + 2, 120_000, `index reaches ${head + 2}`);
    // v3's cached answers too (published once the keys read before are warm: --v3-head-warm).
    await v3HeadAtLeast(stack, head + 2);
  }

  async function traceOf(txHash: Buffer): Promise<{ trace: TraceRowOut; transactions: TxOut[]; pendingEdges: number }> {
    const pool = index.store.pool;
    const { rows: [tx] } = await pool.query<{ trace_id: Buffer | null }>('select trace_id from transactions where hash = $1', [txHash]);
    expect(tx?.trace_id).toBeTruthy();
    const { rows: [trace] } = await pool.query<TraceRowOut>('select * from traces where trace_id = $1', [tx!.trace_id]);
    const { rows: transactions } = await pool.query<TxOut>('select hash, account, trace_id, lt::text from transactions where trace_id = $1 order by transactions.lt', [tx!.trace_id]);
    const { rows: [edges] } = await pool.query<{ n: string }>('select count(*) filter (where incomplete) as n from trace_edges where trace_id = $1', [tx!.trace_id]);
    return { trace: trace!, transactions, pendingEdges: Number(edges!.n) };
  }

  /** The hash of the transaction of `account` whose in message is `msgHash` (or any in message). */
  async function transactionByInMessage(msgHash: Buffer): Promise<Buffer> {
    const { rows } = await index.store.pool.query<{ tx_hash: Buffer }>("select tx_hash from messages where msg_hash = $1 and direction = 'in'", [msgHash]);
    expect(rows).toHaveLength(1);
    return rows[0]!.tx_hash;
  }

  async function transactionsOf(account: Address): Promise<TxOut[]> {
    const raw = `${account.workChain}:${account.hash.toString('hex').toUpperCase()}`;
    const { rows } = await index.store.pool.query<TxOut>('select hash, account, trace_id, lt::text from transactions where account = $1 order by transactions.lt', [raw]);
    return rows;
  }

  it('a wallet -> wallet transfer is one complete trace of two transactions, keyed by sendBocReturnHash hash_norm', async () => {
    const { keyPair, wallets } = stack.localnet.wallets;
    const from = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    const to = wallets.find((w) => w.address.toString() !== from.address.toString() && w.version === 'v4r2')!;
    const contract = from.contract as WalletContractV4;
    const client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const seqno = await client.open(contract).getSeqno();
    const body = contract.createTransfer({
      seqno,
      secretKey: keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: to.address, value: toNano('0.3'), bounce: true, body: 'index traces' })],
    });
    const boc = beginCell().store(storeMessage(external({ to: from.address, body }))).endCell().toBoc();
    const sent = await callV2<{ hash: string; hash_norm: string }>(stack, 'POST', 'sendBocReturnHash', { boc: boc.toString('base64') });
    expect(sent.status).toBe(200);
    await until(async () => (await client.open(contract).getSeqno()) > seqno, 60_000, 'the transfer lands');
    await indexCaughtUp();

    const root = await transactionByInMessage(Buffer.from(sent.body.result!.hash, 'base64'));
    const { trace, transactions, pendingEdges } = await traceOf(root);
    expect(trace.trace_id.equals(root)).toBe(true);
    expect(trace.state).toBe('complete');
    expect(trace.external_hash!.toString('base64')).toBe(sent.body.result!.hash);
    expect(trace.external_hash_norm!.toString('base64')).toBe(sent.body.result!.hash_norm);
    expect([trace.nodes_, trace.edges_, trace.pending_edges_]).toEqual(['2', '1', '0']);
    expect(pendingEdges).toBe(0);
    const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
    expect(transactions.map((t) => t.account)).toEqual([raw(from.address), raw(to.address)]);
    expect(transactions[0]!.hash.equals(root)).toBe(true);

    // v3 answers the same trace, its tree linking the two.
    const res = await fetch(`${stack.url}/api/v3/traces?trace_id=${encodeURIComponent(root.toString('base64'))}`);
    const json = (await res.json()) as { traces: { trace_info: { trace_state: string }; trace: { tx_hash: string; children: { tx_hash: string }[] } }[] };
    expect(json.traces[0]!.trace_info.trace_state).toBe('complete');
    expect(json.traces[0]!.trace.tx_hash).toBe(root.toString('base64'));
    expect(json.traces[0]!.trace.children.map((c) => c.tx_hash)).toEqual([transactions[1]!.hash.toString('base64')]);
  });

  it('a jetton and NFT mint (5 transactions over several blocks) is one complete trace', async () => {
    const client = new TonClient({ endpoint: `${stack.api}/jsonRPC` });
    const { keyPair } = stack.localnet.wallets;
    const tokens = await deployTokens(client, keyPair, onchainContent({ name: 'Trace jetton', symbol: 'TT' }));
    await indexCaughtUp();

    // The mint: owner wallet -> minter -> jetton wallet (internal_transfer), and owner wallet ->
    // collection -> NFT item (deploy). The jetton wallet's first transaction is in that trace.
    const [jettonWalletTx] = await transactionsOf(tokens.jettonWallet);
    const [itemTx] = await transactionsOf(tokens.item);
    expect(jettonWalletTx).toBeDefined();
    const { trace, transactions, pendingEdges } = await traceOf(jettonWalletTx!.hash);
    expect({ state: trace.state, pending: trace.pending_edges_, pendingEdges }).toEqual({ state: 'complete', pending: '0', pendingEdges: 0 });
    expect(itemTx!.trace_id!.equals(trace.trace_id)).toBe(true);
    const owner = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey }).address;
    const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
    // The root (the owner's wallet) has the trace's lowest lt: the local chain's lt grows in
    // execution order. (The queries above order by `transactions.lt`: a bare `lt` named the
    // `lt::text` output column, so the rows were sorted as text and a trace whose lts crossed a
    // power of ten, 9 000 000 -> 10 000 000, listed a child first: the CI failure of 27 November.)
    const listed = transactions.map((t) => `${t.account} lt ${t.lt} trace ${t.trace_id?.toString('hex') ?? '-'}`);
    expect({ first: listed[0], listed }).toEqual({ first: expect.stringMatching(new RegExp(`^${raw(owner)} `)), listed });
    expect(trace.trace_id.equals(transactions[0]!.hash)).toBe(true);
    expect(trace.external_hash).not.toBeNull();
    // The minter and collection each received one message and sent one on.
    const accounts = transactions.map((t) => t.account);
    for (const a of [tokens.minter, tokens.collection, tokens.jettonWallet, tokens.item]) expect(accounts).toContain(raw(a));
    expect(Number(trace.nodes_)).toBe(transactions.length);
    const { rows: [edges] } = await index.store.pool.query<{ n: string }>('select count(*) as n from trace_edges where trace_id = $1', [trace.trace_id]);
    expect(trace.edges_).toBe(edges!.n);
    // Every transaction but the root received its message from another transaction of the trace.
    expect(Number(trace.edges_)).toBeGreaterThanOrEqual(transactions.length - 1);
    expect(trace.mc_seqno_end).toBeGreaterThan(trace.mc_seqno_start);

    // The chain delivers every internal message as the cell its sender sent (the minter and the
    // collection put StateInit and body in references): each received one is some sent one.
    const { rows: unmatched } = await index.store.pool.query<{ n: string }>(
      `select count(*) as n from messages i where i.direction = 'in' and i.source is not null and i.created_lt > 0
         and not exists (select 1 from messages o where o.direction = 'out' and o.msg_hash = i.msg_hash)`,
    );
    expect(unmatched[0]!.n).toBe('0');
  });
});
