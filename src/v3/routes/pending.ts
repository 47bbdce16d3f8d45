import { expandActionTypes, selectActions, type ActionJson } from '../../actions';
import type { PendingTrace } from '../../emulate';
import { NotFoundError, ValidationError } from '../../errors';
import { assembleTrace, type TraceTransaction } from '../models/trace';
import { parseGroup, type V3Query } from '../params/query';
import { readSingle, toAccount, toBool } from '../params/rules';
import { accountList, addressBookFor, hashList, metadataFor } from './common';
import { defineRoute, type RouteContext } from './route';
import { toActionAnswer } from '../models/action';

/**
 * The pending routes: traces of messages sent through this server and not yet committed by the
 * index, emulated when they were sent (src/emulate/pending.ts), in ton-index-go's shapes
 * (crud_pending.go over its EmulatedTracesContext): traces with `trace_state: "pending"` and a
 * null `trace_id` (the root is emulated), transactions with `emulated: true` and finality
 * `pending`. Without a pending store (tests of the v3 app alone) the collections are empty.
 */

type Json = Record<string, unknown>;

/** A pending transaction as ton-index-go's emulated node converts it: no trace id (the root is emulated). */
function transactionJson(tx: PendingTrace['trace']['transactions'][number]): Json {
  return { ...tx.json, trace_id: null };
}

/** Messages ton-index-go counts in a pending trace: the inbound external and every out message. */
function messageCount(entry: PendingTrace): number {
  let count = 0;
  for (const { json } of entry.trace.transactions) {
    if (json.in_msg && json.in_msg.source === null) count += 1;
    count += json.out_msgs.length;
  }
  return count;
}

function pendingAction(action: ActionJson): Json {
  return { ...toActionAnswer(action, false), trace_id: null, finality: 'pending' };
}

/** models.Trace of a pending trace (FillFromRawData, then queryPendingTracesImpl). */
function traceJson(entry: PendingTrace, accepted: ReadonlySet<string>): Json {
  const txs = entry.trace.transactions;
  const root = txs[0]!.json;
  const messages = messageCount(entry);
  const list: TraceTransaction[] = txs.map((tx) => ({
    hash: tx.hash,
    inMsgHash: tx.json.in_msg?.hash,
    outMsgHashes: tx.json.out_msgs.map((m) => m.hash),
    json: transactionJson(tx),
  }));
  const { root: tree, warning } = assembleTrace(list);
  const json: Json = {
    trace_id: null,
    external_hash: entry.trace.externalHash,
    mc_seqno_start: String(root.mc_block_seqno),
    mc_seqno_end: String(Math.max(...txs.map((t) => t.json.mc_block_seqno))),
    start_lt: root.lt,
    start_utime: root.now,
    end_lt: txs.map((t) => BigInt(t.json.lt)).reduce((a, b) => (b > a ? b : a)).toString(),
    end_utime: Math.max(...txs.map((t) => t.json.now)),
    trace_info: {
      trace_state: 'pending',
      messages,
      transactions: txs.length,
      pending_messages: messages,
      classification_state: entry.actions.length > 0 ? 'ok' : 'unclassified',
    },
    is_incomplete: entry.trace.isIncomplete,
    actions: selectActions(entry.actions, accepted).map(pendingAction),
  };
  if (warning) json['warning'] = warning;
  if (tree) json['trace'] = tree;
  json['transactions_order'] = list.map((t) => t.hash);
  json['transactions'] = Object.fromEntries(list.map((t) => [t.hash, t.json]));
  return json;
}

/** Accounts an address book is given for: each transaction's account, in source, out destinations. */
function addressesOf(transactions: readonly Json[]): string[] {
  const out: string[] = [];
  for (const tx of transactions) {
    out.push(tx['account'] as string);
    const inMsg = tx['in_msg'] as { source: string | null } | null;
    if (inMsg?.source) out.push(inMsg.source);
    for (const m of tx['out_msgs'] as { destination: string | null }[]) if (m.destination) out.push(m.destination);
  }
  return out;
}

function supportedTypes(context: RouteContext, supported: readonly string[]): ReadonlySet<string> {
  const version = context.settings.actionsVersion;
  const names = version !== undefined ? [version] : supported;
  return expandActionTypes(names.length > 0 ? names : ['latest']);
}

export const pendingTransactions = defineRoute({
  path: '/pendingTransactions',
  // This server's emulated traces, in memory: nothing a commit of the index makes.
  notIndexed: true,
  summary: 'Transactions of pending (emulated) traces of messages sent through this server',
  parameters: [
    { name: 'account', type: 'string', list: true },
    { name: 'trace_id', type: 'string', list: true },
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      accounts: field(() => accountList(query, 'account')) ?? [],
      traceIds: field(() => hashList(query, 'trace_id')) ?? [],
    }));
    if (request.accounts.length === 0) throw new ValidationError('at least 1 account address required');
    return request;
  },
  async run(context, request) {
    // ton-index-go: by account (always given), only those accounts' emulated transactions.
    const accounts = new Set(request.accounts.map((a) => a.raw));
    const entries = (await context.pending?.findByAccount([...accounts])) ?? [];
    const onAccounts = entries.flatMap((entry) => entry.trace.transactions.filter((tx) => accounts.has(tx.json.account)).map((tx) => ({ entry, tx })));
    if (onAccounts.length === 0) throw new NotFoundError('emulated traces not found');
    // Transactions whose inbound message the index holds are not pending any more.
    const transactions = onAccounts.filter(({ entry, tx }) => !entry.landed.has(tx.hash)).map(({ tx }) => transactionJson(tx));
    const book = transactions.length === 0 ? {} : await addressBookFor(context, addressesOf(transactions));
    return { transactions, address_book: book };
  },
});

function pendingTraceRequest(query: V3Query) {
  const request = parseGroup((field) => ({
    account: field(() => readSingle(query, 'account', toAccount)),
    extMsgHashes: field(() => hashList(query, 'ext_msg_hash')) ?? [],
    includeTransactions: field(() => readSingle(query, 'include_transactions', toBool)),
  }));
  if (request.account === undefined && request.extMsgHashes.length === 0) {
    throw new ValidationError('account or ext_msg_hash should be specified');
  }
  return { ...request, supported: query.list('supported_action_types') };
}

/** By account when given (ton-index-go's order of the two), else by external hash (plain or normalized). */
async function entriesOf(context: RouteContext, request: ReturnType<typeof pendingTraceRequest>): Promise<PendingTrace[]> {
  const store = context.pending;
  if (!store) return [];
  return request.account !== undefined ? store.findByAccount([request.account.raw]) : store.findByExternalHash(request.extMsgHashes);
}

export const pendingTraces = defineRoute({
  path: '/pendingTraces',
  // This server's emulated traces, in memory: nothing a commit of the index makes.
  notIndexed: true,
  summary: 'Pending (emulated) traces of messages sent through this server',
  parameters: [
    { name: 'account', type: 'string' },
    { name: 'ext_msg_hash', type: 'string', list: true },
    { name: 'supported_action_types', type: 'string', list: true },
  ],
  parse: pendingTraceRequest,
  async run(context, request) {
    const accepted = supportedTypes(context, request.supported);
    const entries = await entriesOf(context, request);
    const traces = entries.map((entry) => traceJson(entry, accepted));
    const transactions = traces.flatMap((t) => Object.values(t['transactions'] as Record<string, Json>));
    const book = transactions.length === 0 ? {} : await addressBookFor(context, addressesOf(transactions));
    return { traces, address_book: book, metadata: await metadataFor(context, transactions.length === 0 ? [] : addressesOf(transactions)) };
  },
});

export const pendingActions = defineRoute({
  path: '/pendingActions',
  // This server's emulated traces, in memory: nothing a commit of the index makes.
  notIndexed: true,
  summary: 'Actions of pending (emulated) traces of messages sent through this server',
  parameters: [
    { name: 'account', type: 'string' },
    { name: 'ext_msg_hash', type: 'string', list: true },
    { name: 'supported_action_types', type: 'string', list: true },
    { name: 'include_transactions', type: 'boolean' },
  ],
  parse: pendingTraceRequest,
  async run(context, request) {
    const accepted = supportedTypes(context, request.supported);
    const entries = await entriesOf(context, request);
    const account = request.account?.raw;
    const actions: Json[] = [];
    const accounts: string[] = [];
    for (const entry of entries) {
      const byHash = new Map(entry.trace.transactions.map((tx) => [tx.hash, tx]));
      // ton-index-go's newest first: by end lt, then start lt, descending.
      const chosen = selectActions(entry.actions, accepted)
        .filter((a) => account === undefined || a.accounts.includes(account))
        .sort((a, b) => (BigInt(b.end_lt) === BigInt(a.end_lt) ? Number(BigInt(b.start_lt) - BigInt(a.start_lt)) : Number(BigInt(b.end_lt) - BigInt(a.end_lt))));
      for (const action of chosen) {
        accounts.push(...action.accounts);
        const json = pendingAction(action);
        if (request.includeTransactions) {
          json['transactions_full'] = action.transactions.flatMap((hash) => {
            const tx = byHash.get(hash);
            return tx ? [transactionJson(tx)] : [];
          });
        }
        actions.push(json);
      }
    }
    const book = accounts.length === 0 ? {} : await addressBookFor(context, accounts);
    return { actions, address_book: book, metadata: await metadataFor(context, accounts) };
  },
});
