import type { ActionJson } from '../../actions';
import { b64, num, str64, type Bytes } from './format';
import type { TraceRow } from '../sql/traces';
import { messagesOf, type LoadedTransactions } from '../sql/transactions';
import { toTransactionJson } from './transaction';
import { toActionAnswer } from './action';

/** ton-index-go's `--max-trace-txs`: a larger trace comes without its transactions. */
export const MAX_TRACE_TRANSACTIONS = 4000;

export interface TraceTransaction {
  hash: string;
  inMsgHash: string | undefined;
  outMsgHashes: string[];
  json: Record<string, unknown>;
}

interface TraceNodeJson {
  tx_hash?: string;
  in_msg_hash?: string;
  children: TraceNodeJson[] | null;
}

/**
 * AssembleTraceTxsFromMap: transactions in (lt, account) order; each one's out messages wait for
 * the transaction they reach; the first without a waiting parent is the root, a second one is a
 * "missing node in trace found" warning. A node with out messages none of which was delivered
 * keeps `children: null`, as Go's nil slice marshals.
 */
export function assembleTrace(transactions: readonly TraceTransaction[]): { root: TraceNodeJson | null; warning: string | null } {
  const waiting = new Map<string, TraceNodeJson>();
  let root: TraceNodeJson | null = null;
  let warning: string | null = null;
  for (const tx of transactions) {
    const node: TraceNodeJson = { tx_hash: tx.hash, children: tx.outMsgHashes.length === 0 ? [] : null };
    if (tx.inMsgHash) node.in_msg_hash = tx.inMsgHash;
    for (const hash of tx.outMsgHashes) waiting.set(hash, node);
    const parent = tx.inMsgHash === undefined ? undefined : waiting.get(tx.inMsgHash);
    if (parent) {
      waiting.delete(tx.inMsgHash!);
      (parent.children ??= []).push(node);
    } else if (root === null) {
      root = node;
    } else {
      warning = 'missing node in trace found';
    }
  }
  return { root, warning };
}

/** models.Trace. */
export function toTraceJson(row: TraceRow, transactions: readonly TraceTransaction[] | null, includeActions: boolean): Record<string, unknown> {
  const json: Record<string, unknown> = {
    trace_id: b64(row.trace_id),
    external_hash: b64(row.external_hash),
    mc_seqno_start: String(row.mc_seqno_start ?? 0),
    mc_seqno_end: String(row.mc_seqno_end ?? 0),
    start_lt: str64(row.start_lt) ?? '0',
    start_utime: row.start_utime ?? 0,
    end_lt: str64(row.end_lt),
    end_utime: row.end_utime,
    trace_info: {
      trace_state: row.state ?? '',
      messages: num(row.edges_) ?? 0,
      transactions: num(row.nodes_) ?? 0,
      pending_messages: num(row.pending_edges_) ?? 0,
      classification_state: 'unclassified',
    },
    is_incomplete: transactions === null,
  };
  const warnings: string[] = [];
  if (transactions === null) warnings.push('trace is too large');
  // Actions come with the action issue: an empty list when asked for.
  if (includeActions) json['actions'] = [];
  if (transactions && transactions.length > 0) {
    const { root, warning } = assembleTrace(transactions);
    if (warning) warnings.push(warning);
    if (root) json['trace'] = root;
    json['transactions_order'] = transactions.map((t) => t.hash);
    json['transactions'] = Object.fromEntries(transactions.map((t) => [t.hash, t.json]));
  }
  if (warnings.length > 0) json['warning'] = warnings.join(', ');
  return json;
}

/**
 * models.Trace of each row of a page: its transactions (`loaded`: those of the traces with at most
 * MAX_TRACE_TRANSACTIONS, by trace, lt, account) as a tree, and with `include_actions` its actions
 * (`actions`: each trace's, by its base64 id, already those selectActions keeps). The one
 * conversion of the route, on the event loop or in an answer thread (src/v3/answers).
 */
export function tracesJson<B extends Bytes>(
  rows: readonly TraceRow[],
  loaded: LoadedTransactions<B>,
  includeActions: boolean,
  actions: ReadonlyMap<string, readonly ActionJson[]> | undefined,
): Record<string, unknown>[] {
  const byTrace = new Map<string, TraceTransaction[]>();
  for (const row of loaded.rows) {
    const messages = messagesOf(loaded, row);
    const key = b64(row.trace_id) ?? '';
    const list = byTrace.get(key) ?? [];
    const json = toTransactionJson(row, messages, loaded.states);
    list.push({
      hash: json['hash'] as string,
      inMsgHash: b64(messages.find((m) => m.direction === 'in')?.msg_hash) ?? undefined,
      outMsgHashes: (json['out_msgs'] as { hash: string }[]).map((m) => m.hash),
      json,
    });
    byTrace.set(key, list);
  }
  const traces = rows.map((row) =>
    toTraceJson(row, Number(row.nodes_ ?? 0) > MAX_TRACE_TRANSACTIONS ? null : (byTrace.get(b64(row.trace_id)) ?? []), includeActions),
  );
  if (includeActions) {
    // Each trace's stored actions of the accepted types (src/actions fills them).
    for (const trace of traces) {
      const list = actions?.get(trace['trace_id'] as string) ?? [];
      trace['actions'] = list.map((a) => toActionAnswer(a, false));
      const info = trace['trace_info'] as Record<string, unknown>;
      if (list.length > 0) info['classification_state'] = 'ok';
    }
  }
  return traces;
}

/** Actions grouped by their trace (base64 id), each group in the order given. */
export function actionsByTrace(actions: readonly ActionJson[]): Map<string, ActionJson[]> {
  const out = new Map<string, ActionJson[]>();
  for (const action of actions) {
    const list = out.get(action.trace_id);
    if (list) list.push(action);
    else out.set(action.trace_id, [action]);
  }
  return out;
}
