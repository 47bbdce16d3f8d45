import { RESULT_COMPONENTS, resultSchema, type HandlerTable, type JsonSchema } from '../methods';

/**
 * The schemas of the OpenAPI document's components: what method results refer to (the methods'
 * RESULT_COMPONENTS), the error envelope and the healthcheck, and each method's result as
 * `<Method>Result` (taken from its record, never from a table here).
 */

const { str, int, bool } = resultSchema;

/** Schemas of answers that are not a method's result. */
const SERVICE_COMPONENTS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['ok', 'error', 'code'],
    properties: { ok: { const: false }, error: str('what went wrong'), code: { type: 'integer', description: 'equals the HTTP status' } },
  },
  Health: {
    type: 'object',
    required: ['ok', 'result'],
    properties: {
      ok: bool,
      code: int,
      error: str('when no lite server is usable: each one and why'),
      result: {
        type: 'object',
        required: ['status', 'network', 'liteservers'],
        properties: {
          status: { enum: ['ok', 'unavailable'] },
          network: { enum: ['local', 'mainnet', 'testnet'] },
          healthy_liteservers: { type: ['integer', 'null'] },
          index: {
            type: ['object', 'null'],
            description: 'the block index behind v3 (null with --index off); it does not decide this status',
            properties: {
              available: bool,
              state: { enum: ['starting', 'catching_up', 'live', 'reader', 'database_unavailable', 'stopped'] },
              writer: bool,
              first_mc_seqno: { type: ['integer', 'null'] },
              backfill: {
                type: ['object', 'null'],
                description: '--index-from on a remote network: blocks from_mc_seqno .. next_mc_seqno - 1 are filled, next_mc_seqno .. until_mc_seqno - 1 (below the first live block) still to do',
                properties: {
                  from_mc_seqno: { type: 'integer' },
                  next_mc_seqno: { type: 'integer' },
                  until_mc_seqno: { type: 'integer' },
                  remaining_blocks: { type: 'integer' },
                },
              },
              committed_mc_seqno: { type: ['integer', 'null'] },
              head_mc_seqno: { type: ['integer', 'null'] },
              lag_blocks: { type: ['integer', 'null'] },
              lag_ms: { type: ['number', 'null'] },
              reason: str('why the index is unavailable'),
            },
          },
          liteservers: {
            type: ['array', 'null'],
            items: {
              type: 'object',
              required: ['index', 'host', 'port', 'state', 'reason'],
              properties: {
                index: int,
                host: str(),
                port: int,
                archival: bool,
                weight: { type: 'number' },
                state: { enum: ['starting', 'up', 'down', 'lagging', 'unverified'] },
                connected: bool,
                seqno: { type: ['integer', 'null'] },
                lag: { type: ['integer', 'null'] },
                latencyMs: { type: ['number', 'null'] },
                lastError: { type: ['string', 'null'], description: 'the raw last failure' },
                reason: {
                  type: ['string', 'null'],
                  description:
                    'why it is out of rotation: connection refused, handshake failed: wrong server key?, lagging N blocks behind, head not verified: ..., timeout...',
                },
              },
            },
          },
        },
      },
    },
  },
};

/** Component name of a method's result schema: getMasterchainInfo -> GetMasterchainInfoResult. */
export function resultComponentName(method: string): string {
  return `${method[0]!.toUpperCase()}${method.slice(1)}Result`;
}

/** The `$ref` of a method's result. */
export function resultSchemaRef(method: string): { readonly $ref: string } {
  return { $ref: `#/components/schemas/${resultComponentName(method)}` };
}

/** Every component schema of the document: the shared ones, then each method's result. */
export function componentSchemas(table: HandlerTable): Record<string, JsonSchema> {
  return {
    ...RESULT_COMPONENTS,
    ...SERVICE_COMPONENTS,
    ...Object.fromEntries(table.handlers.map((handler) => [resultComponentName(handler.name), handler.result])),
  };
}
