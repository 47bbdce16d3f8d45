import { parseLegacyStack, parseTypedStack } from '../converters';
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

/**
 * runGetMethod and runGetMethodStd: the same parameters, the stack in each one's dialect. The
 * stack's bounds are part of parsing (422 before the cache, the head or a lite server), and the
 * parsed entries are what the method runs with.
 */
function getMethodParams<T>(stack: (items: unknown[]) => T) {
  return {
    address: param.address(),
    method: param.methodId(),
    stack: param.parsedArray(stack),
    seqno: param.strictInt32().optional(),
  };
}

export const legacyGetMethodParams = getMethodParams((items) => parseLegacyStack(items));
export const typedGetMethodParams = getMethodParams((items) => parseTypedStack(items));

/** tryLocateResultTx (tryLocateTx) and tryLocateSourceTx. */
export const locateParams = {
  source: param.address(),
  destination: param.address(),
  created_lt: param.int64(),
};
