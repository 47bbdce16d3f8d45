/** Collects bind parameters while a query's text is assembled from fixed fragments. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder (`$n`). */
  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `column = $n` for one value, `column = any($n)` for several (ton-index-go's filterByArray). */
export function matchAny(params: SqlParams, column: string, values: readonly unknown[]): string {
  return values.length === 1 ? `${column} = ${params.bind(values[0])}` : `${column} = any(${params.bind(values)})`;
}

export function whereClause(filters: readonly string[]): string {
  return filters.length === 0 ? '' : ` where ${filters.join(' and ')}`;
}

/**
 * PostgreSQL's base64 of a bytea column on one line, as Node's Buffer#toString('base64') writes it
 * (the answers' encoding): encode() breaks its text into lines of 76 characters (a bytea over 57
 * bytes), which are dropped. With `replace`, not `translate` (the same text for one character):
 * 20 000 message bodies of ~220 bytes took PostgreSQL 116 ms with translate, 36 ms with replace,
 * 31 ms for encode() alone (docs/benchmarks.md, "Deep pages of one account").
 */
export function oneLineBase64(column: string): string {
  return `replace(encode(${column}, 'base64'), E'\\n', '')`;
}
