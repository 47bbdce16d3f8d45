import type { EmulatedTrace } from '../emulate';
import { assembleTrace } from '../v3';
import type { StreamEvent, TransactionItem } from './events';

/**
 * The `pending` events of a trace emulated when its message was sent through this server
 * (src/emulate/pending.ts), as ton-streaming-go sends its emulated traces: one `transactions`
 * event (descending lt) and one `trace` event, finality `pending`. They carry no event id (they
 * are no committed block's, so nothing to resume from); the index's events for the same trace
 * follow when its block is committed, and `trace_invalidated` when it expires instead.
 */
export function pendingEvents(trace: EmulatedTrace): StreamEvent[] {
  const key = trace.externalHashNorm;
  const jsons = trace.transactions.map((tx) => ({ ...tx.json, trace_id: null }));
  const items: TransactionItem[] = jsons.map((json) => ({
    account: json.account,
    addresses: [json.account, ...(json.in_msg?.source ? [json.in_msg.source] : []), ...json.out_msgs.flatMap((m) => (m.destination ? [m.destination] : []))],
    json: JSON.stringify(json),
  }));
  const { root } = assembleTrace(
    jsons.map((json) => ({ hash: json.hash, inMsgHash: json.in_msg?.hash, outMsgHashes: json.out_msgs.map((m) => m.hash), json })),
  );
  const events: StreamEvent[] = [{ type: 'transactions', finality: 'pending', traceExternalHashNorm: key, transactions: [...items].reverse() }];
  if (root) {
    events.push({
      type: 'trace',
      finality: 'pending',
      traceExternalHashNorm: key,
      traceJson: JSON.stringify(root),
      transactionsJson: JSON.stringify(Object.fromEntries(jsons.map((json) => [json.hash, json]))),
    });
  }
  return events;
}
