import type { JsonSchema } from './params';

/**
 * Result schemas of the v2 methods, in the shapes of toncenter's C++ server 2.1 (`@type` tags,
 * 64-bit and money values as decimal strings, hashes and BoCs as base64). Objects allow
 * additional properties: clients must ignore keys they do not know, and we add a few where the
 * recorded toncenter answers carry them. Only the keys every answer has are required.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string): JsonSchema => (description ? { type: 'string', description } : { type: 'string' });
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const decimal = (description: string): JsonSchema => ({ type: 'string', pattern: '^-?[0-9]+$', description });
const base64 = (description: string): JsonSchema => ({ type: 'string', contentEncoding: 'base64', description });

/** An object tagged with `@type` (one of `tags`), whose `required` keys must be present. */
function tagged(
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

const hash = base64('256-bit hash, base64');
const boc = base64('bag of cells, base64 (empty string when absent)');
/** Money: a decimal string (the C++ server's form, a never-used account's `"0"` included). */
const amount: JsonSchema = decimal('nanotons');
/** A message address: a friendly string (empty for none) or an `accountAddress` object (Std methods). */
const messageAddress: JsonSchema = { oneOf: [str('friendly address; empty for none'), ref('AccountAddress')] };

const SHARED: Record<string, JsonSchema> = {
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

const addressForms = tagged('ext.utils.detectedAddressVariant', { b64: str(), b64url: str() });
const accountStateCommon = {
  balance: amount,
  extra_currencies: arrayOf(ref('ExtraCurrency')),
  last_transaction_id: ref('TransactionId'),
  block_id: ref('BlockIdExt'),
  sync_utime: int,
};
const feesObject = tagged('fees', { in_fwd_fee: int, storage_fee: int, gas_fee: int, fwd_fee: int });
const extMessageInfo = tagged('raw.extMessageInfo', { hash, hash_norm: hash });
const transactionList = arrayOf(ref('Transaction'));
const runResult = {
  gas_used: int,
  exit_code: int,
  block_id: ref('BlockIdExt'),
  last_transaction_id: ref('TransactionId'),
};

/** Result schemas by method name; the OpenAPI document puts each in components as `<Method>Result`. */
const RESULTS: Record<string, JsonSchema> = {
  detectAddress: tagged(['ext.utils.detectedAddress'], {
    raw_form: str('workchain:hex'),
    bounceable: addressForms,
    non_bounceable: addressForms,
    given_type: { enum: ['raw_form', 'friendly_bounceable', 'friendly_non_bounceable'] },
    test_only: bool,
  }),
  detectHash: tagged('ext.utils.detectedHash', { b64: str(), b64url: str(), hex: str() }),
  packAddress: str('friendly address'),
  unpackAddress: str('raw address, workchain:hex'),
  getAddressBalance: decimal('nanotons'),
  getAddressState: { enum: ['uninitialized', 'active', 'frozen'] },
  getAddressInformation: tagged(
    'raw.fullAccountState',
    {
      ...accountStateCommon,
      code: boc,
      data: boc,
      frozen_hash: str('hash of the frozen state, base64; empty otherwise'),
      state: { enum: ['uninitialized', 'active', 'frozen'] },
      suspended: bool,
    },
    ['balance', 'last_transaction_id', 'block_id', 'code', 'data', 'frozen_hash', 'sync_utime', 'state'],
  ),
  getExtendedAddressInformation: tagged(
    'fullAccountState',
    {
      address: ref('AccountAddress'),
      ...accountStateCommon,
      account_state: {
        type: 'object',
        required: ['@type'],
        properties: { '@type': str('raw.accountState, wallet.v4.accountState, uninited.accountState...') },
      },
      revision: int,
    },
    ['address', 'balance', 'last_transaction_id', 'block_id', 'sync_utime', 'account_state', 'revision'],
  ),
  getShardAccountCell: ref('TvmCell'),
  getWalletInformation: tagged(
    'ext.accounts.walletInformation',
    {
      wallet: bool,
      balance: amount,
      account_state: { enum: ['uninitialized', 'active', 'frozen'] },
      last_transaction_id: ref('TransactionId'),
      wallet_type: str(),
      seqno: int,
      wallet_id: int,
      is_signature_allowed: bool,
    },
    ['wallet', 'balance', 'account_state', 'last_transaction_id'],
  ),
  getTokenData: {
    type: 'object',
    required: ['@type', 'address', 'contract_type'],
    properties: {
      '@type': {
        enum: ['ext.tokens.jettonMasterData', 'ext.tokens.jettonWalletData', 'ext.tokens.nftCollectionData', 'ext.tokens.nftItemData'],
      },
      address: str(),
      contract_type: { enum: ['jetton_master', 'jetton_wallet', 'nft_collection', 'nft_item'] },
    },
  },
  dnsResolve: tagged('dns.resolved', {
    entries: arrayOf(tagged('dns.entry', { name: str(), category: hash, entry: { type: 'object', required: ['@type'] } })),
  }),
  getMasterchainInfo: tagged('blocks.masterchainInfo', { last: ref('BlockIdExt'), state_root_hash: hash, init: ref('BlockIdExt') }),
  getMasterchainBlockSignatures: tagged(
    ['blocks.blockSignatures', 'blocks.blockSignaturesSimplex'],
    {
      id: ref('BlockIdExt'),
      signatures: arrayOf(tagged('blocks.signature', { node_id_short: hash, signature: base64('ed25519 signature') })),
    },
    ['id', 'signatures'],
  ),
  getShardBlockProof: tagged('blocks.shardBlockProof', {
    from: ref('BlockIdExt'),
    mc_id: ref('BlockIdExt'),
    links: arrayOf(tagged('blocks.shardBlockLink', { id: ref('BlockIdExt'), proof: boc })),
    mc_proof: arrayOf({ type: 'object', required: ['@type'] }),
  }),
  getConsensusBlock: tagged('ext.blocks.consensusBlock', { consensus_block: int, timestamp: { type: 'number' } }),
  lookupBlock: ref('BlockIdExt'),
  getShards: tagged('blocks.shards', { shards: arrayOf(ref('BlockIdExt')) }),
  getBlockHeader: tagged(
    'blocks.header',
    {
      id: ref('BlockIdExt'),
      global_id: int,
      version: int,
      flags: int,
      after_merge: bool,
      after_split: bool,
      before_split: bool,
      want_merge: bool,
      want_split: bool,
      validator_list_hash_short: int,
      catchain_seqno: int,
      min_ref_mc_seqno: int,
      is_key_block: bool,
      prev_key_block_seqno: int,
      start_lt: decimal('logical time'),
      end_lt: decimal('logical time'),
      gen_utime: int,
      vert_seqno: int,
      prev_blocks: arrayOf(ref('BlockIdExt')),
    },
    [
      'id',
      'global_id',
      'version',
      'after_merge',
      'after_split',
      'before_split',
      'want_merge',
      'want_split',
      'validator_list_hash_short',
      'catchain_seqno',
      'min_ref_mc_seqno',
      'is_key_block',
      'prev_key_block_seqno',
      'start_lt',
      'end_lt',
      'gen_utime',
      'prev_blocks',
    ],
  ),
  getOutMsgQueueSize: tagged('blocks.outMsgQueueSizes', {
    shards: arrayOf(tagged('blocks.outMsgQueueSize', { id: ref('ChainBlockIdExt'), size: int })),
    ext_msg_queue_size_limit: int,
  }),
  getBlockTransactions: tagged('blocks.transactions', {
    id: ref('BlockIdExt'),
    req_count: int,
    incomplete: bool,
    transactions: arrayOf(ref('ShortTxId')),
  }),
  getBlockTransactionsExt: tagged('blocks.transactionsExt', {
    id: ref('BlockIdExt'),
    req_count: int,
    incomplete: bool,
    transactions: transactionList,
  }),
  getTransactions: transactionList,
  getTransactionsStd: tagged('raw.transactions', { transactions: transactionList, previous_transaction_id: ref('TransactionId') }),
  tryLocateResultTx: ref('Transaction'),
  tryLocateSourceTx: ref('Transaction'),
  getConfigParam: tagged('configInfo', { config: ref('TvmCell') }),
  getConfigAll: tagged('configInfo', { config: ref('TvmCell') }),
  getLibraries: tagged('smc.libraryResult', { result: arrayOf(tagged('smc.libraryEntry', { hash, data: boc })) }),
  runGetMethod: tagged('smc.runResult', { ...runResult, stack: arrayOf(ref('StackEntry')) }, ['gas_used', 'exit_code', 'stack']),
  runGetMethodStd: tagged('smc.runResult', { ...runResult, stack: arrayOf(ref('TypedStackEntry')) }, ['gas_used', 'exit_code', 'stack']),
  estimateFee: tagged('query.fees', { source_fees: feesObject, destination_fees: arrayOf(feesObject) }),
  sendBoc: tagged('ok', {}),
  sendBocReturnHash: extMessageInfo,
  sendBocReturnHashNoError: extMessageInfo,
  sendQuery: tagged('ok', {}),
};

/** Component name of a method's result schema: getMasterchainInfo -> GetMasterchainInfoResult. */
export function resultComponentName(method: string): string {
  return `${method[0]!.toUpperCase()}${method.slice(1)}Result`;
}

export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  ...SHARED,
  ...Object.fromEntries(Object.entries(RESULTS).map(([method, schema]) => [resultComponentName(method), schema])),
};

/** The `$ref` of a method's result; a method without a written schema gets `{}` (any JSON). */
export function resultSchemaOf(method: string): JsonSchema {
  return method in RESULTS ? ref(resultComponentName(method)) : {};
}

/** Methods with a result schema (a test checks this covers the whole table). */
export function documentedResults(): string[] {
  return Object.keys(RESULTS);
}
