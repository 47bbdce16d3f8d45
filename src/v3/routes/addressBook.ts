import { ValidationError } from '../../errors';
import { toAccount } from '../params/rules';
import { ADDR_NONE } from '../models/format';
import { queryAddressBook } from '../sql/accounts';
import { defineRoute } from './route';

/**
 * GetAddressBook: keyed by the addresses as the client wrote them; one that does not parse gets
 * `user_friendly: "addr_none"` (GetAccountAddressFriendly's answer for it), not an error.
 */
export const addressBook = defineRoute({
  path: '/addressBook',
  summary: 'Friendly forms of addresses',
  parameters: [{ name: 'address', type: 'string', list: true, required: true }],
  parse(query) {
    const given = query.list('address');
    if (given.length === 0) throw new ValidationError('at least 1 address required');
    return { given };
  },
  async run(context, { given }) {
    const raw = new Map(given.map((g) => [g, toAccount(g)?.raw]));
    const known = [...raw.values()].filter((r): r is string => r !== undefined);
    const book = await queryAddressBook(context.db, known, context.settings.testnet);
    const out: Record<string, unknown> = {};
    for (const [text, account] of raw) {
      out[text] = (account && book.get(account)) ?? { user_friendly: ADDR_NONE, domain: null, interfaces: [] };
    }
    return out;
  },
});
