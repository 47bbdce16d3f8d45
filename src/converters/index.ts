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
export { toExtMessageInfo, type ExtMessageInfoJson } from './extMessage';
export { CONFIG_GAS_PRICES_BASECHAIN, CONFIG_GAS_PRICES_MASTERCHAIN, CONFIG_MSG_PRICES_BASECHAIN, CONFIG_MSG_PRICES_MASTERCHAIN, CONFIG_STORAGE_PRICES, FeeBreakdown, QueryFeesJson, cellStats, forwardFee, gasFee, outboundForwardFees, parseGasPrices, parseMsgPrices, parseStoragePrices, storageFee, toQueryFees } from './fees';
export { DnsResolvedJson, MAX_DNS_NAME_BYTES, decodeDnsName, encodeDnsName, toDnsEntry, toDnsResolved } from './dns';
export { DnsContentJson, TokenContentJson, TokenDataJson, parseDnsRecords, parseTokenContent, readJettonWalletData, readNftItemData, stackAddress, stackCell, stackInt, toJettonMasterData, toJettonWalletData, toNftCollectionData, toNftItemData } from './tokenData';
