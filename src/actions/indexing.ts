import { Cell } from '@ton/core';
import type { ClientBase } from 'pg';
import { classifyTrace } from './classify';
import { EMPTY_DIRECTORY, type AccountStatusWord, type ActionJson, type TokenDirectory, type TraceInput, type TraceMessage, type TraceTransaction } from './types';

/**
 * The index's side of classification: when a trace completes in a masterchain block, its
 * transactions and messages are read back (inside the block's database transaction, so they are
 * exactly what the block commits), unless the caller holds them all (a trace that began in the
 * blocks it writes), and its actions written in the same transaction. A trace that completes
 * again after a rollback is classified again (its old rows are replaced).
 */

/** toncenter cuts traces at 4 000 transactions and does not classify the cut ones. */
export const MAX_CLASSIFIED_TRACE_TRANSACTIONS = 4000;

interface CompletedTrace {
  readonly trace_id: Buffer;
  readonly external_hash: Buffer | null;
  readonly state: string;
  readonly nodes_: bigint;
}

interface TransactionRead {
  trace_id: Buffer;
  hash: Buffer;
  lt: string;
  now: number;
  account: string;
  mc_block_seqno: number;
  aborted: boolean | null;
  orig_status: AccountStatusWord;
  end_status: AccountStatusWord;
  descr: string;
}

interface MessageRead {
  tx_hash: Buffer;
  direction: 'in' | 'out';
  msg_hash: Buffer;
  source: string | null;
  destination: string | null;
  value: string | null;
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  body: Buffer | null;
}

function bodyCell(boc: Buffer | null): Cell | null {
  if (!boc) return null;
  try {
    return Cell.fromBoc(boc)[0] ?? null;
  } catch {
    return null;
  }
}

/** Reads the completed traces' rows and builds the classifier's input, one per trace. */
export async function readTraceInputs(client: ClientBase, traceIds: readonly Buffer[], externalHashes: ReadonlyMap<string, Buffer | null>): Promise<TraceInput[]> {
  if (traceIds.length === 0) return [];
  const ids = [...traceIds];
  const { rows: txs } = await client.query<TransactionRead>(
    `select trace_id, hash, lt::text as lt, now, account, mc_block_seqno, aborted, orig_status, end_status, descr
       from transactions where trace_id = any($1::bytea[])`,
    [ids],
  );
  const { rows: msgs } = await client.query<MessageRead>(
    `select m.tx_hash, m.direction, m.msg_hash, m.source, m.destination, m.value::text as value, m.opcode, m.bounce, m.bounced, c.body
       from messages m left join message_contents c on c.hash = m.body_hash
      where m.trace_id = any($1::bytea[])`,
    [ids],
  );
  const byTx = new Map<string, { inMsg: TraceMessage | null; outMsgs: TraceMessage[] }>();
  for (const m of msgs) {
    const key = m.tx_hash.toString('hex');
    const entry = byTx.get(key) ?? { inMsg: null, outMsgs: [] };
    const message: TraceMessage = {
      hash: m.msg_hash.toString('base64'),
      source: m.source,
      destination: m.destination,
      value: m.value === null ? null : BigInt(m.value),
      opcode: m.opcode === null ? null : m.opcode >>> 0,
      body: bodyCell(m.body),
      bounce: m.bounce ?? false,
      bounced: m.bounced ?? false,
    };
    if (m.direction === 'in') entry.inMsg = message;
    else entry.outMsgs.push(message);
    byTx.set(key, entry);
  }
  const byTrace = new Map<string, TraceTransaction[]>();
  for (const t of txs) {
    const key = t.trace_id.toString('hex');
    const messages = byTx.get(t.hash.toString('hex')) ?? { inMsg: null, outMsgs: [] };
    const list = byTrace.get(key) ?? [];
    list.push({
      hash: t.hash.toString('base64'),
      lt: BigInt(t.lt),
      now: t.now,
      account: t.account,
      mcSeqno: t.mc_block_seqno,
      aborted: t.aborted ?? false,
      origStatus: t.orig_status,
      endStatus: t.end_status,
      tickTock: t.descr === 'tick_tock',
      inMsg: messages.inMsg,
      outMsgs: messages.outMsgs,
    });
    byTrace.set(key, list);
  }
  return ids
    .filter((id) => byTrace.has(id.toString('hex')))
    .map((id) => ({
      traceId: id.toString('base64'),
      externalHash: externalHashes.get(id.toString('hex'))?.toString('base64') ?? null,
      transactions: byTrace.get(id.toString('hex'))!,
    }));
}

/** Writes (replaces) the actions of these traces; one statement for all rows. */
export async function insertActions(client: ClientBase, traceIds: readonly Buffer[], actions: readonly ActionJson[]): Promise<number> {
  if (traceIds.length === 0) return 0;
  await client.query('delete from actions where trace_id = any($1::bytea[])', [[...traceIds]]);
  if (actions.length === 0) return 0;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  // Arrays of arrays cannot go through unnest as one parameter each; tx hashes and accounts are
  // sent as JSON text and expanded per row.
  await client.query(
    `insert into actions (trace_id, action_id, type, tx_hashes, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime,
                          trace_mc_seqno_end, trace_external_hash, success, accounts, details, ancestor_type)
     select r.trace_id, r.action_id, r.type,
            array(select decode(h, 'base64') from jsonb_array_elements_text(r.tx_hashes::jsonb) h),
            r.start_lt, r.end_lt, r.start_utime, r.end_utime, r.trace_end_lt, r.trace_end_utime, r.trace_mc_seqno_end, r.trace_external_hash,
            r.success, array(select a from jsonb_array_elements_text(r.accounts::jsonb) a), r.details::jsonb,
            array(select t from jsonb_array_elements_text(r.ancestor_type::jsonb) t)
       from unnest($1::bytea[], $2::bytea[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int4[], $8::int4[], $9::int8[], $10::int4[],
                   $11::int4[], $12::bytea[], $13::bool[], $14::text[], $15::text[], $16::text[])
         as r(trace_id, action_id, type, tx_hashes, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime,
              trace_mc_seqno_end, trace_external_hash, success, accounts, details, ancestor_type)`,
    [
      actions.map((a) => b64(a.trace_id)),
      actions.map((a) => b64(a.action_id)),
      actions.map((a) => a.type),
      actions.map((a) => JSON.stringify(a.transactions)),
      actions.map((a) => a.start_lt),
      actions.map((a) => a.end_lt),
      actions.map((a) => a.start_utime),
      actions.map((a) => a.end_utime),
      actions.map((a) => a.trace_end_lt),
      actions.map((a) => a.trace_end_utime),
      actions.map((a) => a.trace_mc_seqno_end),
      actions.map((a) => (a.trace_external_hash ? b64(a.trace_external_hash) : null)),
      actions.map((a) => a.success),
      actions.map((a) => JSON.stringify(a.accounts)),
      actions.map((a) => JSON.stringify(a.details)),
      actions.map((a) => JSON.stringify(a.ancestor_type ?? [])),
    ],
  );
  return actions.length;
}

/**
 * Classifies the traces this block completed and writes their actions, in the caller's database
 * transaction. Returns the actions written (also a value the pipeline can emit as events).
 */
export async function writeCompletedTraceActions(
  client: ClientBase,
  traces: readonly CompletedTrace[],
  /** Omitted: the index's detected jetton wallets and NFT items (written before, in this transaction). */
  given?: TokenDirectory,
  /**
   * Every transaction of some of these traces (by trace id, hex), as the caller wrote them in
   * this transaction: those traces are not read back. The caller holds a trace whole only when
   * all of it is in what it wrote (a trace that began in its blocks); the others are read.
   */
  held?: ReadonlyMap<string, readonly TraceTransaction[]>,
): Promise<ActionJson[]> {
  const completed = traces.filter((t) => t.state === 'complete' && t.nodes_ <= BigInt(MAX_CLASSIFIED_TRACE_TRANSACTIONS));
  if (completed.length === 0) return [];
  const externals = new Map(completed.map((t) => [t.trace_id.toString('hex'), t.external_hash]));
  const toRead = held ? completed.filter((t) => !held.has(t.trace_id.toString('hex'))) : completed;
  const read = await readTraceInputs(
    client,
    toRead.map((t) => t.trace_id),
    externals,
  );
  const readById = new Map(read.map((input) => [input.traceId, input]));
  // In the traces' order, whichever way each came.
  const inputs: TraceInput[] = [];
  for (const trace of completed) {
    const traceId = trace.trace_id.toString('base64');
    const transactions = held?.get(trace.trace_id.toString('hex'));
    const input = transactions ? { traceId, externalHash: trace.external_hash?.toString('base64') ?? null, transactions } : readById.get(traceId);
    if (input) inputs.push(input);
  }
  const directory = given ?? (await indexedTokenDirectory(client, inputs));
  const actions: ActionJson[] = [];
  for (const input of inputs) {
    try {
      actions.push(...classifyTrace(input, directory));
    } catch {
      // A trace the classifier cannot read keeps no actions rather than stopping the index.
    }
  }
  await insertActions(
    client,
    completed.map((t) => t.trace_id),
    actions,
  );
  return actions;
}

/**
 * The detected jetton wallets, NFT items (migration 3) and multisig orders (migration 4) among the accounts the traces
 * name, as the classifier's directory: toncenter's classifier reads the same detected contracts.
 */
export async function indexedTokenDirectory(client: ClientBase, inputs: readonly TraceInput[]): Promise<TokenDirectory> {
  const accounts = new Set<string>();
  for (const input of inputs) {
    for (const tx of input.transactions) {
      accounts.add(tx.account);
      for (const message of [tx.inMsg, ...tx.outMsgs]) {
        if (message?.source) accounts.add(message.source);
        if (message?.destination) accounts.add(message.destination);
      }
    }
  }
  if (accounts.size === 0) return EMPTY_DIRECTORY;
  const list = [...accounts];
  const wallets = await client.query<{ address: string; owner: string; jetton: string }>('select address, owner, jetton from jetton_wallets where address = any($1)', [list]);
  const items = await client.query<{ address: string; index: string; collection_address: string | null; code_hash: string | null }>(
    "select address, index::text as index, collection_address, encode(code_hash, 'base64') as code_hash from nft_items where address = any($1)",
    [list],
  );
  // Multisig orders (migration 4): their signers join the multisig actions' accounts.
  const orders = await client.query<{ address: string; signers: string[] | null }>('select address, signers from multisig_orders where address = any($1)', [list]);
  if (wallets.rows.length === 0 && items.rows.length === 0 && orders.rows.length === 0) return EMPTY_DIRECTORY;
  const walletMap = new Map(wallets.rows.map((r) => [r.address, { owner: r.owner, jetton: r.jetton }]));
  const itemMap = new Map(items.rows.map((r) => [r.address, { index: r.index, collection: r.collection_address, codeHash: r.code_hash }]));
  const orderMap = new Map(orders.rows.map((r) => [r.address, { signers: r.signers ?? [] }]));
  return { jettonWallet: (address) => walletMap.get(address), nftItem: (address) => itemMap.get(address), multisigOrder: (address) => orderMap.get(address) };
}
