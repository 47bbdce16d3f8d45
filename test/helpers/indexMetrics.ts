import type { IndexService } from '../../src/indexer';

/**
 * The sum of an index metric's values whose labels include `labels`, as the index counts them:
 * in the index thread under startServer, in this thread under startIndex.
 */
export async function indexMetricSum(index: IndexService, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = (await index.metrics()).find((m) => m.name === name);
  if (!metric) throw new Error(`no index metric ${name}`);
  return metric.values
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0);
}
