import { toMessageJson } from '../models/message';
import { checkDirection, toHash } from '../params/rules';
import { queryMessages } from '../sql/messages';
import { addressBookFor, ltGroup, messageAddresses, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, utimeGroup, metadataFor } from './common';
import { defineRoute } from './route';
import { messageGroup } from './transactionsByMessage';

/** GetMessages: messages by hash, source/destination (`null` for none), opcode, body hash, ranges. */
export const messages = defineRoute({
  path: '/messages',
  summary: 'Messages by filters',
  parameters: [
    { name: 'msg_hash', type: 'string', list: true },
    { name: 'body_hash', type: 'string' },
    { name: 'source', type: 'string' },
    { name: 'destination', type: 'string' },
    { name: 'opcode', type: 'string' },
    ...RANGE_PARAMETERS,
    { name: 'direction', type: 'string' },
    { name: 'exclude_externals', type: 'boolean' },
    { name: 'only_externals', type: 'boolean' },
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const message = messageGroup(query);
    // `hash` is an alias of one msg_hash; ton-index-go drops an unreadable one silently.
    const alias = query.single('hash');
    const aliasHash = alias === undefined ? undefined : toHash(alias);
    const msgHashes = message.msgHashes.length === 0 && aliasHash ? [aliasHash] : message.msgHashes;
    const utime = utimeGroup(query);
    const lt = ltGroup(query);
    const paging = pagingGroup(query);
    return { ...message, msgHashes, direction: checkDirection(message.direction), utime, lt, paging };
  },
  async run(context, { utime, lt, paging, ...filter }) {
    const rows = await queryMessages(context.db, { ...filter, ...utime, ...lt }, paging);
    const addresses = messageAddresses(rows);
    return {
      messages: rows.map(toMessageJson),
      address_book: addresses.length === 0 ? {} : await addressBookFor(context, addresses),
      metadata: await metadataFor(context, addresses),
    };
  },
});
