import { accountStates, walletStates } from './accountStates';
import { actions } from './actions';
import { addressBook } from './addressBook';
import { adjacentTransactions } from './adjacentTransactions';
import { blocks } from './blocks';
import { dnsRecords } from './dns';
import { jettonBurns, jettonMasters, jettonTransfers, jettonWallets } from './jettons';
import { masterchainBlockShards } from './masterchainBlockShards';
import { masterchainBlockShardState } from './masterchainBlockShardState';
import { masterchainInfo } from './masterchainInfo';
import { messages } from './messages';
import { metadata } from './metadata';
import { multisigOrders, multisigWallets } from './multisig';
import { nftCollections, nftItems, nftTransfers } from './nft';
import { pendingActions, pendingTraces, pendingTransactions } from './pending';
import type { AnyRoute } from './route';
import { topAccountsByBalance } from './topAccountsByBalance';
import { events, traces } from './traces';
import { transactions } from './transactions';
import { transactionsByMasterchainBlock } from './transactionsByMasterchainBlock';
import { transactionsByMessage } from './transactionsByMessage';
import { vestingContracts } from './vesting';

/** Every indexed v3 route, in ton-index-go's order. */
export const V3_ROUTES: readonly AnyRoute[] = [
  masterchainInfo,
  masterchainBlockShardState,
  masterchainBlockShards,
  blocks,
  pendingTransactions,
  transactions,
  transactionsByMasterchainBlock,
  transactionsByMessage,
  adjacentTransactions,
  messages,
  topAccountsByBalance,
  addressBook,
  metadata,
  accountStates,
  walletStates,
  traces,
  events,
  pendingTraces,
  pendingActions,
  actions,
  jettonMasters,
  jettonWallets,
  jettonTransfers,
  jettonBurns,
  nftCollections,
  nftItems,
  nftTransfers,
  multisigWallets,
  multisigOrders,
  vestingContracts,
  dnsRecords,
];
