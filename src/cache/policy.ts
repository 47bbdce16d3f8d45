/**
 * Which masterchain block a method's answer is a function of, which decides its cache key:
 *
 * - `head`: the request's head (every "latest" read, and reads whose inputs name blocks or
 *   transactions: keyed under the head they were answered at, which is always right and lets a
 *   new head end them);
 * - `seqno`: the masterchain block named by the `seqno` parameter when given, else the head;
 * - `never`: not cached (sends, anything answered without the chain, the pool's own view).
 */
export type CachePolicy = 'head' | 'seqno' | 'never';

export const CACHE_POLICIES: Readonly<Record<string, CachePolicy>> = {
  // utils: answered without the chain; parsing is all they cost.
  detectAddress: 'never',
  detectHash: 'never',
  packAddress: 'never',
  unpackAddress: 'never',
  // accounts
  getAddressInformation: 'seqno',
  getExtendedAddressInformation: 'seqno',
  getWalletInformation: 'seqno',
  getAddressBalance: 'seqno',
  getAddressState: 'seqno',
  getShardAccountCell: 'seqno',
  getTokenData: 'seqno',
  dnsResolve: 'seqno',
  // blocks
  getMasterchainInfo: 'head',
  getMasterchainBlockSignatures: 'seqno',
  getShardBlockProof: 'head',
  getConsensusBlock: 'never',
  lookupBlock: 'head',
  getShards: 'seqno',
  getBlockHeader: 'head',
  // The lite function answers at the server's own newest state, not at a block we name.
  getOutMsgQueueSize: 'never',
  // transactions
  getBlockTransactions: 'head',
  getBlockTransactionsExt: 'head',
  getTransactions: 'head',
  getTransactionsStd: 'head',
  tryLocateResultTx: 'head',
  tryLocateSourceTx: 'head',
  // config
  getConfigParam: 'seqno',
  getConfigAll: 'seqno',
  getLibraries: 'head',
  // run
  runGetMethod: 'seqno',
  runGetMethodStd: 'seqno',
  // send: never (a send is an action, and estimateFee depends on the message only at the head it
  // runs at, which it reads itself).
  estimateFee: 'never',
  sendBoc: 'never',
  sendBocReturnHash: 'never',
  sendBocReturnHashNoError: 'never',
  sendQuery: 'never',
};

export function cachePolicyOf(method: string): CachePolicy {
  return CACHE_POLICIES[method] ?? 'never';
}
