import { ValidationError } from '../../errors';
import { toTraceJson, MAX_TRACE_TRANSACTIONS, type TraceTransaction } from '../models/trace';
import { toTransactionJson } from '../models/transaction';
import { b64 } from '../models/format';
import { parseGroup, type V3Query } from '../params/query';
import { readSingle, toAccount, toBool, toInt32 } from '../params/rules';
import { masterchainBlockExists } from '../sql/blocks';
import { queryTracesWithTransactions } from '../sql/traces';
import { messagesOf } from '../sql/transactions';
import { NotFoundError } from '../../errors';
import { addressBookFor, hashList, ltGroup, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, utimeGroup, metadataFor } from './common';
import { transactionAddresses } from '../sql/transactions';
import { defineRoute, type RouteContext } from './route';
import { expandActionTypes, selectActions } from '../../actions';
import { queryActionsOfTraces } from '../sql/actions';
import { toActionAnswer } from './actions';

/** models.TracesRequest, then "only one of" its four selectors. */
function tracesRequest(query: V3Query, events: boolean) {
  const request = parseGroup((field) => ({
    includeActions: field(() => readSingle(query, 'include_actions', toBool)) ?? false,
    account: field(() => readSingle(query, 'account', toAccount)),
    traceIds: field(() => hashList(query, 'trace_id')) ?? [],
    txHashes: field(() => hashList(query, 'tx_hash')) ?? [],
    msgHashes: field(() => hashList(query, 'msg_hash')) ?? [],
    mcSeqno: field(() => readSingle(query, 'mc_seqno', toInt32)),
  }));
  const utime = utimeGroup(query);
  const lt = ltGroup(query);
  const paging = pagingGroup(query);
  const selectors = [request.account !== undefined, request.traceIds.length > 0, request.txHashes.length > 0, request.msgHashes.length > 0];
  if (selectors.filter(Boolean).length > 1) {
    throw new ValidationError('only one of account, trace_id, tx_hash, msg_hash should be specified');
  }
  const supported = query.list('supported_action_types');
  return { ...request, includeActions: events || request.includeActions, supported, utime, lt, paging };
}

async function runTraces(context: RouteContext, request: ReturnType<typeof tracesRequest>) {
  const { db } = context;
  if (request.mcSeqno !== undefined && !(await masterchainBlockExists(db, request.mcSeqno))) {
    throw new NotFoundError(`masterchain block ${request.mcSeqno} not found`);
  }
  const { traces: rows, loaded } = await queryTracesWithTransactions(
    db,
    {
      account: request.account?.raw,
      traceIds: request.traceIds,
      txHashes: request.txHashes,
      msgHashes: request.msgHashes,
      mcSeqno: request.mcSeqno,
      ...request.utime,
      ...request.lt,
    },
    request.paging,
    { addressBook: !context.settings.noAddressBook, maxTransactions: MAX_TRACE_TRANSACTIONS },
  );
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
    toTraceJson(row, Number(row.nodes_ ?? 0) > MAX_TRACE_TRANSACTIONS ? null : (byTrace.get(b64(row.trace_id)) ?? []), request.includeActions),
  );
  if (request.includeActions) await attachActions(context, rows.map((r) => r.trace_id), traces, request.supported);
  const addresses = transactionAddresses(loaded);
  const addressBook = addresses.length === 0 ? {} : await addressBookFor(context, addresses, loaded);
  return { traces, addressBook, metadata: await metadataFor(context, addresses) };
}

/** include_actions: each trace's stored actions of the accepted types (src/actions fills them). */
async function attachActions(context: RouteContext, traceIds: readonly Buffer[], traces: Record<string, unknown>[], supported: readonly string[]) {
  const version = context.settings.actionsVersion;
  const accepted = expandActionTypes(version !== undefined ? [version] : supported.length > 0 ? supported : ['latest']);
  const byTrace = await queryActionsOfTraces(context.db, traceIds, [...accepted]);
  for (const trace of traces) {
    const list = selectActions(byTrace.get(trace['trace_id'] as string) ?? [], accepted);
    trace['actions'] = list.map((a) => toActionAnswer(a, false));
    const info = trace['trace_info'] as Record<string, unknown>;
    if (list.length > 0) info['classification_state'] = 'ok';
  }
}

const TRACE_PARAMETERS = [
  { name: 'account', type: 'string' },
  { name: 'trace_id', type: 'string', list: true },
  { name: 'tx_hash', type: 'string', list: true },
  { name: 'msg_hash', type: 'string', list: true },
  { name: 'mc_seqno', type: 'integer' },
  ...RANGE_PARAMETERS,
  { name: 'include_actions', type: 'boolean' },
  { name: 'supported_action_types', type: 'string', list: true },
  ...PAGING_PARAMETERS,
] as const;

/** GetTraces: trace trees by account, trace id, transaction or message; the newest by default. */
export const traces = defineRoute({
  path: '/traces',
  summary: 'Traces (trees of transactions) by filters',
  parameters: TRACE_PARAMETERS,
  parse: (query) => tracesRequest(query, false),
  async run(context, request) {
    const { traces: list, addressBook, metadata } = await runTraces(context, request);
    return { traces: list, address_book: addressBook, metadata };
  },
});

/** /events: the same with actions always included, under the key `events`. */
export const events = defineRoute({
  path: '/events',
  summary: 'Traces with actions (deprecated alias of traces)',
  parameters: TRACE_PARAMETERS,
  parse: (query) => tracesRequest(query, true),
  async run(context, request) {
    const { traces: list, addressBook, metadata } = await runTraces(context, request);
    return { events: list, address_book: addressBook, metadata };
  },
});
