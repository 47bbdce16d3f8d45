import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandlers } from '../dispatcher';
import { getAccountState } from './getAccountState';
import { getAccountStatePrunned } from './getAccountStatePrunned';
import { getAllShardsInfo } from './getAllShardsInfo';
import { getBlock } from './getBlock';
import { getBlockHeader } from './getBlockHeader';
import { getBlockOutMsgQueueSize } from './getBlockOutMsgQueueSize';
import { getBlockProof } from './getBlockProof';
import { getConfigAll } from './getConfigAll';
import { getConfigParams } from './getConfigParams';
import { getLibraries } from './getLibraries';
import { getMasterchainInfo } from './getMasterchainInfo';
import { getMasterchainInfoExt } from './getMasterchainInfoExt';
import { getOneTransaction } from './getOneTransaction';
import { getOutMsgQueueSizes } from './getOutMsgQueueSizes';
import { getShardBlockProof } from './getShardBlockProof';
import { getShardInfo } from './getShardInfo';
import { getState } from './getState';
import { getTime } from './getTime';
import { getTransactions } from './getTransactions';
import { getVersion } from './getVersion';
import { listBlockTransactions } from './listBlockTransactions';
import { listBlockTransactionsExt } from './listBlockTransactionsExt';
import { lookupBlock } from './lookupBlock';
import { runSmcMethod } from './runSmcMethod';
import { sendMessage } from './sendMessage';

/**
 * The lite functions the local chain serves. Anything absent (lookupBlockWithProof,
 * getLibrariesWithProof, getValidatorStats, dispatch queues, nonfinal.*) is answered by the
 * dispatcher with 621 `unknown query`.
 */
export function createLocalnetHandlers(chain: LocalChain): LiteHandlers {
  return {
    'liteServer.getMasterchainInfo': getMasterchainInfo(chain),
    'liteServer.getMasterchainInfoExt': getMasterchainInfoExt(chain),
    'liteServer.getTime': getTime(chain),
    'liteServer.getVersion': getVersion(chain),
    'liteServer.getBlock': getBlock(chain),
    'liteServer.getState': getState(chain),
    'liteServer.getBlockHeader': getBlockHeader(chain),
    'liteServer.sendMessage': sendMessage(chain),
    'liteServer.getAccountState': getAccountState(chain),
    'liteServer.getAccountStatePrunned': getAccountStatePrunned(chain),
    'liteServer.runSmcMethod': runSmcMethod(chain),
    'liteServer.getShardInfo': getShardInfo(chain),
    'liteServer.getAllShardsInfo': getAllShardsInfo(chain),
    'liteServer.getOneTransaction': getOneTransaction(chain),
    'liteServer.getTransactions': getTransactions(chain),
    'liteServer.lookupBlock': lookupBlock(chain),
    'liteServer.listBlockTransactions': listBlockTransactions(chain),
    'liteServer.listBlockTransactionsExt': listBlockTransactionsExt(chain),
    'liteServer.getBlockProof': getBlockProof(chain),
    'liteServer.getConfigAll': getConfigAll(chain),
    'liteServer.getConfigParams': getConfigParams(chain),
    'liteServer.getLibraries': getLibraries(chain),
    'liteServer.getShardBlockProof': getShardBlockProof(chain),
    'liteServer.getOutMsgQueueSizes': getOutMsgQueueSizes(chain),
    'liteServer.getBlockOutMsgQueueSize': getBlockOutMsgQueueSize(chain),
  };
}
