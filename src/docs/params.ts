import type { JsonSchema } from '../methods';
import type { Param } from '../params';

/**
 * JSON Schemas and descriptions of the handler table's parameters for the OpenAPI document. The
 * schema follows the parameter's type label (`Param.type`); the description its name, since a
 * name means the same in every method (`seqno` is always a masterchain or block seqno, ...).
 */


const DECIMAL_INT = '^-?[0-9]+$';

/** What each type label accepts, for a query string (GET) and for a JSON body (POST, JSON-RPC). */
function schemaOfType(type: string, where: 'query' | 'body'): JsonSchema {
  switch (type) {
    case 'address':
      return { type: 'string', description: 'raw (`wc:hex`) or friendly (48 base64 characters, either alphabet)' };
    case 'hash':
      return { type: 'string', description: '256-bit hash: 64 hex digits, 44 base64 or 43 unpadded base64url characters' };
    case 'hash[]':
      return { type: 'array', items: { type: 'string' } };
    case 'address | hash':
      return { type: 'string', description: 'an account id: address (raw or friendly) or a bare 256-bit hash' };
    case 'int32':
      return where === 'query'
        ? { type: 'integer', format: 'int32' }
        : {
            oneOf: [
              { type: 'integer', format: 'int32' },
              { type: 'string', pattern: DECIMAL_INT },
            ],
          };
    case 'int64':
      // Shards and lts exceed 2^53: clients send them as decimal strings.
      return where === 'query'
        ? { type: 'string', pattern: DECIMAL_INT, description: 'signed 64-bit integer in decimal' }
        : {
            oneOf: [{ type: 'integer' }, { type: 'string', pattern: DECIMAL_INT }],
            description: 'signed 64-bit integer, a JSON number or decimal string',
          };
    case 'bool':
      return where === 'query' ? { type: 'boolean' } : { oneOf: [{ type: 'boolean' }, { type: 'integer' }, { type: 'string' }] };
    case 'base64':
      return { type: 'string', contentEncoding: 'base64', description: 'standard base64' };
    case 'string':
      return { type: 'string' };
    case 'string | int':
      return { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    case 'array':
      return { type: 'array', items: {} };
    default:
      return {};
  }
}

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  address: 'Account address.',
  hash: 'The hash to detect the forms of.',
  name: 'Domain name to resolve, e.g. `foundation.ton`.',
  category: 'DNS record category (name or hash); all records when absent.',
  ttl: 'Maximum number of DNS resolver hops.',
  seqno: 'Masterchain (or block) seqno; the latest block when absent and optional.',
  workchain: 'Block workchain (-1 masterchain, 0 basechain).',
  shard: 'Block shard as a signed 64-bit decimal, e.g. `-9223372036854775808` (8000000000000000).',
  root_hash: 'Block root hash; checked against the block when given.',
  file_hash: 'Block file hash; checked against the block when given.',
  from_seqno: 'Masterchain seqno the proof starts from (a block the client trusts).',
  lt: 'Logical time: of a block (lookupBlock) or of the newest transaction to list (with `hash`).',
  unixtime: 'Unix time at which the block was generated (lookupBlock by time).',
  after_lt: 'Paging cursor: list transactions after this lt (with `after_hash`).',
  after_hash: 'Paging cursor: the account of the last listed transaction (with `after_lt`).',
  count: 'Largest number of transactions to return.',
  limit: 'Largest number of transactions to return (1..1000).',
  to_lt: 'Stop at this lt (exclusive); 0 = the whole history.',
  archival: 'true: use archival lite servers only; false: non-archival only.',
  source: 'Source address of the message.',
  destination: 'Destination address of the message.',
  created_lt: 'Creation lt of the message.',
  param: 'Config parameter number.',
  config_id: 'Config parameter number (alias of `param`).',
  libraries: 'Library hashes to fetch (up to 16).',
  method: 'Get-method name (e.g. `seqno`) or numeric id.',
  stack: 'Get-method arguments: `[["num", "0x2a"], ["tvm.Slice", "<base64 BoC>"], ...]`.',
  body: 'Message body as a base64 BoC.',
  init_code: 'StateInit code as a base64 BoC (deploying messages).',
  init_data: 'StateInit data as a base64 BoC (deploying messages).',
  ignore_chksig: 'Skip the signature check when emulating (the body need not be signed).',
  boc: 'A signed external message as a base64 BoC.',
};

/** JSON-safe default of a parameter, when it has one to show (bytes defaults are omitted). */
function jsonDefault(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return undefined;
}

export function describeParam(name: string): string {
  return DESCRIPTIONS[name] ?? '';
}

export function paramSchema(param: Param<unknown>, where: 'query' | 'body'): JsonSchema {
  const schema = schemaOfType(param.type, where);
  const fallback = jsonDefault(param.defaultValue);
  return fallback === undefined ? schema : { ...schema, default: fallback };
}

/** Required means the client must send it: no default, not optional. */
export function isRequired(param: Param<unknown>): boolean {
  return param.required && param.defaultValue === undefined;
}
