import { ValidationError } from '../../errors';
import { MAX_TRACE_TRANSACTIONS, tracesJson } from '../models/trace';
import { parseGroup, type V3Query } from '../params/query';
import { readSingle, toAccount, toBool, toInt32 } from '../params/rules';
import { masterchainBlockExists } from '../sql/blocks';
import { parseJsonText } from '../sql/bundle';
import { queryTracesText, queryTracesWithTransactions, type TraceFilter } from '../sql/traces';
import { NotFoundError } from '../../errors';
import { addressBookFor, assembled, hashList, ltGroup, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, utimeGroup, metadataFor } from './common';
import { transactionAddresses } from '../sql/transactions';
import { defineRoute, type JsonBytes, type RouteContext } from './route';
import { expandActionTypes, selectActions } from '../../actions';
import { queryActionsOfTraces } from '../sql/actions';

/** models.TracesRequest, then "only one of" its four selectors. */
export function tracesRequest(query: V3Query, events: boolean) {
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

type TracesRequest = ReturnType<typeof tracesRequest>;

/** The page's filter; a block that does not exist is a 404 (ton-index-go's). */
async function tracesFilter(context: RouteContext, request: TracesRequest): Promise<TraceFilter> {
  if (request.mcSeqno !== undefined && !(await masterchainBlockExists(context.db, request.mcSeqno))) {
    throw new NotFoundError(`masterchain block ${request.mcSeqno} not found`);
  }
  return {
    account: request.account?.raw,
    traceIds: request.traceIds,
    txHashes: request.txHashes,
    msgHashes: request.msgHashes,
    mcSeqno: request.mcSeqno,
    ...request.utime,
    ...request.lt,
  };
}

/** The action types include_actions shows (X-Actions-Version, else supported_action_types, else latest). */
function acceptedTypes(context: RouteContext, supported: readonly string[]): Set<string> {
  const version = context.settings.actionsVersion;
  return expandActionTypes(version !== undefined ? [version] : supported.length > 0 ? supported : ['latest']);
}

/**
 * The page's rows as PostgreSQL's JSON text (one statement), converted and written where the
 * context says (answers/pool.ts: a thread for a large page); the metadata's statements on the
 * event loop.
 */
async function runTraces(context: RouteContext, request: TracesRequest, key: 'traces' | 'events'): Promise<JsonBytes> {
  const filter = await tracesFilter(context, request);
  const page = await queryTracesText(context.db, filter, request.paging, {
    addressBook: !context.settings.noAddressBook,
    maxTransactions: MAX_TRACE_TRANSACTIONS,
    ...(request.includeActions ? { actions: acceptedTypes(context, request.supported) } : {}),
  });
  const metadata = context.settings.noMetadata ? {} : await metadataFor(context, parseJsonText<string[]>(page.addresses) ?? []);
  return assembled(context, {
    kind: 'traces',
    key,
    text: page.text,
    traces: page.traces,
    includeActions: request.includeActions,
    actions: page.actions ?? null,
    testnet: context.settings.testnet,
    metadata,
  });
}

/**
 * models.TracesResponse of rows the driver parsed, as objects: what the routes answered before
 * their answers were assembled from PostgreSQL's JSON text (answers/assemble.ts), and the reference
 * those bytes are checked against (test/e2e/v3AnswerThreads.test.ts).
 */
export async function tracesResponse(context: RouteContext, request: TracesRequest) {
  const filter = await tracesFilter(context, request);
  const { traces: rows, loaded } = await queryTracesWithTransactions(context.db, filter, request.paging, {
    addressBook: !context.settings.noAddressBook,
    maxTransactions: MAX_TRACE_TRANSACTIONS,
  });
  let actions: Map<string, ReturnType<typeof selectActions>> | undefined;
  if (request.includeActions) {
    const accepted = acceptedTypes(context, request.supported);
    const byTrace = await queryActionsOfTraces(context.db, rows.map((r) => r.trace_id), [...accepted]);
    actions = new Map([...byTrace].map(([trace, list]) => [trace, selectActions(list, accepted)]));
  }
  const traces = tracesJson(rows, loaded, request.includeActions, actions);
  const addresses = transactionAddresses(loaded);
  const addressBook = addresses.length === 0 ? {} : await addressBookFor(context, addresses, loaded);
  return { traces, addressBook, metadata: await metadataFor(context, addresses) };
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
  run: (context, request) => runTraces(context, request, 'traces'),
});

/** /events: the same with actions always included, under the key `events`. */
export const events = defineRoute({
  path: '/events',
  summary: 'Traces with actions (deprecated alias of traces)',
  parameters: TRACE_PARAMETERS,
  parse: (query) => tracesRequest(query, true),
  run: (context, request) => runTraces(context, request, 'events'),
});
