/**
 * A start-up problem of the index store: a database URL that cannot be used, a schema newer than
 * this code, an index directory in use. main.ts prints its message and exits; no stack.
 */
export class IndexStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexStoreError';
  }
}
