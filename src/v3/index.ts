/**
 * toncenter's indexed v3 API (ton-index-go's routes) over the index's PostgreSQL tables:
 * parameter rules in params/, parameterized SQL in sql/, row-to-JSON converters in models/, one
 * record per route in routes/.
 */
export { createIndexedRouter, V3_API_VERSION, type V3RouterOptions } from './http';
export { createV3Database, v3DatabaseOf, IndexUnavailableError, type V3Database } from './db';
export { V3_ROUTES } from './routes';
export type { AnyRoute, RouteParameter } from './routes/route';
export { runDecode, MAX_DECODE_ENTRIES, type DecodeResponse } from './routes/decode';
export { v3OpenApiPaths } from './openapi';
