/**
 * Client input quoted in error texts: at most `max` characters (about 200 by default), in single
 * quotes, with `...` when cut. Renders any parsed JSON value (bigints, nesting of any depth)
 * without JSON.stringify, whose recursion a deeply nested value would overflow, and stops
 * walking once the budget is spent, so the cost is bounded by `max`, not by the input.
 */
export const MAX_QUOTED_CHARS = 200;

export function quoteInput(value: unknown, max = MAX_QUOTED_CHARS): string {
  const out: string[] = [];
  let used = 0;
  let cut = false;
  const push = (text: string): boolean => {
    if (used + text.length > max) {
      out.push(text.slice(0, max - used));
      used = max;
      cut = true;
      return false;
    }
    out.push(text);
    used += text.length;
    return true;
  };
  const render = (item: unknown, top: boolean): boolean => {
    if (typeof item === 'string') return push(top ? item : JSON.stringify(item.length > max ? item.slice(0, max + 1) : item));
    if (typeof item === 'bigint') return push(item.toString());
    if (typeof item === 'number' || typeof item === 'boolean' || item === null) return push(String(item));
    if (Array.isArray(item)) {
      if (!push('[')) return false;
      for (let i = 0; i < item.length; i++) {
        if (i > 0 && !push(',')) return false;
        if (!render(item[i], false)) return false;
      }
      return push(']');
    }
    if (typeof item === 'object') {
      if (!push('{')) return false;
      let first = true;
      for (const key of Object.keys(item)) {
        if (!first && !push(',')) return false;
        first = false;
        if (!push(`${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`)) return false;
        if (!render((item as Record<string, unknown>)[key], false)) return false;
      }
      return push('}');
    }
    return push(String(item));
  };
  render(value, true);
  return `'${out.join('')}${cut ? '...' : ''}'`;
}
