import type { V3Database } from '../../src/v3';

/** A statement the test has not answered yet. */
export interface PendingQuery {
  resolve(rows: object[]): void;
  reject(err: Error): void;
}

/**
 * A V3Database whose every statement waits until the test answers it: `pending` holds them in the
 * order they were sent (the head watcher's tests decide when each read lands, and with what).
 */
export function scriptedDatabase(): { db: V3Database; pending: PendingQuery[] } {
  const pending: PendingQuery[] = [];
  const db: V3Database = {
    query: <Row extends object>() =>
      new Promise<Row[]>((resolve, reject) => pending.push({ resolve: resolve as (rows: object[]) => void, reject })),
  };
  return { db, pending };
}
