import type { Pool } from 'pg';
import { expandActionTypes } from '../actions';
import { readCheckpoint, type JettonWalletRow } from '../indexdb';
import {
  assembleTrace,
  MAX_TRACE_TRANSACTIONS,
  messagesOf,
  queryActionsOfTraces,
  queryJettonWallets,
  toJettonWalletJson,
  type JettonWalletDbRow,
  queryAddressBook,
  queryAddressMetadata,
  queryTraceTransactions,
  queryTransactions,
  toAccountStateJson,
  toTransactionJson,
  v3DatabaseOf,
  type LoadedTransactions,
  type MetadataFetchRequests,
  type TraceTransaction,
  type V3Database,
} from '../v3';
import type { ReplaySource, SourceBlock } from './bus';
import type { AddressBookJson, MetadataJson, StreamEvent, TransactionItem } from './events';

/**
 * Builds the events of one committed masterchain block from the index's tables, with v3's reads
 * and converters (so a transaction in an event is exactly what /api/v3/transactions answers). Live
 * and replayed events come from the same function over the same rows, so a resumed client gets
 * what it would have got live. Per block, in this order:
 * - `transactions`: one per trace with transactions in the block (those transactions, descending lt);
 * - `account_state_change`: one per account the block changed (its state after its last transaction there);
 * - `actions`: one per trace that became complete in the block and has actions (the index classifies
 *   a trace when it completes, in the block's own database transaction);
 * - `trace`: one per trace that became complete in the block (the whole tree and its transactions).
 * Every event is `finalized`: the block is committed under a verified masterchain block.
 */

/** Most transactions a block's events are built from (a masterchain block of mainnet has a few hundred). */
const BLOCK_TRANSACTIONS_LIMIT = 100_000;

export interface TraceRowLite {
  trace_id: Buffer;
  external_hash_norm: Buffer | null;
  state: string | null;
  mc_seqno_end: number | null;
  nodes_: string | null;
}

const hex = (b: Buffer) => b.toString('hex');

/** Every action type (clients' supported_action_types pick among them per event). */
const ALL_ACTION_TYPES = [...expandActionTypes(['latest'])];

function transactionAddresses(loaded: LoadedTransactions, rows = loaded.rows): string[] {
  const out: string[] = [];
  for (const row of rows) {
    out.push(row.account);
    for (const message of messagesOf(loaded, row)) {
      if (message.direction === 'in' && message.source) out.push(message.source);
      if (message.direction === 'out' && message.destination) out.push(message.destination);
    }
  }
  return out;
}

export class IndexEventBuilder implements ReplaySource {
  private readonly db: V3Database;

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly testnet: boolean,
    /** --metadata-fetch's fetcher: token URIs the cache lacks are handed to it, as v3's routes do. */
    private readonly metadataFetch?: MetadataFetchRequests,
  ) {
    this.db = v3DatabaseOf(pool);
  }

  /** The checkpoint's masterchain block (the newest committed), null when the index is empty. */
  async committedSeqno(): Promise<number | null> {
    return (await readCheckpoint(this.pool))?.mcSeqno ?? null;
  }

  async oldestSeqno(): Promise<number | null> {
    return (await readCheckpoint(this.pool))?.firstMcSeqno ?? null;
  }

  async blocks(from: number, to: number): Promise<SourceBlock[]> {
    const rows = await this.db.query<{ seqno: number }>(
      'select seqno from blocks where workchain = -1 and seqno >= $1 and seqno <= $2 order by seqno',
      [from, to],
    );
    const out: SourceBlock[] = [];
    for (const row of rows) out.push(await this.build(Number(row.seqno)));
    return out;
  }

  private async addressBook(addresses: Iterable<string>): Promise<AddressBookJson> {
    const book = await queryAddressBook(this.db, addresses, this.testnet);
    return new Map([...book].map(([address, entry]) => [address, JSON.stringify(entry)]));
  }

  /**
   * The jetton wallets among the accounts of `loaded` in their state after the block: `known`, the
   * rows the pipeline committed with it (the writer's instance, live), else the index's stored ones
   * whose state is still that one (the index keeps each wallet's newest state: a wallet changed
   * again later has its event with the later block, so a replay ends at the same balance).
   */
  private async jettonWalletsAfter(loaded: LoadedTransactions, known?: readonly JettonWalletRow[]): Promise<JettonWalletDbRow[]> {
    const lastLt = new Map<string, string>();
    for (const row of loaded.rows) lastLt.set(row.account, String(row.lt));
    if (lastLt.size === 0) return [];
    const wallets = known
      ? known.map((row) => ({ ...row, last_transaction_lt: String(row.last_transaction_lt), mintless_amount: null, mintless_start_from: null, mintless_expire_at: null }))
      : await queryJettonWallets(this.db, { addresses: [...lastLt.keys()], owners: [], jettons: [], excludeZeroBalance: false }, { limit: lastLt.size, offset: 0, sort: undefined });
    const order = [...lastLt.keys()];
    return wallets
      .filter((wallet) => lastLt.get(wallet.address) === String(wallet.last_transaction_lt))
      .sort((a, b) => order.indexOf(a.address) - order.indexOf(b.address));
  }

  /**
   * The events of masterchain block `seqno` (committed). `wanted`: which of the address book and
   * the token metadata to look up (a query or two per event kind); live blocks only do when a
   * connection asked for them, as toncenter; replays always do.
   */
  async build(seqno: number, committedAt = Date.now(), wanted: WantedAnnotations = ALL_ANNOTATIONS, knownJettonWallets?: readonly JettonWalletRow[]): Promise<SourceBlock> {
    const loaded = await queryTransactions(this.db, { mcSeqno: seqno }, { limit: BLOCK_TRANSACTIONS_LIMIT, offset: 0, sort: 'asc' });
    if (loaded.rows.length === 0) return { mcSeqno: seqno, committedAt, events: [] };
    const traceIds = [...new Map(loaded.rows.filter((r) => r.trace_id).map((r) => [hex(r.trace_id!), r.trace_id!])).values()];
    const annotator = this.annotator(wanted);
    // One round trip for what depends only on the block's transactions.
    const [traceRows, annotations, jettonWallets] = await Promise.all([
      traceIds.length === 0
        ? Promise.resolve([] as TraceRowLite[])
        : this.db.query<TraceRowLite>('select trace_id, external_hash_norm, state, mc_seqno_end, nodes_ from traces where trace_id = any($1)', [traceIds]),
      annotationsOf(annotator, transactionAddresses(loaded)),
      this.jettonWalletsAfter(loaded, knownJettonWallets),
    ]);
    const completed = completedTraces(seqno, traceRows);
    const [actions, whole] =
      completed.length === 0
        ? [new Map<string, ActionOfTrace[]>(), undefined]
        : await Promise.all([
            queryActionsOfTraces(this.db, completed.map((t) => t.trace_id), ALL_ACTION_TYPES),
            queryTraceTransactions(this.db, completed.map((t) => t.trace_id)),
          ]);
    const events = await blockEvents({ loaded, traces: traceRows, completed, actions, whole, jettonWallets, transactionsAnnotations: annotations }, annotator);
    return { mcSeqno: seqno, committedAt, events };
  }

  private annotator(wanted: WantedAnnotations): Annotator {
    return {
      ...(wanted.addressBook ? { addressBook: (addresses: Iterable<string>) => this.addressBook(addresses) } : {}),
      ...(wanted.metadata ? { metadata: (addresses: Iterable<string>) => this.metadata(addresses) } : {}),
    };
  }

  private async metadata(addresses: Iterable<string>): Promise<MetadataJson> {
    const metadata = await queryAddressMetadata(this.db, [...addresses], this.metadataFetch);
    return new Map(Object.entries(metadata).map(([address, entry]) => [address, JSON.stringify(entry)]));
  }
}

/** Which annotations of the events to look up. */
export interface WantedAnnotations {
  readonly addressBook: boolean;
  readonly metadata: boolean;
}

export const ALL_ANNOTATIONS: WantedAnnotations = { addressBook: true, metadata: true };

/** How the address book and the token metadata of an event's addresses are looked up (either absent: not sent). */
export interface Annotator {
  readonly addressBook?: (addresses: Iterable<string>) => Promise<AddressBookJson>;
  readonly metadata?: (addresses: Iterable<string>) => Promise<MetadataJson>;
}

/** An event's `addressBook` and `metadata` fields, as the annotator gives them. */
export interface EventAnnotations {
  addressBook?: AddressBookJson;
  metadata?: MetadataJson;
}

async function annotationsOf(annotator: Annotator | undefined, addresses: readonly string[]): Promise<EventAnnotations> {
  const [addressBook, metadata] = await Promise.all([annotator?.addressBook?.(addresses), annotator?.metadata?.(addresses)]);
  return { ...(addressBook ? { addressBook } : {}), ...(metadata ? { metadata } : {}) };
}

type ActionOfTrace = Awaited<ReturnType<typeof queryActionsOfTraces>> extends Map<string, (infer A)[]> ? A : never;

/** The traces that became complete in masterchain block `seqno` (small enough to send whole). */
export function completedTraces<T extends TraceRowLite>(seqno: number, traces: readonly T[]): T[] {
  return traces.filter((t) => t.state === 'complete' && Number(t.mc_seqno_end) === seqno && Number(t.nodes_ ?? 0) <= MAX_TRACE_TRANSACTIONS);
}

/** What one masterchain block's events are built from, wherever the rows came from (the index, or blocks held in memory). */
export interface BlockEventInput {
  /** The block's transactions, ascending lt, with their messages and the account states known. */
  readonly loaded: LoadedTransactions;
  /** The traces of those transactions. */
  readonly traces: readonly TraceRowLite[];
  /** Those that became complete in the block (completedTraces). */
  readonly completed: readonly TraceRowLite[];
  /** Their classified actions by base64 trace id (none without the index). */
  readonly actions: ReadonlyMap<string, readonly ActionOfTrace[]>;
  /** Every transaction of the completed traces (ascending lt); undefined when none completed. */
  readonly whole: LoadedTransactions | undefined;
  /** The address book and metadata of the transactions event, when looked up. */
  readonly transactionsAnnotations?: EventAnnotations;
  /**
   * The jetton wallets among the block's accounts, in their state after the block (a wallet whose
   * stored state is a later one is left out: its later block has its event).
   */
  readonly jettonWallets?: readonly JettonWalletDbRow[];
}

/**
 * The events of one committed masterchain block, in delivery order (see the class comment): the
 * one function live, replayed and index-less events come from. `annotator` looks the address
 * book and metadata of the jetton, actions and trace events up (absent: none).
 */
export async function blockEvents(input: BlockEventInput, annotator?: Annotator): Promise<StreamEvent[]> {
  const { loaded, completed, whole } = input;
  const book = input.transactionsAnnotations ?? {};
  const traces = new Map<string, TraceRowLite>();
  for (const row of input.traces) traces.set(hex(row.trace_id), row);
  /** The key a trace is known by in events: its normalized external hash, else its id (no external message). */
  const traceKey = (traceId: Buffer | null, fallback: Buffer): string => {
    const trace = traceId ? traces.get(hex(traceId)) : undefined;
    return (trace?.external_hash_norm ?? traceId ?? fallback).toString('base64');
  };

  const events: StreamEvent[] = [];
  // transactions: grouped by trace, in the order of each trace's first transaction here.
  const groups = new Map<string, { key: string; items: TransactionItem[] }>();
  for (const row of loaded.rows) {
    const key = traceKey(row.trace_id, row.hash);
    const json = toTransactionJson(row, messagesOf(loaded, row), loaded.states);
    const group = groups.get(key) ?? { key, items: [] };
    group.items.push({ account: row.account, addresses: transactionAddresses(loaded, [row]), json: JSON.stringify(json) });
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    events.push({
      type: 'transactions',
      finality: 'finalized',
      traceExternalHashNorm: group.key,
      transactions: [...group.items].reverse(),
      ...book,
    });
  }
  // account_state_change: the state after each account's last transaction in the block.
  const lastByAccount = new Map<string, (typeof loaded.rows)[number]>();
  for (const row of loaded.rows) lastByAccount.set(row.account, row);
  for (const row of lastByAccount.values()) {
    const hash = row.account_state_hash_after;
    const state = hash ? loaded.states.get(hex(hash)) : undefined;
    if (!hash || !state) continue;
    events.push({ type: 'account_state_change', finality: 'finalized', account: row.account, stateJson: JSON.stringify(toAccountStateJson(hash, state)) });
  }
  // jettons_change: each jetton wallet the block changed, its state after the block.
  for (const wallet of input.jettonWallets ?? []) {
    const walletBook = await annotationsOf(annotator, [wallet.address, wallet.owner, wallet.jetton]);
    events.push({
      type: 'jettons_change',
      finality: 'finalized',
      wallet: wallet.address,
      owner: wallet.owner,
      jetton: wallet.jetton,
      jettonJson: JSON.stringify(toJettonWalletJson(wallet)),
      ...walletBook,
    });
  }
  if (completed.length === 0 || !whole) return events;
  // actions: of every trace that became complete in this block and has some.
  for (const trace of completed) {
    const list = input.actions.get(trace.trace_id.toString('base64')) ?? [];
    if (list.length === 0) continue;
    // ancestor_type selects what a client of an older actions version sees; it is never printed.
    const items = list.map(({ ancestor_type: ancestorTypes, ...action }) => ({ type: action.type, accounts: action.accounts, ancestorTypes, json: JSON.stringify(action) }));
    const actionBook = await annotationsOf(annotator, items.flatMap((item) => item.accounts));
    events.push({
      type: 'actions',
      finality: 'finalized',
      traceExternalHashNorm: traceKey(trace.trace_id, trace.trace_id),
      actions: items,
      ...actionBook,
    });
  }
  // trace: every trace that became complete in this block, whole.
  const byTrace = new Map<string, TraceTransaction[]>();
  const rowsByTrace = new Map<string, (typeof whole.rows)[number][]>();
  for (const row of whole.rows) {
    const messages = messagesOf(whole, row);
    const json = toTransactionJson(row, messages, whole.states);
    const id = row.trace_id ? hex(row.trace_id) : '';
    const list = byTrace.get(id) ?? [];
    list.push({
      hash: json['hash'] as string,
      inMsgHash: messages.find((m) => m.direction === 'in')?.msg_hash.toString('base64'),
      outMsgHashes: (json['out_msgs'] as { hash: string }[]).map((m) => m.hash),
      json,
    });
    byTrace.set(id, list);
    rowsByTrace.set(id, [...(rowsByTrace.get(id) ?? []), row]);
  }
  for (const trace of completed) {
    const transactions = byTrace.get(hex(trace.trace_id)) ?? [];
    const { root } = assembleTrace(transactions);
    if (!root) continue;
    const traceBook = await annotationsOf(annotator, transactionAddresses(whole, rowsByTrace.get(hex(trace.trace_id)) ?? []));
    events.push({
      type: 'trace',
      finality: 'finalized',
      traceExternalHashNorm: traceKey(trace.trace_id, trace.trace_id),
      traceJson: JSON.stringify(root),
      transactionsJson: JSON.stringify(Object.fromEntries(transactions.map((t) => [t.hash, t.json]))),
      ...traceBook,
    });
  }
  return events;
}
