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
