import { fastPathRequests } from '../../src/metrics/registry';

/**
 * What the fast path (src/routes/fastPath.ts) did with the requests of a test: its own counter,
 * read from the process's registry (the server runs in the test process).
 */
export type FastPathOutcome = 'hit' | 'refused' | 'handed_over';

export async function fastPathOutcomes(): Promise<Record<FastPathOutcome, number>> {
  const counts: Record<FastPathOutcome, number> = { hit: 0, refused: 0, handed_over: 0 };
  for (const { labels, value } of (await fastPathRequests.get()).values) counts[labels.outcome as FastPathOutcome] = value;
  return counts;
}

/**
 * Runs `work` (one request) and checks that the fast path took it once, with this outcome; with
 * `null`, that the fast path did not take it at all.
 */
export async function viaFastPath<T>(outcome: FastPathOutcome | null, work: () => Promise<T>): Promise<T> {
  const before = await fastPathOutcomes();
  const result = await work();
  const after = await fastPathOutcomes();
  const expected = { ...before };
  if (outcome) expected[outcome] += 1;
  expect(after).toEqual(expected);
  return result;
}
