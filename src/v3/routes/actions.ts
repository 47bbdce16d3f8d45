import { expandActionTypes, selectActions } from '../../actions';
import { ValidationError } from '../../errors';
import { toActionAnswer } from '../models/action';
import { parseGroup, type V3Query } from '../params/query';
import { readSingle, toAccount, toBool, toInt32 } from '../params/rules';
import { parseJsonText } from '../sql/bundle';
import { queryActions, queryActionsText } from '../sql/actions';
import { addressBookFor, assembled, hashList, ltGroup, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, utimeGroup, metadataFor } from './common';
import { defineRoute, type RouteContext } from './route';

/** Longest action type name accepted in a filter (ton-index-go's validateActionTypeFilter bounds names). */
const MAX_TYPE_NAME = 64;

function typeList(query: V3Query, name: string): string[] {
  const values = query.list(name);
  for (const value of values) {
    if (value.length > MAX_TYPE_NAME || !/^[a-z0-9_.]+$/.test(value)) throw new ValidationError(`invalid ${name}: ${value.slice(0, MAX_TYPE_NAME)}`);
  }
  return values;
}

/** models.ActionRequest. */
export function actionGroup(query: V3Query) {
  return parseGroup((field) => ({
    account: field(() => readSingle(query, 'account', toAccount)),
    txHashes: field(() => hashList(query, 'tx_hash')) ?? [],
    msgHashes: field(() => hashList(query, 'msg_hash')) ?? [],
    traceIds: field(() => hashList(query, 'trace_id')) ?? [],
    actionIds: field(() => hashList(query, 'action_id')) ?? [],
    mcSeqno: field(() => readSingle(query, 'mc_seqno', toInt32)),
    includeAccounts: field(() => readSingle(query, 'include_accounts', toBool)) ?? false,
  }));
}

/** models.ActionRequest and its type filters (the route's parameters). */
export function actionsRequest(query: V3Query) {
  const filter = actionGroup(query);
  const includeTypes = typeList(query, 'action_type');
  const excludeTypes = typeList(query, 'exclude_action_type');
  const supported = typeList(query, 'supported_action_types');
  return { ...filter, includeTypes, excludeTypes, supported, utime: utimeGroup(query), lt: ltGroup(query), paging: pagingGroup(query) };
}

type ActionsRequest = ReturnType<typeof actionsRequest>;

/** The types the client accepts (X-Actions-Version, else supported_action_types, else latest) and the page's filter. */
function actionsFilter(context: RouteContext, params: ActionsRequest) {
  const version = context.settings.actionsVersion;
  const supportedNames = version !== undefined ? [version] : params.supported.length > 0 ? params.supported : ['latest'];
  const accepted = expandActionTypes(supportedNames);
  const types = [...accepted].filter((t) => (params.includeTypes.length === 0 || params.includeTypes.includes(t)) && !params.excludeTypes.includes(t));
  return { accepted, filter: { ...params, types, ...params.utime, ...params.lt } };
}

/**
 * models.ActionsResponse of rows the driver parsed, as objects: what the route answered before its
 * answers were assembled from PostgreSQL's JSON text (answers/assemble.ts), and the reference those
 * bytes are checked against (test/e2e/v3AnswerThreads.test.ts).
 */
export async function actionsResponse(context: RouteContext, params: ActionsRequest) {
  const { accepted, filter } = actionsFilter(context, params);
  const rows = await queryActions(context.db, filter, params.paging);
  const list = selectActions(rows, accepted);
  const book = list.length === 0 ? {} : await addressBookFor(context, list.flatMap((a) => a.accounts));
  return { actions: list.map((a) => toActionAnswer(a, params.includeAccounts)), address_book: book, metadata: await metadataFor(context, list.flatMap((a) => a.accounts)) };
}

/** GetActions: actions of the index by account, transaction, message, trace, action id, time/lt. */
export const actions = defineRoute({
  path: '/actions',
  summary: 'Actions (classified traces)',
  parameters: [
    { name: 'account', type: 'string' },
    { name: 'tx_hash', type: 'string', list: true },
    { name: 'msg_hash', type: 'string', list: true },
    { name: 'trace_id', type: 'string', list: true },
    { name: 'action_id', type: 'string', list: true },
    { name: 'mc_seqno', type: 'integer' },
    { name: 'action_type', type: 'string', list: true },
    { name: 'exclude_action_type', type: 'string', list: true },
    { name: 'supported_action_types', type: 'string', list: true, description: 'Types and shortcuts (v1..latest); X-Actions-Version overrides.' },
    { name: 'include_accounts', type: 'boolean' },
    ...RANGE_PARAMETERS,
    ...PAGING_PARAMETERS,
  ],
  parse: actionsRequest,
  async run(context, params) {
    // The page as PostgreSQL's JSON text, converted and written where the context says (a thread for a large page).
    const { accepted, filter } = actionsFilter(context, params);
    const page = await queryActionsText(context.db, filter, params.paging, { accepted, addressBook: !context.settings.noAddressBook });
    const metadata = context.settings.noMetadata ? {} : await metadataFor(context, parseJsonText<string[]>(page.accounts) ?? []);
    return assembled(context, {
      kind: 'actions',
      rows: page.rows,
      ...(page.codes !== undefined ? { codes: page.codes } : {}),
      includeAccounts: params.includeAccounts,
      testnet: context.settings.testnet,
      metadata,
    });
  },
});
