import { param } from '../params';

/** Parameter schemas that pairs of methods share (a method and its Ext/Std twin), kept in one place. */

/** getBlockTransactions and getBlockTransactionsExt. */
export const blockTransactionsParams = {
  workchain: param.int32(),
  shard: param.int64(),
  seqno: param.int32(),
  root_hash: param.hash().optional(),
  file_hash: param.hash().optional(),
  after_lt: param.int64().optional(),
  after_hash: param.afterHash().optional(),
  count: param.int32().withDefault(40),
};

/** getTransactions and getTransactionsStd. */
export const accountTransactionsParams = {
  address: param.address(),
  limit: param.int32().withDefault(10),
  lt: param.int64().optional(),
  hash: param.hash().optional(),
  to_lt: param.int64().optional(),
  archival: param.bool().optional(),
};

/** runGetMethod and runGetMethodStd. */
export const getMethodParams = {
  address: param.address(),
  method: param.methodId(),
  stack: param.jsonArray(),
  seqno: param.strictInt32().optional(),
};

/** tryLocateResultTx (tryLocateTx) and tryLocateSourceTx. */
export const locateParams = {
  source: param.address(),
  destination: param.address(),
  created_lt: param.int64(),
};
