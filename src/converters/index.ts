/**
 * Pure converters from @ton/core objects to toncenter v2 JSON. No I/O: handlers fetch from lite
 * servers, these functions only shape the answers.
 */
export * from './accountState';
export * from './address';
export * from './blockHeader';
export * from './blockId';
export * from './blockTransactions';
export * from './config';
export * from './extMessage';
export * from './libraries';
export * from './masterchainInfo';
export * from './message';
export * from './outMsgQueueSizes';
export * from './shardBlockProof';
export * from './shards';
export * from './signatures';
export * from './stack';
export * from './suspendedAccounts';
export * from './transaction';
export * from './wallet';
export * from './extMessage';
export * from './fees';
export * from './dns';
export * from './tokenData';
