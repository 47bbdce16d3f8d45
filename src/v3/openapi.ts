import { V3_ROUTES } from './routes';
import type { AnyRoute, RouteParameter } from './routes/route';

/**
 * The indexed v3 routes as OpenAPI 3.1 path items, for the project's one document (served with
 * Swagger UI at /api/v2/ and /api/v3/). Answers are described by their envelope key; the field
 * lists are ton-index-go's models (docs/v3.md).
 */

const ENVELOPES: Readonly<Record<string, string>> = {
  '/masterchainInfo': '`{last, first}`: Block objects',
  '/blocks': '`{blocks: Block[]}`',
  '/masterchainBlockShardState': '`{blocks: Block[]}`',
  '/masterchainBlockShards': '`{blocks: Block[]}`',
  '/transactions': '`{transactions: Transaction[], address_book}`',
  '/transactionsByMasterchainBlock': '`{transactions: Transaction[], address_book}`',
  '/transactionsByMessage': '`{transactions: Transaction[], address_book}`',
  '/adjacentTransactions': '`{transactions: Transaction[], address_book}`',
  '/pendingTransactions': '`{transactions: Transaction[], address_book}`',
  '/messages': '`{messages: Message[], address_book, metadata}`',
  '/topAccountsByBalance': '`[{account, balance}]`',
  '/addressBook': '`{<address as given>: {user_friendly, domain, interfaces}}`',
  '/accountStates': '`{accounts: AccountStateFull[], address_book, metadata}`',
  '/walletStates': '`{wallets: WalletState[], address_book, metadata}`',
  '/traces': '`{traces: Trace[], address_book, metadata}`',
  '/events': '`{events: Trace[], address_book, metadata}`',
  '/pendingTraces': '`{traces: Trace[], address_book, metadata}`',
  '/pendingActions': '`{actions: Action[], address_book, metadata}`',
  '/jetton/masters': '`{jetton_masters: JettonMaster[], address_book, metadata}`',
  '/jetton/wallets': '`{jetton_wallets: JettonWallet[], address_book, metadata}`',
  '/jetton/transfers': '`{jetton_transfers: JettonTransfer[], address_book, metadata}`',
  '/jetton/burns': '`{jetton_burns: JettonBurn[], address_book, metadata}`',
  '/nft/collections': '`{nft_collections: NFTCollection[], address_book, metadata}`',
  '/nft/items': '`{nft_items: NFTItem[], address_book, metadata}`',
  '/nft/transfers': '`{nft_transfers: NFTTransfer[], address_book, metadata}`',
  '/dns/records': '`{records: DNSRecord[], address_book}`',
  '/metadata': '`Metadata`: raw address → `{is_indexed, token_info: TokenInfo[]}`',
};

function parameter(p: RouteParameter): Record<string, unknown> {
  const schema = p.type === 'integer' ? { type: 'integer' } : p.type === 'boolean' ? { type: 'boolean' } : { type: 'string' };
  return {
    name: p.name,
    in: 'query',
    required: p.required ?? false,
    ...(p.description ? { description: p.description } : {}),
    ...(p.list ? { schema: { type: 'array', items: schema }, style: 'form', explode: true } : { schema }),
  };
}

const ERROR = {
  description: '`{"error": text}`: 422 a bad parameter (ton-index-go\'s text), 404 not found, 503 the index is not available',
  content: { 'application/json': { schema: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } } } },
};

function pathItem(route: AnyRoute): Record<string, unknown> {
  return {
    get: {
      tags: ['v3'],
      summary: route.summary,
      operationId: `v3_${route.path.slice(1).replace(/\//g, '_')}`,
      parameters: route.parameters.map(parameter),
      responses: {
        '200': {
          description: ENVELOPES[route.path] ?? 'Success',
          content: { 'application/json': { schema: route.path === '/topAccountsByBalance' ? { type: 'array' } : { type: 'object' } } },
        },
        default: ERROR,
      },
    },
  };
}

export function v3OpenApiPaths(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(V3_ROUTES.map((route) => [`/api/v3${route.path}`, pathItem(route)]));
}
