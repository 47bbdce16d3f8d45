import { ValidationError } from '../../errors';
import { parseGroup } from '../params/query';
import { readSingle, toAccount, toBool } from '../params/rules';
import { accountList, hashList } from './common';
import { defineRoute } from './route';

/**
 * The pending (emulated) routes: ton-index-go's validations, then an empty collection. Their data
 * is emulated traces of messages not yet in a block, which come with the emulation issue.
 */

export const pendingTransactions = defineRoute({
  path: '/pendingTransactions',
  summary: 'Transactions of pending (emulated) traces; empty until emulation lands',
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
  run: async () => ({ transactions: [], address_book: {} }),
});

function pendingTraceRequest(query: import('../params/query').V3Query) {
  const request = parseGroup((field) => ({
    account: field(() => readSingle(query, 'account', toAccount)),
    extMsgHashes: field(() => hashList(query, 'ext_msg_hash')) ?? [],
    includeTransactions: field(() => readSingle(query, 'include_transactions', toBool)),
  }));
  if (request.account === undefined && request.extMsgHashes.length === 0) {
    throw new ValidationError('account or ext_msg_hash should be specified');
  }
  return request;
}

export const pendingTraces = defineRoute({
  path: '/pendingTraces',
  summary: 'Pending (emulated) traces; empty until emulation lands',
  parameters: [
    { name: 'account', type: 'string' },
    { name: 'ext_msg_hash', type: 'string', list: true },
  ],
  parse: pendingTraceRequest,
  run: async () => ({ traces: [], address_book: {}, metadata: {} }),
});

export const pendingActions = defineRoute({
  path: '/pendingActions',
  summary: 'Actions of pending (emulated) traces; empty until emulation lands',
  parameters: [
    { name: 'account', type: 'string' },
    { name: 'ext_msg_hash', type: 'string', list: true },
    { name: 'include_transactions', type: 'boolean' },
  ],
  parse: pendingTraceRequest,
  run: async () => ({ actions: [], address_book: {}, metadata: {} }),
});
