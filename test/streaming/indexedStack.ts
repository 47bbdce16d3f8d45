import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from './support';

/**
 * The whole product on the embedded chain (300 ms blocks unless told) with the index in a fresh database of
 * the machine's PostgreSQL (PGlite is covered by the index's own suites), returned once the index
 * is live and the streaming follower caught up with it, so a subscription made next is live.
 */
export async function startIndexedStack(blockIntervalMs = 300, flags: readonly string[] = []): Promise<{ stack: LocalStack; db: TestDatabase }> {
  const db = await createTestDatabase('postgres');
  const stack = await startLocalStack(['--block-interval', String(blockIntervalMs), '--index', 'on', '--database-url', db.url!, ...flags]);
  const index = stack.server.services.index!;
  const streaming = stack.server.services.streaming!;
  // The follower starts at the first streaming request (src/server.ts): here, at once.
  streaming.useSource();
  await until(
    () => index.health().status.state === 'live' && (streaming.bus.lastSeqno ?? -1) >= (index.health().status.committedMcSeqno ?? 0) - 1,
    'index and streaming caught up',
    150_000,
  );
  return { stack, db };
}
