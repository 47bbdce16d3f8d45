import { ValidationError } from '../../errors';

/**
 * A v3 request's query string as ton-index-go's parser (fiber's QueryParser over gorilla/schema)
 * reads it: keys matched case-insensitively, every occurrence of a key kept in order, a value with
 * commas split into several for a list parameter, an empty value the same as an absent one.
 */

/** Most values one list parameter takes (ton-index-go documents "Max: 1024" for address lists). */
export const MAX_LIST_VALUES = 1024;

/** One parameter's failure in gorilla/schema's words; collected into one error per group. */
export class ParamError extends Error {}

export class V3Query {
  private readonly values = new Map<string, string[]>();

  constructor(query: Record<string, unknown>) {
    for (const [key, raw] of Object.entries(query)) {
      const list = Array.isArray(raw) ? raw : [raw];
      const name = key.toLowerCase();
      const existing = this.values.get(name) ?? [];
      for (const item of list) if (typeof item === 'string') existing.push(item);
      this.values.set(name, existing);
    }
  }

  /** The last value of a single-valued parameter (gorilla/schema keeps the last), or undefined. */
  single(name: string): string | undefined {
    const list = this.values.get(name);
    const last = list?.[list.length - 1];
    return last === undefined || last === '' ? undefined : last;
  }

  /** Every value of a list parameter, commas splitting values, empty entries dropped; bounded. */
  list(name: string): string[] {
    const out: string[] = [];
    for (const value of this.values.get(name) ?? []) {
      for (const part of value.includes(',') ? value.split(',') : [value]) {
        if (part === '') continue;
        out.push(part);
        if (out.length > MAX_LIST_VALUES) {
          throw new ValidationError(`too many values for ${name}: more than ${MAX_LIST_VALUES}`);
        }
      }
    }
    return out;
  }

  has(name: string): boolean {
    return this.single(name) !== undefined || this.list(name).length > 0;
  }
}

/**
 * Parses one group of parameters as one of ton-index-go's `c.QueryParser(&struct)` calls does:
 * every field is tried, and the group fails with the first failure's text, followed by
 * " (and N other errors)" as gorilla/schema's MultiError writes it. The groups of a route are
 * parsed in the order ton-index-go parses its structs, so the first failing group answers.
 */
export function parseGroup<T>(parse: (field: <V>(read: () => V) => V | undefined) => T): T {
  const failures: string[] = [];
  const field = <V>(read: () => V): V | undefined => {
    try {
      return read();
    } catch (err) {
      if (err instanceof ParamError) {
        failures.push(err.message);
        return undefined;
      }
      throw err;
    }
  };
  const result = parse(field);
  if (failures.length === 0) return result;
  const others = failures.length - 1;
  const suffix = others === 0 ? '' : others === 1 ? ' (and 1 other error)' : ` (and ${others} other errors)`;
  throw new ValidationError(`${failures[0]}${suffix}`);
}
