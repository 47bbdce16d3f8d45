import { checkDirection, toHash } from '../params/rules';
import { queryMessagesText } from '../sql/messageText';
import { addressBookFor, assembled, ltGroup, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, utimeGroup, metadataFor } from './common';
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
    // The rows as PostgreSQL's JSON text, converted and written where the context says (a thread for a large page).
    const page = await queryMessagesText(context.db, { ...filter, ...utime, ...lt }, paging);
    const addresses = page.addresses;
    const addressBook = addresses.length === 0 ? {} : await addressBookFor(context, addresses);
    const metadata = await metadataFor(context, addresses);
    return assembled(context, { kind: 'messages', rows: page.rows, addressBook, metadata });
  },
});
