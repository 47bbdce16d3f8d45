import { ValidationError } from '../../errors';

/**
 * toncenter v3's stack form `{type, value}` on the way in: `num` (decimal or hex string), `cell`
 * and `slice` (base64 BoC strings), read as the legacy v2 pair ton-index-go forwards to v2
 * (`["num", v]`, `["tvm.Cell", v]`, `["tvm.Slice", v]`).
 */

/** The legacy v2 entry a v3 input entry stands for (as ton-index-go forwards it to v2). */
export function v3EntryToLegacy(entry: Record<string, unknown>): [string, unknown] {
  const type = entry['type'];
  const value = entry['value'];
  switch (type) {
    case 'num':
      return ['num', value];
    case 'cell':
      return ['tvm.Cell', value];
    case 'slice':
      return ['tvm.Slice', value];
    default:
      throw new ValidationError(`unsupported stack parameter type: ${String(type)}`);
  }
}

/** A `{type, value}` object without `@type`: the v3 form, which v2 runGetMethod accepts as well. */
export function isV3StackEntry(entry: unknown): entry is Record<string, unknown> {
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) && 'type' in entry && !('@type' in entry);
}
