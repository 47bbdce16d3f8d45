import type { ExtraPaths } from './openapi';

/**
 * OpenAPI path items of the embedded chain's developer controls (`src/routes/localnet.ts`), added
 * to the document only when the server runs the local chain.
 */

type Schema = Record<string, unknown>;

const errorRef = { $ref: '#/components/schemas/Error' };
const int = (description: string): Schema => ({ type: 'integer', description });
const str = (description: string): Schema => ({ type: 'string', description });
const transactionId: Schema = {
  type: 'object',
  required: ['lt', 'hash'],
  properties: { lt: str('logical time (decimal)'), hash: str('transaction hash, base64') },
};

function envelope(result: Schema): Schema {
  return {
    type: 'object',
    required: ['ok', 'result'],
    properties: { ok: { const: true }, result },
  };
}

function operation(operationId: string, summary: string, result: Schema, body?: Schema): Schema {
  return {
    tags: ['localnet'],
    summary,
    operationId,
    ...(body
      ? { requestBody: { required: true, content: { 'application/json': { schema: { ...body, additionalProperties: false } } } } }
      : {}),
    responses: {
      '200': { description: 'Success', content: { 'application/json': { schema: envelope(result) } } },
      default: {
        description: 'Error envelope (422: a bad or unknown field, time going back, an amount above the cap; 404: unknown snapshot)',
        content: { 'application/json': { schema: errorRef } },
      },
    },
  };
}

const seqnoResult: Schema = {
  type: 'object',
  required: ['seqno', 'utime'],
  properties: { seqno: int('masterchain seqno of the head'), utime: int('its gen_utime') },
};

export const LOCALNET_PATHS: ExtraPaths = {
  '/localnet/fund': {
    post: operation(
      'localnetFund',
      'Send TON from the genesis treasury to any address (undeployed ones too: bounce off); answers once the transfer is in a block',
      {
        type: 'object',
        properties: {
          address: str('the funded address (raw form)'),
          amount: str('nanotons sent'),
          seqno: int('masterchain block of the transfer'),
          transaction_id: { ...transactionId, description: "the funded address's transaction" },
          source: str('the treasury address'),
          source_transaction_id: { ...transactionId, description: "the treasury's transaction" },
          message_hash: str('hash of the internal message, base64'),
        },
      },
      {
        required: ['address', 'amount'],
        properties: {
          address: { type: 'string', description: 'raw (wc:hex) or friendly address, workchain 0 or -1' },
          amount: { type: ['string', 'integer'], description: 'nanotons, 1 to 10^15 (1 000 000 TON), at most what the treasury holds' },
        },
      },
    ),
  },
  '/localnet/mine': {
    post: operation('localnetMine', 'Seal a block round now (one block per shard and a masterchain block)', seqnoResult),
  },
  '/localnet/time': {
    post: operation(
      'localnetTime',
      'Move the chain clock forward (never back); later blocks and NOW in contracts follow',
      {
        type: 'object',
        properties: { now: int('the chain time now'), clock_offset: int('seconds ahead of the wall clock') },
      },
      {
        oneOf: [{ required: ['increase'] }, { required: ['set'] }],
        properties: {
          increase: { type: ['integer', 'string'], description: 'seconds to add' },
          set: { type: ['integer', 'string'], description: 'unix time to jump to, not before the chain time' },
        },
      },
    ),
  },
  '/localnet/snapshot': {
    post: operation('localnetSnapshot', 'Keep the chain as it is now in memory (the 16 latest snapshots are kept)', {
      type: 'object',
      properties: { id: str('the id to restore'), seqno: int('masterchain seqno of its head'), utime: int('its gen_utime') },
    }),
  },
  '/localnet/restore': {
    post: operation(
      'localnetRestore',
      'Put the chain back to a snapshot in place: the head goes back to its block, later blocks are gone',
      {
        type: 'object',
        properties: { id: str('the snapshot'), seqno: int('masterchain seqno of the head now'), utime: int('its gen_utime') },
      },
      { required: ['id'], properties: { id: { type: 'string', description: 'an id from /localnet/snapshot' } } },
    ),
  },
  '/localnet/status': {
    get: operation('localnetStatus', 'Head seqno, shards, clock, block interval, accounts, treasury and snapshots', {
      type: 'object',
      properties: {
        seqno: int('masterchain head'),
        utime: int('its gen_utime'),
        now: int('the chain clock'),
        clock_offset: int('seconds ahead of the wall clock'),
        block_interval_ms: int('0: blocks only on messages and /localnet/mine'),
        shards: { type: 'array', items: { type: 'object' } },
        accounts: int('accounts in the head states'),
        treasury: { type: 'object', properties: { address: str('raw address'), balance: str('nanotons') } },
        snapshots: { type: 'array', items: { type: 'object' } },
        max_snapshots: int('snapshots kept'),
      },
    }),
  },
  '/localnet/global.config.json': {
    get: {
      tags: ['localnet'],
      summary: "The chain's global config (what --config-out writes), for any lite client",
      operationId: 'localnetGlobalConfig',
      responses: {
        '200': {
          description: 'A TON global config (not in the envelope)',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        default: { description: 'Error envelope', content: { 'application/json': { schema: errorRef } } },
      },
    },
  },
};
