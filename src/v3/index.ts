/**
 * toncenter's v3 API: answers reshaped from v2 results (fromV2, stack) for the legacy routes, and
 * the indexed routes (ton-index-go's) over the index's tables: parameter rules in params/,
 * parameterized SQL in sql/, row-to-JSON converters in models/, one record per route in routes/.
 */
export * from './fromV2';
export * from './stack';
export { createIndexedRouter, V3_API_VERSION, type V3RouterOptions } from './http';
export { createV3Database, v3DatabaseOf, IndexUnavailableError, type V3Database } from './db';
export { IndexHeadWatcher, HEAD_WAIT_MS, WARM_CONCURRENCY, type HeadWarmOptions, type IndexHead, type IndexHeadSource, type IndexHeadWatcherOptions, type WarmKey } from './head';
export { V3_ROUTES } from './routes';
export { AnswerPool, type AnswerAssembler, type AnswerPoolOptions } from './answers/pool';
export type { AnyRoute, RouteParameter } from './routes/route';
export { runDecode, MAX_DECODE_ENTRIES, type DecodeResponse } from './routes/decode';
export { v3OpenApiPaths } from './openapi';
// Reads and converters the streaming API builds its events from (src/streaming/builder.ts).
export { queryTransactions, messagesOf, type LoadedTransactions } from './sql/transactions';
export { queryTraceTransactions } from './sql/traces';
export { queryAddressBook } from './sql/accounts';
export { queryAddressMetadata, type MetadataFetchRequests } from './sql/metadata';
export { queryActionsOfTraces } from './sql/actions';
export { toTransactionJson, toAccountStateJson } from './models/transaction';
export { assembleTrace, MAX_TRACE_TRANSACTIONS, type TraceTransaction } from './models/trace';
export { loadedFromIndexRows } from './models/fromIndexRows';
export { queryJettonWallets, type JettonWalletDbRow } from './sql/tokens';
export { toJettonWalletJson } from './models/token';
