import { LiteClient } from 'ton-lite-client';
import type { PoolSession } from '../../src/liteclient/poolSession';

/**
 * An unmodified ton-lite-client `LiteClient` over one pool session, as a reference client for
 * tests (the server itself never builds one): `query` runs with it and the session's rules
 * (sticky server, deadline, one transport retry).
 */
export function withLiteClient<T>(session: PoolSession, query: (client: LiteClient) => Promise<T>): Promise<T> {
  return query(new LiteClient({ engine: session, cacheMap: () => new Map() }));
}
