import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { SHARED_DIR } from './fixtures';

/**
 * The C++ server's own OpenAPI file (ton-http-api-cpp 2.1, `ton-http-api/schemas/v2.yaml`), read at
 * test time from ../shared and compiled with ajv, with the documented differences applied: each
 * patch below is either an addition we keep for a client or a defect of the schema itself (no
 * answer of any server could validate), and docs/api.md's table lists the same ones.
 */
export const CPP_SPEC_PATH = path.join(SHARED_DIR, 'spec', 'ton-http-api-cpp-v2.yaml');
export const cppSpecAvailable = fs.existsSync(CPP_SPEC_PATH);

export function describeWithCppSpec(name: string, body: () => void): void {
  if (cppSpecAvailable) describe(name, body);
  else describe.skip(`${name} (skipped: ${CPP_SPEC_PATH} is absent; it exists only beside a CI checkout)`, body);
}

/** The result schema of every v2 method (the spec types every answer as TonlibResponse). */
export const RESULT_SCHEMA: Readonly<Record<string, string>> = {
  detectAddress: 'DetectAddress',
  detectHash: 'DetectHash',
  packAddress: 'PackAddress',
  unpackAddress: 'UnpackAddress',
  getAddressInformation: 'AddressInformation',
  getExtendedAddressInformation: 'ExtendedAddressInformation',
  getShardAccountCell: 'TvmCell',
  getWalletInformation: 'WalletInformation',
  getAddressBalance: 'AddressBalance',
  getAddressState: 'AddressState',
  getTokenData: 'TokenData',
  dnsResolve: 'DnsResolved',
  getMasterchainInfo: 'MasterchainInfo',
  getMasterchainBlockSignatures: 'MasterchainBlockSignatures',
  getShardBlockProof: 'ShardBlockProof',
  getConsensusBlock: 'ConsensusBlock',
  lookupBlock: 'LookupBlock',
  getShards: 'Shards',
  shards: 'Shards',
  getBlockHeader: 'BlockHeader',
  getOutMsgQueueSize: 'OutMsgQueueSizes',
  getBlockTransactions: 'BlockTransactions',
  getBlockTransactionsExt: 'BlockTransactionsExt',
  getTransactions: 'Transactions',
  getTransactionsStd: 'TransactionsStd',
  tryLocateTx: 'Transaction',
  tryLocateResultTx: 'Transaction',
  tryLocateSourceTx: 'Transaction',
  getConfigParam: 'ConfigInfo',
  getConfigAll: 'ConfigInfo',
  getLibraries: 'LibraryResult',
  runGetMethod: 'RunGetMethodResult',
  runGetMethodStd: 'RunGetMethodStdResult',
  sendBoc: 'ResultOk',
  sendBocReturnHash: 'ExtMessageInfo',
  sendBocReturnHashNoError: 'ExtMessageInfo',
  sendQuery: 'ResultOk',
  estimateFee: 'QueryFees',
};

type Schema = Record<string, unknown>;

export interface SchemaPatch {
  kind: 'addition' | 'schema defect' | 'seed';
  /** Where, in the spec's terms. */
  where: string;
  why: string;
  apply(schemas: Record<string, Schema>): void;
}

function properties(schema: Schema): Record<string, unknown> {
  return schema['properties'] as Record<string, unknown>;
}

/** Every documented difference from the C++ OpenAPI file, applied before compiling. */
export const SCHEMA_PATCHES: readonly SchemaPatch[] = [
  {
    kind: 'addition',
    where: 'WalletInformation.extra_currencies',
    why: 'the Python server (2023 recordings, tonweb applications) returned it; the C++ schema lacks it',
    apply: (s) => {
      properties(s['WalletInformation'])['extra_currencies'] = {
        type: 'array',
        items: { $ref: '#/components/schemas/ExtraCurrencyBalance' },
      };
    },
  },
  {
    kind: 'seed',
    where: 'OutMsgQueueSize.id',
    why: 'the service description we build from specifies chain.blockIdExt for getOutMsgQueueSize; the C++ file says ton.blockIdExt',
    apply: (s) => {
      const blockId = structuredClone(s['TonBlockIdExt']);
      properties(blockId)['@type'] = { type: 'string', enum: ['chain.blockIdExt'] };
      properties(s['OutMsgQueueSize'])['id'] = blockId;
    },
  },
  {
    kind: 'schema defect',
    where: 'TransactionExt (getBlockTransactionsExt items)',
    why:
      'allOf of TransactionStd and an object that both forbid additional properties and require different @type values, so ' +
      'nothing validates; the C++ converter fills TransactionStd plus account, tonlib tags it raw.transaction (recorded so)',
    apply: (s) => {
      const ext = structuredClone(s['TransactionStd']);
      properties(ext)['account'] = { $ref: '#/components/schemas/TonAddr' };
      (ext['required'] as string[]).push('account');
      s['TransactionExt'] = ext;
    },
  },
];

/** Removes what ajv cannot use: OpenAPI `discriminator` and `x-` vendor keys. */
function forAjv(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forAjv);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'discriminator' || key.startsWith('x-')) continue;
    out[key] = forAjv(v);
  }
  return out;
}

let ajv: Ajv | undefined;

/** A validator of one component schema of the (patched) C++ spec. */
export function cppValidator(name: string): ValidateFunction {
  if (!ajv) {
    const spec = parseYaml(fs.readFileSync(CPP_SPEC_PATH, 'utf8')) as { components: { schemas: Record<string, Schema> } };
    const schemas = spec.components.schemas;
    for (const patch of SCHEMA_PATCHES) patch.apply(schemas);
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'cpp', components: { schemas: forAjv(schemas) } });
  }
  const validate = ajv.getSchema(`cpp#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in ${CPP_SPEC_PATH}`);
  return validate;
}

/** The schema errors of a value, as short readable lines (empty when it validates). */
export function cppSchemaErrors(name: string, value: unknown): string[] {
  const validate = cppValidator(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
