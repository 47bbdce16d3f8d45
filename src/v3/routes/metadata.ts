import { ValidationError } from '../../errors';
import { toAccount } from '../params/rules';
import { metadataFor } from './common';
import { defineRoute } from './route';

/**
 * GetMetadata: the token_info of each token among the addresses (keyed by raw address; an address
 * that is no token, or does not parse, is left out), `is_indexed` false while a token's off-chain
 * document is not fetched (see docs/tokens.md, "Metadata").
 */
export const metadata = defineRoute({
  path: '/metadata',
  summary: 'Token metadata of addresses',
  parameters: [
    {
      name: 'address',
      type: 'string',
      list: true,
      required: true,
      description: 'List of addresses in any form to get address metadata. Max: 1024.',
    },
  ],
  parse(query) {
    const given = query.list('address');
    if (given.length === 0) throw new ValidationError('at least 1 address required');
    return { raws: given.map((g) => toAccount(g)?.raw ?? null) };
  },
  // The answer is the metadata itself: X-No-Metadata does not empty it (ton-index-go reads it only beside other answers).
  run: (context, { raws }) => metadataFor({ ...context, settings: { ...context.settings, noMetadata: false } }, raws),
});
