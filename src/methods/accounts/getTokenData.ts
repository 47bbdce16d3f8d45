import { friendlyAddress, rawAddressUpper } from '../../converters';
import { masterchainBlockAt, tokenDataAt } from '../../chain';
import { type ParsedAddress, param } from '../../params';
import { atSeqno, defineHandler } from '../define';
import { str } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

/** The address as toncenter echoes it: raw upper-case, or the URL-safe form with the caller's flags. */
function echoedAddress(parsed: ParsedAddress): string {
  if (parsed.form === 'raw_form') return rawAddressUpper(parsed.address);
  return friendlyAddress(parsed.address, { bounceable: parsed.bounceable, testOnly: parsed.testOnly });
}

export default defineHandler({
  name: 'getTokenData',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Jetton master/wallet or NFT collection/item data of a contract.',
  cache: 'seqno',
  session: atSeqno,
  result: {
    type: 'object',
    required: ['@type', 'address', 'contract_type'],
    properties: {
      '@type': {
        enum: ['ext.tokens.jettonMasterData', 'ext.tokens.jettonWalletData', 'ext.tokens.nftCollectionData', 'ext.tokens.nftItemData'],
      },
      address: str(),
      contract_type: { enum: ['jetton_master', 'jetton_wallet', 'nft_collection', 'nft_item'] },
    },
  },
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    const block = await masterchainBlockAt(session, p.seqno);
    return tokenDataAt(session, block, { address: p.address.address, echoed: echoedAddress(p.address), deadline: ctx.deadline });
  },
});
