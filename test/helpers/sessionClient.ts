import { LiteClient } from 'ton-lite-client';
import type { PoolSession } from '../../src/liteclient/poolSession';

/**
 * The deadline of the reads the tests make to prepare a send (a wallet's seqno): the test's own
 * harness, not a figure under test, so generous enough for a machine whose cores are all busy
 * (5 s ran out once at load 16, with the index catching up beside it).
 */
export const HARNESS_DEADLINE_MS = 30_000;

/**
 * An unmodified ton-lite-client `LiteClient` over one pool session, as a reference client for
 * tests (the server itself never builds one): `query` runs with it and the session's rules
 * (sticky server, deadline, one transport retry).
 */
export function withLiteClient<T>(session: PoolSession, query: (client: LiteClient) => Promise<T>): Promise<T> {
  return query(new LiteClient({ engine: session, cacheMap: () => new Map() }));
}
