/**
 * The handler table: every TON HTTP API v2 method, one file each, grouped by category. REST
 * routes, JSON-RPC and the method list are all derived from this table.
 */
import detectAddress from './utils/detectAddress';
import detectHash from './utils/detectHash';
import packAddress from './utils/packAddress';
import unpackAddress from './utils/unpackAddress';
import dnsResolve from './accounts/dnsResolve';
import getAddressBalance from './accounts/getAddressBalance';
import getAddressInformation from './accounts/getAddressInformation';
import getAddressState from './accounts/getAddressState';
import getExtendedAddressInformation from './accounts/getExtendedAddressInformation';
import getShardAccountCell from './accounts/getShardAccountCell';
import getTokenData from './accounts/getTokenData';
import getWalletInformation from './accounts/getWalletInformation';
import getBlockHeader from './blocks/getBlockHeader';
import getConsensusBlock from './blocks/getConsensusBlock';
import getMasterchainBlockSignatures from './blocks/getMasterchainBlockSignatures';
import getMasterchainInfo from './blocks/getMasterchainInfo';
import getOutMsgQueueSize from './blocks/getOutMsgQueueSize';
import getShardBlockProof from './blocks/getShardBlockProof';
import getShards from './blocks/getShards';
import lookupBlock from './blocks/lookupBlock';
import getBlockTransactions from './transactions/getBlockTransactions';
import getBlockTransactionsExt from './transactions/getBlockTransactionsExt';
import getTransactions from './transactions/getTransactions';
import getTransactionsStd from './transactions/getTransactionsStd';
import tryLocateResultTx from './transactions/tryLocateResultTx';
import tryLocateSourceTx from './transactions/tryLocateSourceTx';
import getConfigAll from './chainConfig/getConfigAll';
import getConfigParam from './chainConfig/getConfigParam';
import getLibraries from './chainConfig/getLibraries';
import runGetMethod from './run/runGetMethod';
import runGetMethodStd from './run/runGetMethodStd';
import estimateFee from './send/estimateFee';
import sendBoc from './send/sendBoc';
import sendBocReturnHash from './send/sendBocReturnHash';
import sendBocReturnHashNoError from './send/sendBocReturnHashNoError';
import sendQuery from './send/sendQuery';
import type { Handler } from './types';

export const HANDLERS: readonly Handler[] = [
  detectAddress,
  detectHash,
  packAddress,
  unpackAddress,
  dnsResolve,
  getAddressBalance,
  getAddressInformation,
  getAddressState,
  getExtendedAddressInformation,
  getShardAccountCell,
  getTokenData,
  getWalletInformation,
  getBlockHeader,
  getConsensusBlock,
  getMasterchainBlockSignatures,
  getMasterchainInfo,
  getOutMsgQueueSize,
  getShardBlockProof,
  getShards,
  lookupBlock,
  getBlockTransactions,
  getBlockTransactionsExt,
  getTransactions,
  getTransactionsStd,
  tryLocateResultTx,
  tryLocateSourceTx,
  getConfigAll,
  getConfigParam,
  getLibraries,
  runGetMethod,
  runGetMethodStd,
  estimateFee,
  sendBoc,
  sendBocReturnHash,
  sendBocReturnHashNoError,
  sendQuery,
];

export class HandlerTable {
  private readonly byName = new Map<string, Handler>();

  constructor(readonly handlers: readonly Handler[]) {
    for (const handler of handlers) {
      for (const name of [handler.name, ...handler.aliases]) {
        if (this.byName.has(name)) throw new Error(`duplicate method name ${name}`);
        this.byName.set(name, handler);
      }
    }
  }

  /** Looks a method up by its name or one of its aliases. */
  find(name: string): Handler | undefined {
    return this.byName.get(name);
  }

  /** Every name the API answers to, aliases included. */
  names(): string[] {
    return [...this.byName.keys()];
  }
}

export function createHandlerTable(): HandlerTable {
  return new HandlerTable(HANDLERS);
}
export {
  type CachePolicy,
  type CallSession,
  type Handler,
  type HandlerCategory,
  type HandlerContext,
  type HttpVerb,
  type JsonValue,
  type ParsedCall,
} from './types';
export { RESULT_COMPONENTS, type JsonSchema } from './resultSchema';
/** The result schemas' building blocks, for the documents that describe other answers (docs). */
export * as resultSchema from './resultSchema';
