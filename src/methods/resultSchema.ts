/**
 * The pieces of the v2 methods' result schemas, in the shapes of toncenter's C++ server 2.1
 * (`@type` tags, 64-bit and money values as decimal strings, hashes and BoCs as base64). Each
 * method's record holds its own result schema built from these; the OpenAPI document puts it in
 * components as `<Method>Result`, next to RESULT_COMPONENTS. Objects allow additional
 * properties: clients must ignore keys they do not know, and we add a few where the recorded
 * toncenter answers carry them. Only the keys every answer has are required.
 */

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const str = (description?: string): JsonSchema => (description ? { type: 'string', description } : { type: 'string' });
export const int: JsonSchema = { type: 'integer' };
export const bool: JsonSchema = { type: 'boolean' };
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const decimal = (description: string): JsonSchema => ({ type: 'string', pattern: '^-?[0-9]+$', description });
export const base64 = (description: string): JsonSchema => ({ type: 'string', contentEncoding: 'base64', description });

/** An object tagged with `@type` (one of `tags`), whose `required` keys must be present. */
export function tagged(
  tags: string | readonly string[],
  properties: Record<string, JsonSchema>,
  required: readonly string[] = Object.keys(properties),
): JsonSchema {
  const list = typeof tags === 'string' ? [tags] : tags;
  return {
    type: 'object',
    required: ['@type', ...required],
    properties: { '@type': list.length === 1 ? { const: list[0] } : { enum: list }, ...properties },
  };
}

export const hash = base64('256-bit hash, base64');
export const boc = base64('bag of cells, base64 (empty string when absent)');
/** Money: a decimal string (the C++ server's form, a never-used account's `"0"` included). */
export const amount: JsonSchema = decimal('nanotons');
/** A message address: a friendly string (empty for none) or an `accountAddress` object (Std methods). */
export const messageAddress: JsonSchema = { oneOf: [str('friendly address; empty for none'), ref('AccountAddress')] };

/** Schemas several results refer to (`$ref: #/components/schemas/<name>`). */
export const RESULT_COMPONENTS: Readonly<Record<string, JsonSchema>> = {
  BlockIdExt: tagged('ton.blockIdExt', {
    workchain: int,
    shard: decimal('shard as a signed 64-bit integer'),
    seqno: int,
    root_hash: hash,
    file_hash: hash,
  }),
  /** getOutMsgQueueSize's block ids: the service description we follow tags them `chain.blockIdExt`. */
  ChainBlockIdExt: tagged('chain.blockIdExt', {
    workchain: int,
    shard: decimal('shard as a signed 64-bit integer'),
    seqno: int,
    root_hash: hash,
    file_hash: hash,
  }),
  TransactionId: tagged('internal.transactionId', { lt: decimal('logical time'), hash }),
  AccountAddress: tagged('accountAddress', { account_address: str('friendly address; empty for none') }),
  ExtraCurrency: { type: 'object', properties: { '@type': str(), id: int, amount: decimal('amount') } },
  TvmCell: tagged('tvm.cell', { bytes: boc }),
  MessageData: {
    type: 'object',
    required: ['@type'],
    properties: {
      '@type': { enum: ['msg.dataRaw', 'msg.dataText', 'msg.dataDecryptedText', 'msg.dataEncryptedText'] },
      body: boc,
      init_state: boc,
      text: base64('text, base64'),
    },
  },
  Message: tagged(
    ['raw.message', 'ext.message'],
    {
      hash,
      source: messageAddress,
      destination: messageAddress,
      value: decimal('nanotons'),
      extra_currencies: arrayOf(ref('ExtraCurrency')),
      fwd_fee: decimal('nanotons'),
      ihr_fee: decimal('nanotons'),
      created_lt: decimal('logical time'),
      body_hash: hash,
      msg_data: ref('MessageData'),
      message: str('the body as text, or base64 of its bits'),
    },
    ['hash', 'source', 'destination', 'value', 'fwd_fee', 'ihr_fee', 'created_lt', 'body_hash', 'msg_data'],
  ),
  Transaction: tagged(
    ['raw.transaction', 'ext.transaction', 'raw.transactionExt'],
    {
      address: ref('AccountAddress'),
      account: str('raw address of the account'),
      utime: int,
      data: boc,
      transaction_id: ref('TransactionId'),
      fee: decimal('nanotons'),
      storage_fee: decimal('nanotons'),
      other_fee: decimal('nanotons'),
      in_msg: ref('Message'),
      out_msgs: arrayOf(ref('Message')),
    },
    ['utime', 'data', 'transaction_id', 'fee', 'storage_fee', 'other_fee', 'out_msgs'],
  ),
  ShortTxId: tagged('blocks.shortTxId', { mode: int, account: str('account address'), lt: decimal('logical time'), hash }),
  StackEntry: {
    description: 'a stack entry: `["num", "0x.."]`, `["cell", {...}]`, `["list", {...}]`...',
    type: 'array',
    minItems: 1,
    items: {},
  },
  TypedStackEntry: {
    type: 'object',
    required: ['@type'],
    properties: {
      '@type': {
        enum: [
          'tvm.stackEntrySlice',
          'tvm.stackEntryCell',
          'tvm.stackEntryNumber',
          'tvm.stackEntryTuple',
          'tvm.stackEntryList',
          'tvm.stackEntryUnsupported',
        ],
      },
    },
  },
};

/** Fragments shared by the results of several methods. */
export const accountStateCommon = {
  balance: amount,
  extra_currencies: arrayOf(ref('ExtraCurrency')),
  last_transaction_id: ref('TransactionId'),
  block_id: ref('BlockIdExt'),
  sync_utime: int,
};
export const extMessageInfo = tagged('raw.extMessageInfo', { hash, hash_norm: hash });
export const transactionList = arrayOf(ref('Transaction'));
export const runResult = {
  gas_used: int,
  exit_code: int,
  block_id: ref('BlockIdExt'),
  last_transaction_id: ref('TransactionId'),
};
