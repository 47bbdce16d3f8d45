import { ValidationError } from '../../errors';
import { parseGroup, type V3Query } from '../params/query';
import { checkDirection, readSingle, toBool, toHash, toNullableAccount, toOpcode } from '../params/rules';
import { queryTransactionPageText } from '../sql/transactions';
import { hashList, loadOptions, PAGING_PARAMETERS, pagingGroup, transactionsAnswer } from './common';
import { defineRoute } from './route';

/** models.MessageRequest (shared with messages). `direction` is checked by the routes that check it. */
export function messageGroup(query: V3Query) {
  return parseGroup((field) => ({
    direction: query.single('direction'),
    excludeExternals: field(() => readSingle(query, 'exclude_externals', toBool)),
    onlyExternals: field(() => readSingle(query, 'only_externals', toBool)),
    msgHashes: field(() => hashList(query, 'msg_hash')) ?? [],
    source: field(() => readSingle(query, 'source', toNullableAccount)),
    destination: field(() => readSingle(query, 'destination', toNullableAccount)),
    bodyHash: field(() => readSingle(query, 'body_hash', toHash)),
    opcode: field(() => readSingle(query, 'opcode', toOpcode)),
  }));
}

/** GetTransactionsByMessage: transactions whose in/out message has the hash (or normalized hash). */
export const transactionsByMessage = defineRoute({
  path: '/transactionsByMessage',
  summary: 'Transactions by message hash, body hash or opcode',
  parameters: [
    { name: 'msg_hash', type: 'string' },
    { name: 'body_hash', type: 'string' },
    { name: 'opcode', type: 'string' },
    { name: 'direction', type: 'string' },
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const message = messageGroup(query);
    const paging = pagingGroup(query);
    const direction = checkDirection(message.direction);
    if (message.bodyHash === undefined && message.msgHashes.length === 0 && message.opcode === undefined) {
      throw new ValidationError('at least one of msg_hash, body_hash, opcode should be specified');
    }
    return { ...message, direction, paging };
  },
  async run(context, { direction, msgHashes, bodyHash, opcode, paging }) {
    const text = await queryTransactionPageText(context.db, { direction, msgHashes, bodyHash, opcode }, paging, loadOptions(context));
    return transactionsAnswer(context, text);
  },
});
